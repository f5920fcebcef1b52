import CratesCore
import Foundation
import GRDB

/// The durable lookup queue is the `record` table: a record's `lookupState` says where it
/// stands, so a crash or a kill -9 loses nothing (the next start resumes the queue).
///
/// Its writes wait one busy timeout for another program's lock, whatever the store's
/// patience: the lookup worker retries a refused write itself and says meanwhile that a
/// result waits to be written, which a minute's silent wait would hide.
extension CollectionStore: CatalogueLookupQueue {
    /// Claims the next record due (`DueLookups`: pending, then failed and due again, then
    /// lapsed claims), in one IMMEDIATE write transaction, so two processes can never claim
    /// the same record. The claimed record becomes `lookingUp` until
    /// `now + lease`, owned by this process. A record imported with a Discogs release id
    /// carries it in the job.
    public func claimNext(now: Date, lease: TimeInterval) async throws(StoreError) -> LookupJob? {
        try await claimNext(now: now, lease: lease, edition: nil)
    }

    /// `claimNext(now:lease:)` among the records the catalogue `edition` was asked about and
    /// does not know (`catalogueEdition` is its date): the catalogue pass answers the others.
    public func claimNext(now: Date, lease: TimeInterval, notIn edition: CatalogueEdition) async throws(StoreError) -> LookupJob? {
        try await claimNext(now: now, lease: lease, edition: edition)
    }

    private func claimNext(now: Date, lease: TimeInterval, edition: CatalogueEdition?) async throws(StoreError) -> LookupJob? {
        try await write(patience: .oneTimeout) { db in
            let nowSeconds = StoredValues.seconds(now)
            let checked = edition == nil ? "" : " AND catalogueEdition = ?"
            let asked: StatementArguments = edition.map { [$0.dumpDate] } ?? []
            let candidates = DueLookups.parts(now: nowSeconds).map { part in
                (sql: "SELECT \(Self.jobColumns) FROM record WHERE \(part.condition)\(checked) ORDER BY \(part.order) LIMIT 1",
                 arguments: part.arguments + asked)
            }
            for candidate in candidates {
                guard let row = try Row.fetchOne(db, sql: candidate.sql, arguments: candidate.arguments) else { continue }
                guard let job = try Self.job(db, from: row, now: nowSeconds) else { continue }
                try db.execute(
                    sql: "UPDATE record SET lookupState = ?, claimedUntil = ?, claimOwner = ?, updatedAt = ? WHERE id = ?",
                    arguments: [LookupState.lookingUp, nowSeconds + max(0, lease), ClaimOwner.current, nowSeconds, job.recordID])
                return job
            }
            return nil
        }
    }

    /// Records a lookup worker would claim now (`DueLookups`, the rule of `claimNext`). An
    /// import drains the queue until this is zero.
    public func dueLookups(now: Date = Date()) async throws(StoreError) -> Int {
        let (sql, arguments) = DueLookups.count(now: StoredValues.seconds(now))
        return try await read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    /// What a job reads of its record, for `job(_:from:now:)`.
    private static let jobColumns = "id, gtin, lookupAttempts, pinnedReleaseID, \(StoredValues.ownColumns.joined(separator: ", "))"

    /// The job of a record due (read with `jobColumns`); nil when nothing this build can
    /// look it up by, and the record is set aside (skipped) rather than claimed forever.
    private static func job(_ db: Database, from row: Row, now nowSeconds: Double) throws -> LookupJob? {
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
            try db.execute(
                sql: "UPDATE record SET lookupState = ?, skipReason = ?, updatedAt = ? WHERE id = ?",
                arguments: [LookupState.skipped, unreadable, nowSeconds, id])
            return nil
        }
        return LookupJob(recordID: id, gtin: gtin, attempts: try row.decode(Int.self, atIndex: 2), releaseID: pinned, search: search)
    }

    /// Records the outcome of a claimed job, with an entry in the record's history.
    ///
    /// Applied only while the record is still `lookingUp`: if the user deleted it, chose a
    /// release or asked for a retry meanwhile, their word stands and the outcome is dropped
    /// (a matched release is still kept in the release table, as a cache).
    public func complete(_ job: LookupJob, with outcome: LookupOutcome) async throws(StoreError) {
        let now = Date()
        try await write(patience: .oneTimeout) { db in
            var stored: Release?
            if case let .matched(release) = outcome { stored = try StoredValues.upsertRelease(db, release, now: now) }
            let state = try LookupState.fetchOne(db, sql: "SELECT lookupState FROM record WHERE id = ?", arguments: [job.recordID])
            guard state == .lookingUp else { return }
            try Self.store(db, outcome, stored: stored, of: job, now: now)
        }
    }

