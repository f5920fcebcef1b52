import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The conflicts a sync finds, kept in the store after it (for the collection UI's
/// conflicts view), and settled toward one side through the sync's outbox or pull, against
/// the loopback server's collection.
@Suite("Sync conflicts: kept, listed, settled")
struct SyncConflictTests {
    typealias R = SyncReleases

    /// Stockholm linked, then its rating set to 4 in crates and to 2 on Discogs; Likemind
    /// linked, then its notes set differently on both sides. Returns the two copies.
    static func twoConflicts(_ bench: SyncBench) async throws -> (stockholm: Int64, likemind: Int64) {
        try await bench.collection.seed(#"{"instances": [{"release_id": 1, "rating": 3}, {"release_id": 10507194}]}"#)
        let stockholm = try await bench.addCopy(R.stockholm, at: R.day(1))
        let likemind = try await bench.addCopy(R.likemind, at: R.day(2))
        #expect(try await bench.sync().linked == 2)
        let instances = try await bench.instances()
        let client = try bench.client()
        _ = try await bench.store.edit(stockholm, RecordEdit(grading: CopyGradingChange(rating: try Rating(4))))
        try await client.editInstance(username: SyncBench.owner, try #require(instances.first { $0.release_id == 1 }).key, rating: try Rating(2))
        _ = try await bench.store.edit(likemind, RecordEdit(note: .set("mine")))
        try await client.setField(
            username: SyncBench.owner, try #require(instances.first { $0.release_id == 10_507_194 }).key, fieldID: 3, value: "theirs")
        return (stockholm, likemind)
    }

    @Test("a conflict is kept after the sync with both values, the details know Discogs' value, a dry run counts the same; edited to Discogs' value, it is gone")
    func kept() async throws {
        let bench = try await SyncBench.start()
        let (stockholm, likemind) = try await Self.twoConflicts(bench)
        let report = try await bench.sync()
        #expect(report.conflicts.count == 2, "\(report.lines)")

        let stored = try await bench.store.syncConflicts()
        let instanceID = try #require(try await bench.store.details(stockholm)?.discogs?.instanceID)
        #expect(stored.map(\.recordID) == [stockholm, likemind])
        #expect(stored.first == SyncCopyConflict(
            recordID: stockholm, instanceID: instanceID, title: "The Persuader — Stockholm",
            fields: [.init(field: .rating, crates: "4", discogs: "2")]))
        #expect(stored.last?.fields == [.init(field: .notes, crates: "mine", discogs: "theirs")])

        // The details: Discogs' value beside the copy's.
        let link = try #require(try await bench.store.details(stockholm)?.discogs)
        #expect(link.conflicts == [.rating])
        let record = try #require(try await bench.store.record(stockholm))
        let differences = link.differences(from: SyncedValues(grading: record.grading, note: record.note))
        #expect(differences.map(\.text) == ["Discogs: ★★ (yours ★★★★)"])
        #expect(differences.first?.isConflict == true)

        // The next run knows them too, and a dry run counts what the store lists.
        let writes = try await bench.collection.stats().writes
        let dry = try await bench.sync(.init(dryRun: true))
        #expect(dry.conflicts.count == stored.reduce(0) { $0 + $1.fields.count })
        let again = try await bench.sync()
        #expect(again.conflicts.count == 2)
        #expect(try await bench.store.syncConflicts() == stored)
        #expect(try await bench.collection.stats().writes == writes, "a conflict is not pushed")

        // Set to Discogs' value in crates: nothing left to choose, at once.
        _ = try await bench.store.edit(stockholm, RecordEdit(grading: CopyGradingChange(rating: try Rating(2))))
        #expect(try await bench.store.syncConflicts().map(\.recordID) == [likemind])
    }

    @Test("keeping crates' value sends it through the outbox; taking Discogs' writes crates only; the next sync finds nothing to do")
    func settled() async throws {
        let bench = try await SyncBench.start()
        let (stockholm, likemind) = try await Self.twoConflicts(bench)
        _ = try await bench.sync()
        let edits = try await bench.collection.stats().requests["edit"] ?? 0

        let sync = DiscogsSync(store: bench.store, access: try bench.access())
        let kept = await sync.settle(recordIDs: [stockholm], toward: .crates)
        #expect(kept.failure == nil, "\(kept.settlement(toward: .crates))")
        #expect(kept.settlement(toward: .crates) == "Sent crates' values to Discogs: The Persuader — Stockholm (rating ★★★★).")
        #expect(try await bench.instances().first { $0.release_id == 1 }?.rating == 4)
        #expect(try await bench.collection.stats().requests["edit"] == edits + 1)
        #expect(try await bench.store.outboxCount() == 0)
        #expect(try await bench.store.syncConflicts().map(\.recordID) == [likemind])

        let taken = await sync.settle(recordIDs: [likemind], toward: .discogs)
        #expect(taken.failure == nil && taken.requests == 0, "taking needs no request")
        #expect(taken.settlement(toward: .discogs) == "Took Discogs' values: Various — Likemind 05 (notes theirs).")
        #expect(try await bench.store.record(likemind)?.note == "theirs")
        #expect(try await bench.store.syncConflicts().isEmpty)
        #expect(try await bench.store.details(likemind)?.discogs?.conflicts.isEmpty == true)

        let writes = try await bench.collection.stats().writes
        let next = try await bench.sync()
        #expect((next.conflicts.count, next.pushed, next.updated) == (0, 0, 0), "\(next.lines)")
        #expect(try await bench.collection.stats().writes == writes)
        #expect(try await bench.store.record(stockholm)?.grading.rating.value == 4)
    }

    @Test("--prefer settles the stored conflicts too")
    func preferSettles() async throws {
        let bench = try await SyncBench.start()
        _ = try await Self.twoConflicts(bench)
        _ = try await bench.sync()
        #expect(try await bench.store.syncConflicts().count == 2)
        let settled = try await bench.sync(.init(prefer: .discogs))
        #expect(settled.conflicts.isEmpty)
        #expect(try await bench.store.syncConflicts().isEmpty)
    }
}
