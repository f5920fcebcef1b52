import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// What the UI's tags ask of the store: the ids of every record the list shows (the same
/// records as its window), and one edit of many records in one transaction, whose inverse
/// edits put each back.
@Suite("Store: tagged records")
struct TaggedBatchTests {
    @Test("recordIDs(shownBy:) are the records the list's window shows: its filter, its place and the places inside")
    func shownRecords() async throws {
        let store = try CollectionStore.inMemory()
        let room = try await store.addLocation(name: "Living Room", in: nil)
        let crate = try await store.addLocation(name: "Crate A1", in: room.id)
        var ids: [Int64] = []
        for n in 1...12 {
            var new = NewRecord(
                gtin: Fixtures.gtin(n), addMethod: .typed,
                release: release(n, artist: n % 3 == 0 ? "Björk" : "Portishead", title: "Title \(n)", genres: [n % 2 == 0 ? "Rock" : "Jazz"]))
            new.locationID = n <= 4 ? crate.id : n <= 6 ? room.id : nil
            ids.append(try await store.add(new).id)
        }
        for query in [
            CollectionQuery(window: RowWindow(offset: 0, limit: 100)),
            CollectionQuery(filter: "bjork", window: RowWindow(offset: 0, limit: 100)),
            CollectionQuery(filter: "bjork year:1997", window: RowWindow(offset: 0, limit: 100)),
            CollectionQuery(window: RowWindow(offset: 0, limit: 100), location: room.id),
            CollectionQuery(filter: "portishead", window: RowWindow(offset: 0, limit: 100), location: crate.id),
            CollectionQuery(window: RowWindow(offset: 0, limit: 100), facet: StatisticsFacet(.genre, "Jazz")),
            CollectionQuery(filter: "nothing like it", window: RowWindow(offset: 0, limit: 100)),
        ] {
            let shown = try await store.window(query).rows.map(\.recordID)
            let tagged = try await store.recordIDs(shownBy: query)
            #expect(Set(tagged) == Set(shown) && tagged.count == shown.count, "\(query.filter) \(String(describing: query.location))")
        }
        #expect(try await store.recordIDs(shownBy: CollectionQuery(filter: "bjork", window: RowWindow(offset: 0, limit: 0))).count == 4)
        #expect(try await store.recordIDs(shownBy: CollectionQuery(window: RowWindow(offset: 0, limit: 0), location: room.id)).count == 6)
        await #expect(throws: StoreError.self) {
            try await store.recordIDs(shownBy: CollectionQuery(filter: "year:1979..1970", window: RowWindow(offset: 0, limit: 0)))
        }
    }

    @Test("edit of many records: one call sets every one, skips the missing, returns each as it was; the inverses put them back")
    func editMany() async throws {
        let store = try CollectionStore.inMemory()
        var ids: [Int64] = []
        for n in 1...3 {
            var new = NewRecord(gtin: Fixtures.gtin(n), addMethod: .typed, release: release(n))
            new.grading = CopyGrading(media: n == 1 ? .mint : nil, rating: Rating(clamping: n))
            ids.append(try await store.add(new).id)
        }
        let edit = RecordEdit(grading: CopyGradingChange(media: .set(.veryGoodPlus), rating: Rating(clamping: 5)))
        let before = try await store.edit(ids.map { (recordID: $0, edit: edit) } + [(recordID: 999, edit: edit)])
        #expect(before.map(\.id) == ids, "the missing record skipped, the others in the order given")
        #expect(before.map(\.grading.rating.value) == [1, 2, 3])
        for id in ids {
            let record = try #require(try await store.record(id))
            #expect(record.grading.media == .veryGoodPlus && record.grading.rating.value == 5)
            #expect(try await store.details(id)?.history.contains { $0.kind == .edited } == true)
        }
        try await store.edit(before.map { (recordID: $0.id, edit: edit.inverse(of: $0)) })
        for (n, id) in ids.enumerated() {
            let record = try #require(try await store.record(id))
            #expect(record.grading.media == (n == 0 ? .mint : nil))
            #expect(record.grading.rating.value == n + 1)
        }
    }

    @Test("a move of 40 records and its undo: each back where it was, records deleted meanwhile skipped")
    func moveForty() async throws {
        let store = try CollectionStore.inMemory()
        let crate = try await store.addLocation(name: "Crate A1", in: nil)
        let shelf = try await store.addLocation(name: "Shelf 1", in: nil)
        var ids: [Int64] = []
        for n in 1...40 {
            var new = NewRecord(gtin: Fixtures.gtin(n), addMethod: .typed)
            new.locationID = n % 2 == 0 ? shelf.id : nil
            ids.append(try await store.add(new).id)
        }
        try await store.delete([ids[39]])  // another process's delete
        let moved = try await store.moveRecords(ids, to: crate.id)
        #expect(moved.count == 39)
        for id in ids.dropLast() { #expect(try await store.record(id)?.location?.id == crate.id) }
        try await store.restoreLocations(moved)
        for (n, id) in ids.dropLast().enumerated() {
            #expect(try await store.record(id)?.location?.id == ((n + 1) % 2 == 0 ? shelf.id : nil))
        }
    }
}