    /// Writes `outcome` to the record of `job` (see `complete`); `stored`: the matched
    /// release as the release table holds it now. `source`: where the outcome came from, for
    /// the record's history (Discogs when nil).
    private static func store(
        _ db: Database, _ outcome: LookupOutcome, stored: Release?, of job: LookupJob, now: Date, source: CatalogueEdition? = nil
    ) throws {
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
            try db.cachedStatement(sql: """
                    UPDATE record SET lookupState = ?, releaseID = NULL, lookupError = NULL,
                        retryAt = NULL, skipReason = NULL, candidatesJSON = ?, candidateCount = ?,
                        sectionKey = ?, rowKey = ?
                    WHERE id = ?
                    """).execute(arguments: [
                    LookupState.ambiguous, try StoredValues.json(candidates), candidates.count, SortKey.unknownSection,
                    SortKey.unmatchedRow, job.recordID,
                ])
            try StoredValues.rekeyIfOwn(db, recordID: job.recordID)
            kind = .ambiguous
            message = job.gtin == nil
                ? "\(candidates.count) releases fit" : "\(candidates.count) releases share this barcode"
        case .notFound:
            try db.cachedStatement(sql: """
                    UPDATE record SET lookupState = ?, releaseID = NULL, lookupError = NULL,
                        retryAt = NULL, skipReason = NULL, candidatesJSON = NULL, candidateCount = 0,
                        sectionKey = ?, rowKey = ?
                    WHERE id = ?
                    """).execute(arguments: [LookupState.notFound, SortKey.unknownSection, SortKey.unmatchedRow, job.recordID])
            try StoredValues.rekeyIfOwn(db, recordID: job.recordID)
            kind = .notFound
            message = job.gtin == nil ? "Discogs has no release that fits" : "Discogs knows no release with this barcode"
        case let .failed(error, retryAt):
            // A transient failure: whatever the record resolved to before stays.
            try db.cachedStatement(sql: "UPDATE record SET lookupState = ?, lookupError = ?, retryAt = ? WHERE id = ?")
                .execute(arguments: [LookupState.failed, error, StoredValues.seconds(retryAt), job.recordID])
            kind = .failed
            message = error
        case let .skipped(reason):
            try db.cachedStatement(sql: """
                    UPDATE record SET lookupState = ?, skipReason = ?, lookupError = NULL,
                        retryAt = NULL
                    WHERE id = ?
                    """).execute(arguments: [LookupState.skipped, reason, job.recordID])
            kind = .skipped
            message = reason
        }
        // Every outcome ends the claim and counts one attempt. The catalogue that answered
        // is kept with the record; an answer from Discogs replaces the catalogue's say, but
        // for a failure: the record still waits, and is still not in the catalogue.
        let edition: String? = if let source { source.dumpDate } else if case .failed = outcome { nil } else { "" }
        try db.cachedStatement(sql: """
                UPDATE record SET lookupAttempts = ?, claimedUntil = NULL, claimOwner = NULL, updatedAt = ?,
                    catalogueEdition = CASE WHEN ? IS NULL THEN catalogueEdition ELSE nullif(?, '') END
                WHERE id = ?
                """).execute(arguments: [job.attempts + 1, nowSeconds, edition, edition, job.recordID])
        let said = source.map { "\(message) (\($0.source))" } ?? message
        try StoredValues.addEvent(db, recordID: job.recordID, at: now, kind: kind, message: said)
    }

    // MARK: The catalogue pass

    /// See `CatalogueLookupQueue.answerFromCatalogue`: one IMMEDIATE write transaction per
    /// batch, so the records taken cannot be claimed meanwhile by another process (none is
    /// marked `lookingUp`: the batch ends before anyone could see it). The catalogue is read
    /// inside the transaction: a few milliseconds a batch, an index read a record.
    public func answerFromCatalogue(
        _ edition: CatalogueEdition, now: Date, limit: Int, answer: @escaping @Sendable (LookupJob) -> CatalogueVerdict
    ) async throws(StoreError) -> CatalogueAnswers {
        let nowSeconds = StoredValues.seconds(now)
        let (isDue, dueArguments) = DueLookups.catalogue(now: nowSeconds)
        let due = "FROM record WHERE \(isDue) AND catalogueEdition IS NOT ?"
        let arguments = dueArguments + [edition.dumpDate]
        // The worker asks after every lookup: a read says whether there is anything to
        // answer, so that an idle look never takes the collection's write lock.
        let any = try await read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 \(due))", arguments: arguments) ?? false
        }
        guard any else { return CatalogueAnswers() }
        return try await write(patience: .oneTimeout) { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(Self.jobColumns) \(due) ORDER BY id LIMIT ?", arguments: arguments + [max(1, limit)])
            var batch = CatalogueAnswers()
            for row in rows {
                guard let job = try Self.job(db, from: row, now: nowSeconds) else { continue }
                switch answer(job) {
                case .answered(let outcome):
                    var stored: Release?
                    if case let .matched(release) = outcome { stored = try StoredValues.upsertRelease(db, release, now: now) }
                    try Self.store(db, outcome, stored: stored, of: job, now: now, source: edition)
                    batch.settled.append((job.recordID, outcome.kind))
                case .absent:
                    // Waits for Discogs as it was: a claim of a process that is gone is given
                    // back (pending, or failed when it had failed before).
                    try db.cachedStatement(sql: """
                        UPDATE record SET catalogueEdition = ?,
                            lookupState = CASE WHEN lookupState != ? THEN lookupState
                                WHEN lookupError IS NULL THEN ? ELSE ? END,
                            claimedUntil = NULL, claimOwner = NULL
                        WHERE id = ?
                        """).execute(arguments: [
                        edition.dumpDate, LookupState.lookingUp, LookupState.pending, LookupState.failed, job.recordID,
                    ])
                    batch.absent += 1
                case .unavailable(let error):
                    batch.failure = error
                    return batch
                }
            }
            return batch
        }
    }

    /// Gives a claimed job back untouched: the record is due again at once, `failed` if it
    /// had failed before (its error and attempts kept), `pending` otherwise.
    public func release(_ job: LookupJob) async throws(StoreError) {
        let now = StoredValues.seconds(Date())
        try await write(patience: .oneTimeout) { db in
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
