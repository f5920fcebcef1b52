import CratesCore
import CratesNet
import CratesStore
import Foundation

/// A person's choice in the collection UI's conflicts view: the conflicts of some copies
/// settled toward one side, through the sync's own paths.
extension DiscogsSync {
    /// Settles the conflicts of these copies toward `side` (`CollectionStore.settleConflicts`):
    /// Discogs' values taken into crates (no request), or crates' values sent to Discogs
    /// through the outbox now. A push that cannot go now (Discogs unreachable) stays
    /// planned: the next sync sends it, since the base already says crates' value is the
    /// newer. Never throws: a failure is the report's `failure`, with what was settled.
    public func settle(recordIDs: [Int64], toward side: SyncPreference) async -> SyncReport {
        var run = SyncRun(sync: self, options: Options(pull: side == .discogs, push: side == .crates, prefer: side))
        await run.settle(recordIDs, toward: side)
        progress(.idle)
        return run.report
    }
}

extension SyncRun {
    mutating func settle(_ recordIDs: [Int64], toward side: SyncPreference) async {
        defer { report.requests = counter.count }
        var lease: SyncLease?
        do {
            // Sending needs the account, checked as a sync checks it; taking needs nothing.
            if side == .crates { try await signIn() }
            lease = try await SyncLease.take(store, progress: sync.progress)
            let settled = try await store.settleConflicts(recordIDs: recordIDs, toward: side)
            report.settled = settled.settled
            if side == .discogs { report.updatedHere = Set(settled.settled.map(\.recordID)) }
            if !settled.pushes.isEmpty {
                // The conditions and notes are written to the fields of those names.
                fields = DiscogsCollectionFieldMap(fields: try await send { c, u async throws(DiscogsError) in try await c.collectionFields(username: u) })
                try await drainOutbox(only: Set(settled.pushes.map(\.id)))
            }
        } catch {
            report.failure = SyncError.from(error)
        }
        await lease?.release()
    }
}
