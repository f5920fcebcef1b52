import CratesCore
import Foundation
import GRDB

/// The releases completed from a search result whose full details are still to fetch.
extension CollectionStore: ReleaseDetailsQueue {
    /// The most recently stored release without its details that some record points at,
    /// other than `excluding`; nil when every one has them. Walks the partial index
    /// `release_without_details`, newest first.
    public func nextReleaseWithoutDetails(excluding: Set<Int>) async throws(StoreError) -> Int? {
        try await read { db in
            let skip = excluding.isEmpty ? "" : "AND r.id NOT IN (\(Self.placeholders(excluding.count)))"
            return try Int.fetchOne(
                db,
                sql: """
                    SELECT r.id FROM release r INDEXED BY release_without_details
                    WHERE r.hasFullDetails = 0 \(skip)
                      AND EXISTS (SELECT 1 FROM record WHERE releaseID = r.id)
                    ORDER BY r.fetchedAt DESC, r.id DESC LIMIT 1
                    """,
                arguments: StatementArguments(Array(excluding)))
        }
    }

    /// Keeps a release fetched in full, replacing what its search result said.
    public func storeDetails(_ release: Release) async throws(StoreError) {
        var full = release
        full.hasFullDetails = true
        let now = Date()
        try await write { [full] db in
            _ = try StoredValues.upsertRelease(db, full, now: now)
        }
    }

    /// The release as stored (its JSON too), or nil when the collection has none of that id.
    public func storedRelease(_ id: Int) async throws(StoreError) -> Release? {
        try await read { db in try StoredValues.fetchRelease(db, id: id) }
    }

    /// How many releases of the collection wait for their full details.
    public func releasesWithoutDetails() async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM release r
                    WHERE r.hasFullDetails = 0 AND EXISTS (SELECT 1 FROM record WHERE releaseID = r.id)
                    """) ?? 0
        }
    }
}
