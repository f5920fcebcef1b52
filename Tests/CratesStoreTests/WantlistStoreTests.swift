import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesStore

/// "v18 wantlist": each release's master kept by triggers, the wantlist and its removals,
/// and what a check reads of the collection.
@Suite("The wantlist and release masters (v18)")
struct WantlistStoreTests {
    static func release(_ id: Int, master: Int?, json: String? = nil) -> Release {
        Release(
            id: id, artist: "A", title: "T \(id)", genres: ["Rock"],
            rawJSON: json ?? (master.map { #"{"id": \#(id), "master_id": \#($0)}"# } ?? #"{"id": \#(id)}"#))
    }

    @Test("v18 on a v17 database: masters read from the releases' JSON already stored; a JSON that does not parse gives none and fails no write")
    func migration() async throws {
        let directory = try TemporaryDirectory(prefix: "crates-v18")
        let path = directory.file("v17.sqlite")
        try await OlderCollection.make(at: path, upTo: "v17 deleted copies") { queue in
            try await queue.write { db in
                _ = try StoredValues.upsertRelease(db, Self.release(1, master: 10), now: Date())
                _ = try StoredValues.upsertRelease(db, Self.release(2, master: nil, json: "not json {"), now: Date())
            }
        }
        let store = try CollectionStore(path: path)
        #expect(try await store.integrityProblems().isEmpty)
        let masters = try await store.read { db in try Row.fetchAll(db, sql: "SELECT id, masterID FROM release ORDER BY id").map { [$0[0], $0[1]] as [Int?] } }
        #expect(masters == [[1, 10], [2, nil]])
        // Kept by the triggers on every later write, whatever the path.
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(3), addMethod: .typed, release: Self.release(3, master: 10)))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(4), addMethod: .typed, release: Self.release(4, master: nil, json: "[]")))
        let facts = try await store.checkFacts(releases: [1], masters: [10], gtin: nil)
        #expect(facts.sameMaster.map(\.copy.releaseID) == [3], "release 3 is another pressing of master 10")
        #expect(facts.owned.isEmpty)
    }

    @Test("a want removed here is kept as a removal only while Discogs holds it; wanted again, it comes back")
    func removals() async throws {
        let store = try CollectionStore.inMemory()
        let want = WantEntry(releaseID: 5, artist: "A", title: "T", notes: "n", rating: Rating(clamping: 3), addedAt: Date())
        let added = try await store.addWant(want)
        #expect(added == .added(try #require(try await store.want(5))))
        if case .already = try await store.addWant(want) {} else { Issue.record("added twice") }
        try await store.removeWant(5)
        #expect(try await store.want(5) == nil)
        #expect(try await store.wantSyncRows([5]).isEmpty, "never on Discogs: forgotten at once")

        _ = try await store.addWant(want)
        let sent = SyncedValues(rating: Rating(clamping: 3), notes: "n")
        let entry = try await store.planWantPush(.wantAdd, releaseID: 5, values: sent)
        try await store.completeWantPush(entry, releaseID: 5, sent: sent)
        try await store.removeWant(5)
        #expect(try await store.want(5) == nil)
        #expect(try await store.wantsToRemove().map(\.releaseID) == [5], "on Discogs: kept for the sync to remove there")
        _ = try await store.addWant(want)
        let again = try await store.want(5)
        let toRemove = try await store.wantsToRemove()
        #expect(again != nil && toRemove.isEmpty, "wanted again")
    }

    @Test("marks: copies, the first one's place and grade, and the wantlist")
    func marks() async throws {
        let store = try CollectionStore.inMemory()
        let shelf = try await store.addLocation(name: "Shelf", in: nil)
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(1), addedAt: Date(timeIntervalSince1970: 1), addMethod: .typed, locationID: shelf.id,
            release: Self.release(1, master: nil), grading: CopyGrading(media: .veryGoodPlus, sleeve: .veryGood)))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Date(timeIntervalSince1970: 2), addMethod: .typed, release: Self.release(1, master: nil)))
        _ = try await store.addWant(WantEntry(releaseID: 2, artist: "B", title: "U", addedAt: Date()))
        let marks = try await store.releaseMarks([1, 2, 3])
        #expect(marks[1] == ReleaseMarks(copies: 2, place: "Shelf", grade: "VG+/VG", wanted: false))
        #expect(marks[1]?.text == "owned ×2 (Shelf, VG+/VG)")
        #expect(marks[2]?.text == "wanted")
        #expect(marks[3] == nil)
    }
}
