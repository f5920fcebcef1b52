import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import GRDB
import Testing

/// Whether a release's full details are in (`Release.hasFullDetails`, migration "v5 release
/// details"): kept through every write, never lost to a search result, and the queue of
/// releases still to fetch.
@Suite struct ReleaseDetailsTests {
    private func summary(_ id: Int, title: String = "Title") -> Release {
        var r = release(id, title: title)
        r.hasFullDetails = false
        r.rawJSON = #"{"id": \#(id), "title": "Artist - \#(title)"}"#
        return r
    }

    private func match(_ store: CollectionStore, _ n: Int, to release: Release) async throws -> Int64 {
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(n), addMethod: .wedge))
        let job = try #require(try await store.claimNext(now: Date(), lease: 60))
        #expect(job.recordID == record.id)
        try await store.complete(job, with: .matched(release))
        return record.id
    }

    @Test(arguments: StoreKind.allCases)
    func aSearchResultIsKeptAsSuchUntilTheReleaseComes(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let id = try await match(store, 1, to: summary(7))
        #expect(try await store.details(id)?.release?.hasFullDetails == false)
        #expect(try await store.releasesWithoutDetails() == 1)
        #expect(try await store.nextReleaseWithoutDetails(excluding: []) == 7)
        #expect(try await store.nextReleaseWithoutDetails(excluding: [7]) == nil)

        var full = release(7, title: "Title")
        full.rawJSON = #"{"id": 7, "tracklist": [{"title": "One"}]}"#
        try await store.storeDetails(full)
        let stored = try #require(try await store.details(id)?.release)
        #expect(stored.hasFullDetails && stored.rawJSON.contains("tracklist"))
        #expect(try await store.nextReleaseWithoutDetails(excluding: []) == nil)
        #expect(try await store.releasesWithoutDetails() == 0)

        // Another copy matched from a search result later: the full release stays.
        let second = try await match(store, 2, to: summary(7, title: "Title"))
        let kept = try #require(try await store.details(second)?.release)
        #expect(kept.hasFullDetails && kept.rawJSON.contains("tracklist"))
        #expect(try await store.record(second)?.lookupState == .matched)
    }

    @Test func theNextReleaseToFetchIsOneARecordPointsAtNewestFirst() async throws {
        let store = try CollectionStore.inMemory()
        _ = try await match(store, 1, to: summary(10))
        _ = try await match(store, 2, to: summary(11))
        // A release no record points at (the record was deleted) is not worth a request.
        let gone = try await match(store, 3, to: summary(12))
        try await store.delete([gone])
        #expect(try await store.nextReleaseWithoutDetails(excluding: []) == 11)
        #expect(try await store.nextReleaseWithoutDetails(excluding: [11]) == 10)
        #expect(try await store.nextReleaseWithoutDetails(excluding: [10, 11]) == nil)
    }

    /// A database from before the migration: its releases were all fetched in full.
    @Test func releasesStoredBeforeTheMigrationHaveTheirDetails() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let id: Int64
        do {
            let store = try CollectionStore(path: path)
            id = try await match(store, 1, to: release(5, title: "Old"))
        }
        // Back to the schema of "v3 pinned release".
        do {
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(sql: "DROP INDEX release_without_details")
                try db.execute(sql: "ALTER TABLE release DROP COLUMN hasFullDetails")
                try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v5 release details'")
            }
        }
        let store = try CollectionStore(path: path)
        #expect(try await store.details(id)?.release?.hasFullDetails == true)
        #expect(try await store.nextReleaseWithoutDetails(excluding: []) == nil)
    }
}
