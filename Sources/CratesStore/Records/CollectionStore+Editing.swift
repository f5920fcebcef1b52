import CratesCore
import Foundation
import GRDB

/// The collector's own values: kept in the record's `own…` columns, apart from
/// the release's, so that a lookup refreshes Discogs' values and the collector's still win.
/// The record's sort keys follow the values shown, so an edited title or genre moves it.
extension CollectionStore {
    /// Applies `edit` to the record: sets the collector's values given, gives the cleared
    /// fields back to Discogs, sets or removes the note, grades and rates the copy; one
    /// transaction, with an `edited` entry in the history. Returns the record as stored now.
    /// (The next `crates sync` pushes the note, grades and rating of a synced copy.)
    @discardableResult
    public func edit(_ recordID: Int64, _ edit: RecordEdit, now: Date = Date()) async throws(StoreError) -> CollectionRecord {
        try await write { db in
            guard let edited = try Self.apply(db, edit, to: recordID, now: now) else { throw StoreError.recordNotFound(recordID) }
            return edited.after
        }
    }

    /// Applies each edit to its record, all in one transaction (the UI's tagged records:
    /// one grade for forty copies, or the undo of that, whose edits differ by record).
    /// Records not found are skipped (another process deleted them). Returns each record
    /// edited as it was before, in the order given, for the edits that undo them.
    @discardableResult
    public func edit(_ edits: [(recordID: Int64, edit: RecordEdit)], now: Date = Date()) async throws(StoreError) -> [CollectionRecord] {
        try await write { db in
            try edits.compactMap { item in try Self.apply(db, item.edit, to: item.recordID, now: now)?.before }
        }
    }

    /// One record's edit, within the caller's transaction; nil when there is no such record.
    static func apply(
        _ db: Database, _ edit: RecordEdit, to recordID: Int64, now: Date
    ) throws -> (before: CollectionRecord, after: CollectionRecord)? {
        guard let record = try StoredValues.fetchRecord(db, id: recordID) else { return nil }
        guard !edit.isEmpty else { return (record, record) }
        var collector = record.collector
        for field in edit.clear { collector.set(field, nil) }
        for field in edit.values.fields { collector.set(field, edit.values[field]) }
        var note = record.note
        switch edit.note {
        case .set(let text)?: note = text
        case .clear?: note = nil
        case nil: break
        }
        let grading = edit.grading.applied(to: record.grading)
        try store(db, collector: collector, note: note, grading: grading, recordID: recordID, now: now)
        if !edit.purchase.isEmpty || edit.loan != nil {
            let purchase = edit.purchase.applied(to: record.purchase)
            let loan = edit.loan.map { $0.applied(to: record.loan) } ?? record.loan
            try db.execute(
                sql: "UPDATE record SET \(StoredValues.personalColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?",
                arguments: StatementArguments(StoredValues.personalValues(purchase, loan) + [recordID]))
        }
        try StoredValues.addEvent(db, recordID: recordID, at: now, kind: .edited, message: "edited: \(edit.summary)")
        guard let stored = try StoredValues.fetchRecord(db, id: recordID) else { throw StoreError.recordNotFound(recordID) }
        return (record, stored)
    }

    /// Makes an existing record one entered by hand (Discogs has no such release): its
    /// barcode stays, `fields` become the collector's values (over any it had), its state
    /// `handEntered`, and no lookup touches it again. Returns the record as stored now.
    @discardableResult
    public func enterByHand(_ recordID: Int64, _ fields: RecordFields, now: Date = Date()) async throws(StoreError) -> CollectionRecord {
        try await write { db in
            guard let record = try StoredValues.fetchRecord(db, id: recordID) else { throw StoreError.recordNotFound(recordID) }
            let collector = fields.over(record.collector)
            try db.execute(
                sql: """
                    UPDATE record SET lookupState = ?, lookupError = NULL, retryAt = NULL,
                        skipReason = NULL, claimedUntil = NULL, claimOwner = NULL, candidatesJSON = NULL, candidateCount = 0,
                        releaseID = NULL
                    WHERE id = ?
                    """,
                arguments: [LookupState.handEntered, recordID])
            try Self.store(db, collector: collector, note: record.note, grading: record.grading, recordID: recordID, now: now)
            try StoredValues.addEvent(
                db, recordID: recordID, at: now, kind: .enteredByHand, message: "entered by hand: \(collector.description)")
            guard let stored = try StoredValues.fetchRecord(db, id: recordID) else { throw StoreError.recordNotFound(recordID) }
            return stored
        }
    }

    /// The records a person must settle (`LookupState.needingAPerson`: ambiguous, not found,
    /// failed), oldest first: what the TUI's "needs a person" view walks. One indexed read
    /// per state.
    public func needingAPerson() async throws(StoreError) -> [Int64] {
        try await read { db in
            let states = LookupState.needingAPerson
            return try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM record WHERE lookupState IN (\(Array(repeating: "?", count: states.count).joined(separator: ", ")))
                    ORDER BY id
                    """,
                arguments: StatementArguments(states))
        }
    }

    /// Writes the collector's values, the note and the grading, the values' search text, and
    /// the sort keys they decide.
    static func store(
        _ db: Database, collector: RecordFields, note: String?, grading: CopyGrading, recordID: Int64, now: Date
    ) throws {
        let assignments = (StoredValues.ownColumns + StoredValues.gradingColumns).map { "\($0) = ?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE record SET \(assignments), ownSearchText = ?, note = ?, updatedAt = ? WHERE id = ?",
            arguments: StatementArguments(
                StoredValues.ownValues(collector) + StoredValues.gradingValues(grading) + [
                    StoredValues.ownSearchText(collector), note, StoredValues.seconds(now), recordID,
                ]))
        try StoredValues.rekey(db, recordID: recordID)
    }
}
