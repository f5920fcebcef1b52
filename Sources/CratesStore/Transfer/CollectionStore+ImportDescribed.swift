import CratesCore
import Foundation
import GRDB

/// The rows of an import described by their values (a CSV of catalogue numbers, artists and
/// titles, without barcodes): written a batch at a time with the triggers that index each
/// inserted row lifted, and indexed together.
extension CollectionStore {
    /// Writes `entries` (an import batch's rows without a barcode, in file order) as pending
    /// records searched by their values, inside the batch's transaction, and returns their
    /// ids in order.
    ///
    /// Each record is inserted with its filter text and indexed with the batch (`insert`),
    /// with `record_filter_added` and `record_sort_added` lifted
    /// (`Schema.withoutRowIndexTriggers`): run per row, they rewrite each record twice more,
    /// which was most of a described import's time. The sort keys are then computed for the
    /// batch in one statement (`Schema.sortRecords`), as the trigger computes them, and the
    /// triggers are back before the transaction ends.
    static func insertDescribed(_ db: Database, _ entries: [ImportEntry], keepingValues: Bool, now: Date) throws -> [Int64] {
        guard !entries.isEmpty else { return [] }
        return try Schema.withoutRowIndexTriggers(db, Schema.rowInsertTriggers) {
            let before = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record") ?? 0
            let ids = try insert(db, entries.map { describedRecord($0, now: now) }, now: now)
            // Within this transaction the rows above the previous largest id are exactly these
            // (AUTOINCREMENT ids only grow).
            try Schema.sortRecords(db, above: before)
            // What their values are for: finding the release (Discogs' stand once found), or
            // the collector's own (`--keep-values`).
            try db.execute(sql: "UPDATE record SET entryValues = ? WHERE id > ?", arguments: [keepingValues ? "keep" : "find", before])
            return ids
        }
    }

    /// A row described by its values: a pending record without a barcode, searched by its
    /// values (kept in the collector's columns until its release is found, and shown as
    /// they are when none is), keyed on them for the duplicate rule.
    static func describedRecord(_ entry: ImportEntry, now: Date) -> NewRecord {
        NewRecord(
            gtin: nil, addedAt: entry.addedAt ?? now, addMethod: .import, note: entry.note, location: entry.location,
            collector: (entry.collector ?? .none).over(entry.described ?? .none), handEntered: entry.handEntered,
            grading: entry.grading)
    }
}
