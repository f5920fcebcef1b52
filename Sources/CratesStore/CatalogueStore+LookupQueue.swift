import CratesCore
import Foundation
import GRDB

/// The durable lookup queue is the `record` table: a record's `lookupState` says where it
/// stands, so a crash or a kill -9 loses nothing (the next start resumes the queue).
extension CatalogueStore: LookupQueue {
    /// Claims the next record due, in one IMMEDIATE write transaction (so two processes can
    /// never claim the same record): pending records first, oldest first; then failed ones
    /// whose retry time has come, soonest first; then records whose claim's lease has
    /// expired, or whose claimer is gone (`ClaimOwner`: a process killed -9 frees its claim
    /// at once, not 15 minutes later). The claimed record becomes `lookingUp` until
    /// `now + lease`, owned by this process. A record imported with a Discogs release id
    /// carries it in the job.
    public func claimNext(now: Date, lease: TimeInterval) async throws(StoreError) -> LookupJob? {
        try await write { db in
            let nowSeconds = StoredValues.seconds(now)
            // Each query walks the record_queue index (lookupState, retryAt, rowid).
            let columns = "id, gtin, lookupAttempts, pinnedReleaseID, \(StoredValues.ownColumns.joined(separator: ", "))"
            let candidates: [(sql: String, arguments: StatementArguments)] = [
                ("SELECT \(columns) FROM record WHERE lookupState = 'pending' ORDER BY retryAt, id LIMIT 1", []),
                ("""
                 SELECT \(columns) FROM record
                 WHERE lookupState = 'failed' AND (retryAt IS NULL OR retryAt <= ?) ORDER BY retryAt, id LIMIT 1
                 """, [nowSeconds]),
                ("""
                 SELECT \(columns) FROM record
                 WHERE lookupState = 'lookingUp'
                   AND (claimedUntil IS NULL OR claimedUntil <= ? OR crates_claim_dead(claimOwner))
                 ORDER BY claimedUntil, id LIMIT 1
                 """, [nowSeconds]),
            ]
            for candidate in candidates {
                guard let row = try Row.fetchOne(db, sql: candidate.sql, arguments: candidate.arguments) else { continue }
                let id = try row.decode(Int64.self, atIndex: 0)
                let pinned = try row.decode(Int?.self, atIndex: 3)
                var gtin: GTIN?
                var search: ReleaseSearchQuery?
                var unreadable: String?
                if let gtinText = try row.decode(String?.self, atIndex: 1) {
                    gtin = GTIN(canonical: gtinText)
                    if gtin == nil { unreadable = "unreadable GTIN \(String(reflecting: gtinText))" }
                } else {
                    // Without a barcode: its release, else the search its own values make.
                    search = try StoredValues.collector(from: row, at: 4).searchQuery
                    if pinned == nil, search == nil { unreadable = "no barcode, and nothing to search Discogs by" }
                }
                if let unreadable {
                    // Nothing this build can look up: set it aside rather than claim it forever.
                    try db.execute(
                        sql: "UPDATE record SET lookupState = 'skipped', skipReason = ?, updatedAt = ? WHERE id = ?",
                        arguments: [unreadable, nowSeconds, id])
                    continue
                }
                try db.execute(
                    sql: "UPDATE record SET lookupState = 'lookingUp', claimedUntil = ?, claimOwner = ?, updatedAt = ? WHERE id = ?",
                    arguments: [nowSeconds + max(0, lease), ClaimOwner.current, nowSeconds, id])
                return LookupJob(
                    recordID: id, gtin: gtin, attempts: try row.decode(Int.self, atIndex: 2), releaseID: pinned,
                    search: search)
            }
            return nil
        }
    }

