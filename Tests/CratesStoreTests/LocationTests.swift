import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@_spi(Benchmark) @testable import CratesStore

/// Places in the store: the tree and its rules, moves and their undo, the list and export
/// filtered to a place, imports that name places, and v7's migration of free-text locations.
@Suite("Locations in the store")
struct LocationTests {
    /// Living Room › Shelf 2 › Crate A3, and Living Room › Shelf 1.
    static func rooms(_ store: CollectionStore) async throws -> (room: Location, shelf: Location, crate: Location, other: Location) {
        let room = try await store.addLocation(name: "Living Room", in: nil)
        let shelf = try await store.addLocation(name: "Shelf 2", in: room.id)
        let crate = try await store.addLocation(name: "Crate A3", in: shelf.id)
        let other = try await store.addLocation(name: "Shelf 1", in: room.id)
        return (room, shelf, crate, other)
    }

    @Test("add, rename and move places; names unique in a place; no place inside itself", arguments: StoreKind.allCases)
    func rules(_ kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let (room, shelf, crate, other) = try await Self.rooms(store)
        #expect(crate.pathText == "Living Room › Shelf 2 › Crate A3" && crate.parentID == shelf.id)
        await #expect(throws: StoreError.location(.exists(name: "crate a3", in: shelf))) {
            try await store.addLocation(name: "crate a3", in: shelf.id)
        }
        await #expect(throws: StoreError.location(.cycle(place: room, into: crate))) {
            try await store.changeLocation(room.id, parent: .inside(crate.id))
        }
        await #expect(throws: StoreError.location(.cycle(place: shelf, into: shelf))) {
            try await store.changeLocation(shelf.id, parent: .inside(shelf.id))
        }
        await #expect(throws: StoreError.location(.unknownID(99))) { try await store.addLocation(name: "X", in: 99) }
        let moved = try await store.changeLocation(crate.id, name: "Crate B1", parent: .inside(other.id))
        #expect(moved.pathText == "Living Room › Shelf 1 › Crate B1")
        let top = try await store.changeLocation(moved.id, parent: .top)
        #expect(top.pathText == "Crate B1" && top.parentID == nil)
        let tree = try await store.locationTree()
        #expect(tree.nodes.map(\.name) == ["Crate B1", "Living Room", "Shelf 1", "Shelf 2"])
    }

    @Test("moving records and undoing it; removing a place with and without a receiving place", arguments: StoreKind.allCases)
    func movesAndRemoval(_ kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let (room, shelf, crate, other) = try await Self.rooms(store)
        let a = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .wedge, locationID: crate.id))
        let b = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addMethod: .wedge, locationID: shelf.id))
        let c = try await store.add(NewRecord(gtin: Fixtures.gtin(3), addMethod: .wedge))
        #expect(a.location == crate && c.location == nil)
        let moves = try await store.moveRecords([a.id, c.id, 999], to: other.id)
        #expect(moves == [.init(recordID: a.id, from: crate.id), .init(recordID: c.id, from: nil)])
        #expect(try await store.record(a.id)?.location?.id == other.id)
        try await store.restoreLocations(moves)
        #expect(try await store.record(a.id)?.location?.id == crate.id)
        #expect(try await store.record(c.id)?.location == nil)

        var tree = try await store.locationTree()
        #expect(tree.total(room.id) == 2 && tree.total(shelf.id) == 2 && tree.node(shelf.id)?.count == 1)
        // Shelf 2 into Shelf 1: its crate and its record move, the place goes.
        let removal = try await store.removeLocation(shelf.id, moveTo: other.id)
        #expect(removal.placesMoved == 1 && removal.recordsMoved == 1 && removal.placesRemoved == 0)
        #expect(try await store.record(b.id)?.location?.id == other.id)
        #expect(try await store.location(crate.id)?.pathText == "Living Room › Shelf 1 › Crate A3")
        // Removing the room moves its contents: the room is not put anywhere.
        await #expect(throws: StoreError.location(.moveIntoRemoved(removing: room, into: other))) {
            try await store.removeLocation(room.id, moveTo: other.id)
        }
        // The room with everything in it: the records stay, in no place.
        let all = try await store.removeLocation(room.id)
        #expect(all.placesRemoved == 2 && all.recordsUnplaced == 2)
        tree = try await store.locationTree()
        #expect(tree.isEmpty)
        #expect(try await store.record(a.id)?.location == nil)
        #expect(try await store.record(b.id)?.location == nil)
        // Ids are never reused: a printed label cannot come to name a new place.
        let next = try await store.addLocation(name: "Kitchen", in: nil)
        #expect(next.id > other.id)
        // An undo of a move into a place removed meanwhile leaves the copy in none.
        try await store.restoreLocations([.init(recordID: c.id, from: crate.id)])
        #expect(try await store.record(c.id)?.location == nil)
        // Adding into a place that is gone says so.
        await #expect(throws: StoreError.location(.unknownID(crate.id))) {
            try await store.add(NewRecord(gtin: Fixtures.gtin(4), addMethod: .wedge, locationID: crate.id))
        }
    }

    @Test("the list's window and the export, filtered to a place and the places inside it", arguments: StoreKind.allCases)
    func filtered(_ kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let (room, shelf, crate, other) = try await Self.rooms(store)
        var ids: [Int64] = []
        for (n, place) in [(1, crate.id), (2, shelf.id), (3, other.id), (4, nil)] as [(Int, Int64?)] {
            ids.append(try await store.add(NewRecord(gtin: Fixtures.gtin(n), addMethod: .wedge, locationID: place)).id)
        }
        let whole = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 10), location: room.id))
        #expect(whole.rows.map(\.recordID).sorted() == Array(ids.prefix(3)) && whole.totalRecords == 4 && whole.location == room.id)
        let shelfOnly = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 10), focus: ids[3], location: shelf.id))
        #expect(shelfOnly.rows.map(\.recordID).sorted() == Array(ids.prefix(2)))
        #expect(shelfOnly.focusRow == nil, "a record elsewhere is not in the place's list")
        let filtered = try await store.window(CollectionQuery(filter: Fixtures.gtin(2).canonical, window: RowWindow(offset: 0, limit: 10), location: room.id))
        #expect(filtered.rows.map(\.recordID) == [ids[1]])
        let exported = LockBox<[ExportedRecord]>()
        try await store.forEachPage(ExportFilter(location: shelf.id), detail: .full) { page in
            for entry in page { exported.append(entry) }
        }
        #expect(exported.all.map(\.record.id).sorted() == Array(ids.prefix(2)))
        #expect(exported.all.compactMap(\.record.location?.pathText).sorted()
            == ["Living Room › Shelf 2", "Living Room › Shelf 2 › Crate A3"])
    }

    @Test("an import's locations join the places they name, or make them", arguments: StoreKind.allCases)
    func imports(_ kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let (_, _, crate, _) = try await Self.rooms(store)
        let entries = [
            ImportEntry(line: 1, gtin: Fixtures.gtin(1), location: "Crate A3"),
            ImportEntry(line: 2, gtin: Fixtures.gtin(2), location: "Living Room › Shelf 3 › Crate C"),
            ImportEntry(line: 3, gtin: Fixtures.gtin(3), location: "Metal shelf"),
            ImportEntry(line: 4, gtin: Fixtures.gtin(4), location: "metal SHELF"),
            ImportEntry(line: 5, gtin: Fixtures.gtin(5)),
        ].compactMap { $0 }
        let ids = try await store.importEntries(entries)
        var places: [String?] = []
        for id in ids { places.append(try await store.record(id)?.location?.pathText) }
        #expect(places == ["Living Room › Shelf 2 › Crate A3", "Living Room › Shelf 3 › Crate C", "Metal shelf", "Metal shelf", nil])
        #expect(try await store.record(ids[0])?.location?.id == crate.id)
        // NewRecord names a place by path the same way (an import of release rows).
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(6), addMethod: .import, location: "Shelf 3/Crate C"))
        #expect(record.location?.pathText == "Living Room › Shelf 3 › Crate C")
    }

    @Test("v7 turns each free-text location into a place (a › path into nested places) and clears the text")
    func migration() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.sqlite")
        try await OlderCollection.make(at: path, upTo: "v3 pinned release") { queue in
            try await queue.write { db in
                for (n, location) in [(1, "Crate 3"), (2, "Living Room › Shelf 2"), (3, "Crate 3"), (4, nil)] as [(Int, String?)] {
                    try db.execute(
                        sql: """
                            INSERT INTO record (gtin, addedAt, addMethod, location, lookupState, sectionKey, rowKey, updatedAt)
                            VALUES (?, 0, 'typed', ?, 'pending', ?, ?, 0)
                            """,
                        arguments: [Fixtures.gtin(n).canonical, location, SortKey.unknownSection, SortKey.unmatchedRow])
                }
                try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: 4)
            }
        }
        let store = try CollectionStore(path: path)
        let tree = try await store.locationTree()
        #expect(tree.nodes.compactMap { tree.location($0.id)?.pathText } == ["Crate 3", "Living Room", "Living Room › Shelf 2"])
        let records = try await store.sections().flatMap(\.rows)
        var paths: [String?] = []
        for row in records.sorted(by: { $0.recordID < $1.recordID }) {
            paths.append(try await store.record(row.recordID)?.location?.pathText)
        }
        #expect(paths == ["Crate 3", "Living Room › Shelf 2", "Crate 3", nil])
        let leftover = try await DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE location IS NOT NULL")
        }
        #expect(leftover == 0)
    }
}
