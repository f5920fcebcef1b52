import CratesCore
import Foundation
import GRDB

/// The durable lookup queue is the `record` table: a record's `lookupState` says where it
/// stands, so a crash or a kill -9 loses nothing (the next start resumes the queue).
extension CatalogueStore: LookupQueue {
    /// Claims the next record due (`DueLookups`: pending, then failed and due again, then
    /// lapsed claims), in one IMMEDIATE write transaction, so two processes can never claim
    /// the same record. The claimed record becomes `lookingUp` until
    /// `now + lease`, owned by this process. A record imported with a Discogs release id
    /// carries it in the job.
    public func claimNext(now: Date, lease: TimeInterval) async throws(StoreError) -> LookupJob? {
        try await write { db in
            let nowSeconds = StoredValues.seconds(now)
            let columns = "id, gtin, lookupAttempts, pinnedReleaseID, \(StoredValues.ownColumns.joined(separator: ", "))"
            let candidates = DueLookups.parts(now: nowSeconds).map { part in
                (sql: "SELECT \(columns) FROM record WHERE \(part.condition) ORDER BY \(part.order) LIMIT 1", arguments: part.arguments)
            }
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
                        sql: "UPDATE record SET lookupState = ?, skipReason = ?, updatedAt = ? WHERE id = ?",
                        arguments: [LookupState.skipped, unreadable, nowSeconds, id])
                    continue
                }
                try db.execute(
                    sql: "UPDATE record SET lookupState = ?, claimedUntil = ?, claimOwner = ?, updatedAt = ? WHERE id = ?",
                    arguments: [LookupState.lookingUp, nowSeconds + max(0, lease), ClaimOwner.current, nowSeconds, id])
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
            let state = try LookupState.fetchOne(db, sql: "SELECT lookupState FROM record WHERE id = ?", arguments: [job.recordID])
            guard state == .lookingUp else { return }
            let nowSeconds = StoredValues.seconds(now)
            let kind: LookupEvent.Kind
            let message: String
            switch outcome {
            case let .matched(found):
                let release = stored ?? found
                try Self.attach(db, release: release, to: job.recordID, now: now)
                kind = .matched
                message = "release \(release.id): \(release.displayTitle)"
            case let .ambiguous(candidates):
                // The user must choose: until then the record is unmatched (Unknown section).
                try db.execute(
                    sql: """
                        UPDATE record SET lookupState = ?, releaseID = NULL, lookupError = NULL,
                            retryAt = NULL, skipReason = NULL, candidatesJSON = ?, candidateCount = ?,
                            sectionKey = ?, rowKey = ?
                        WHERE id = ?
                        """,
                    arguments: [
                        LookupState.ambiguous, try StoredValues.json(candidates), candidates.count, SortKey.unknownSection,
                        SortKey.unmatchedRow, job.recordID,
                    ])
                try StoredValues.rekeyIfOwn(db, recordID: job.recordID)
                kind = .ambiguous
                message = job.gtin == nil
                    ? "\(candidates.count) releases fit" : "\(candidates.count) releases share this barcode"
            case .notFound:
                try db.execute(
                    sql: """
                        UPDATE record SET lookupState = ?, releaseID = NULL, lookupError = NULL,
                            retryAt = NULL, skipReason = NULL, candidatesJSON = NULL, candidateCount = 0,
                            sectionKey = ?, rowKey = ?
                        WHERE id = ?
                        """,
                    arguments: [LookupState.notFound, SortKey.unknownSection, SortKey.unmatchedRow, job.recordID])
                try StoredValues.rekeyIfOwn(db, recordID: job.recordID)
                kind = .notFound
                message = job.gtin == nil ? "Discogs has no release that fits" : "Discogs knows no release with this barcode"
            case let .failed(error, retryAt):
                // A transient failure: whatever the record resolved to before stays.
                try db.execute(
                    sql: "UPDATE record SET lookupState = ?, lookupError = ?, retryAt = ? WHERE id = ?",
                    arguments: [LookupState.failed, error, StoredValues.seconds(retryAt), job.recordID])
                kind = .failed
                message = error
            case let .skipped(reason):
                try db.execute(
                    sql: """
                        UPDATE record SET lookupState = ?, skipReason = ?, lookupError = NULL,
                            retryAt = NULL
                        WHERE id = ?
                        """,
                    arguments: [LookupState.skipped, reason, job.recordID])
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
                        lookupState = CASE WHEN lookupError IS NULL THEN ? ELSE ? END,
                        retryAt = CASE WHEN lookupError IS NULL THEN NULL ELSE MIN(COALESCE(retryAt, ?), ?) END,
                        claimedUntil = NULL, claimOwner = NULL, updatedAt = ?
                    WHERE id = ? AND lookupState = ?
                    """,
                arguments: [LookupState.pending, LookupState.failed, now, now, now, job.recordID, LookupState.lookingUp])
        }
    }

    /// Records waiting for a lookup: pending, failed (whenever their retry is due) and
    /// being looked up.
    public func waitingCount() async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM record WHERE lookupState IN (?, ?, ?)",
                arguments: [LookupState.pending, LookupState.failed, LookupState.lookingUp]) ?? 0
        }
    }
}