    /// Records the outcome of a claimed job, with an entry in the record's history.
    ///
    /// Applied only while the record is still `lookingUp`: if the user deleted it, chose a
    /// release or asked for a retry meanwhile, their word stands and the outcome is dropped
    /// (a matched release is still kept in the release table, as a cache).
    public func complete(_ job: LookupJob, with outcome: LookupOutcome) async throws(StoreError) {
        let now = Date()
        try await write { db in
            var stored: Release?
            if case let .matched(release) = outcome { stored = try StoredValues.upsertRelease(db, release, now: now) }
            let state = try String.fetchOne(db, sql: "SELECT lookupState FROM record WHERE id = ?", arguments: [job.recordID])
            guard state == LookupState.lookingUp.rawValue else { return }
            let nowSeconds = StoredValues.seconds(now)
            let kind: LookupEvent.Kind
            let message: String
            switch outcome {
            case let .matched(found):
                let release = stored ?? found
                if job.gtin == nil { try StoredValues.dropEntryValues(db, recordID: job.recordID) }
                try Self.attach(db, release: release, to: job.recordID, now: now)
                kind = .matched
                message = "release \(release.id): \(release.displayTitle)"
            case let .ambiguous(candidates):
                // The user must choose: until then the record is unmatched (Unknown section).
                try db.execute(
                    sql: """
                        UPDATE record SET lookupState = 'ambiguous', releaseID = NULL, lookupError = NULL,
                            retryAt = NULL, skipReason = NULL, candidatesJSON = ?, candidateCount = ?,
                            sectionKey = ?, rowKey = ?
                        WHERE id = ?
                        """,
                    arguments: [
                        try StoredValues.json(candidates), candidates.count, SortKey.unknownSection,
                        SortKey.unmatchedRow, job.recordID,
                    ])
                try StoredValues.rekeyIfOwn(db, recordID: job.recordID)
                kind = .ambiguous
                message = job.gtin == nil
                    ? "\(candidates.count) releases fit" : "\(candidates.count) releases share this barcode"
            case .notFound:
                try db.execute(
                    sql: """
                        UPDATE record SET lookupState = 'notFound', releaseID = NULL, lookupError = NULL,
                            retryAt = NULL, skipReason = NULL, candidatesJSON = NULL, candidateCount = 0,
                            sectionKey = ?, rowKey = ?
                        WHERE id = ?
                        """,
                    arguments: [SortKey.unknownSection, SortKey.unmatchedRow, job.recordID])
                try StoredValues.rekeyIfOwn(db, recordID: job.recordID)
                kind = .notFound
                message = job.gtin == nil ? "Discogs has no release that fits" : "Discogs knows no release with this barcode"
            case let .failed(error, retryAt):
                // A transient failure: whatever the record resolved to before stays.
                try db.execute(
                    sql: "UPDATE record SET lookupState = 'failed', lookupError = ?, retryAt = ? WHERE id = ?",
                    arguments: [error, StoredValues.seconds(retryAt), job.recordID])
                kind = .failed
                message = error
            case let .skipped(reason):
                try db.execute(
                    sql: """
                        UPDATE record SET lookupState = 'skipped', skipReason = ?, lookupError = NULL,
                            retryAt = NULL
                        WHERE id = ?
                        """,
                    arguments: [reason, job.recordID])
                kind = .skipped
                message = reason
            }
            // Every outcome ends the claim and counts one attempt.
            try db.execute(
                sql: "UPDATE record SET lookupAttempts = ?, claimedUntil = NULL, claimOwner = NULL, updatedAt = ? WHERE id = ?",
                arguments: [job.attempts + 1, nowSeconds, job.recordID])
            try StoredValues.addEvent(db, recordID: job.recordID, at: now, kind: kind, message: message)
        }
    }

    /// Gives a claimed job back untouched: the record is due again at once, `failed` if it
    /// had failed before (its error and attempts kept), `pending` otherwise.
    public func release(_ job: LookupJob) async throws(StoreError) {
        let now = StoredValues.seconds(Date())
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE record SET
                        lookupState = CASE WHEN lookupError IS NULL THEN 'pending' ELSE 'failed' END,
                        retryAt = CASE WHEN lookupError IS NULL THEN NULL ELSE MIN(COALESCE(retryAt, ?), ?) END,
                        claimedUntil = NULL, claimOwner = NULL, updatedAt = ?
                    WHERE id = ? AND lookupState = 'lookingUp'
                    """,
                arguments: [now, now, now, job.recordID])
        }
    }

    /// Records waiting for a lookup: pending, failed (whenever their retry is due) and
    /// being looked up.
    public func waitingCount() async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE lookupState IN ('pending', 'failed', 'lookingUp')") ?? 0
        }
    }
}
