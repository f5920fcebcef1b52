import CratesCore
import Foundation
import GRDB

/// One writing sync at a time per collection. Two syncs at once would each carry out the
/// same outbox (the same add sent twice makes two instances on Discogs), and one would
/// reconcile the other's add while its answer is still on the way. A sync holds the lease
/// from its first write to its end; a second one waits for it (`DiscogsSync`).
extension CollectionStore {
    /// Who holds the lease another sync asked for.
    public struct SyncLeaseHolder: Hashable, Sendable {
        /// The holder's process id, where it could be written (`ClaimOwner`).
        public var pid: Int32?
    }

    /// A lease not renewed for this long is free: its holder stopped without giving it back
    /// and cannot be judged dead (another machine or namespace), or is frozen.
    public static let syncLeaseExpiry: TimeInterval = 300

    /// Takes the lease for `token` in one write transaction: nil when taken (or held by that
    /// token already); the holder when another live sync has it. A holder whose process is
    /// gone (`ClaimOwner`: a kill -9 frees it at once) or whose lease has expired loses it.
    public func takeSyncLease(_ token: String, now: Date = Date()) async throws(StoreError) -> SyncLeaseHolder? {
        try await write { db in
            let seconds = StoredValues.seconds(now)
            if let row = try Row.fetchOne(db, sql: "SELECT token, owner, renewedAt FROM syncLease WHERE id = 1") {
                let held = try row.decode(String.self, atIndex: 0)
                let owner = try row.decode(String?.self, atIndex: 1)
                let renewed = try row.decode(Double.self, atIndex: 2)
                let dead = owner.map(ClaimOwner.isDead) ?? false
                if held != token, !dead, renewed + Self.syncLeaseExpiry > seconds {
                    return SyncLeaseHolder(pid: owner.flatMap(ClaimOwner.pid))
                }
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO syncLease (id, token, owner, renewedAt) VALUES (1, ?, ?, ?)",
                arguments: [token, ClaimOwner.current, seconds])
            return nil
        }
    }

    /// Keeps the lease of `token` from expiring; false when it is no longer held by it.
    @discardableResult
    public func renewSyncLease(_ token: String, now: Date = Date()) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE syncLease SET renewedAt = ? WHERE id = 1 AND token = ?", arguments: [StoredValues.seconds(now), token])
            return db.changesCount == 1
        }
    }

    /// Gives the lease back (nothing when `token` does not hold it).
    public func releaseSyncLease(_ token: String) async throws(StoreError) {
        try await write { db in try db.execute(sql: "DELETE FROM syncLease WHERE id = 1 AND token = ?", arguments: [token]) }
    }
}
