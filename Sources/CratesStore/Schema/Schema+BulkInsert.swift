import GRDB

/// What a bulk insert of new records (an import's batch of barcodes) does once for the
/// batch that two row triggers would do for every row.
///
/// `record_lookupState_insert` (v13, v27) and `record_restored_copy` (v17) are cheap
/// statements, but a row trigger on INSERT makes SQLite run a trigger program for each row,
/// and write an `INSERT … SELECT`'s rows to a temporary table first. Measured with
/// callgrind on the import's statements (batches of 5,000, 20,000 barcodes): 2.06 billion
/// instructions with the two triggers as v27 leaves them, 1.74 billion without them. An
/// import lifts them for its insert (`Schema.withoutRowIndexTriggers`, inside its
/// transaction) and then calls `checkInserted(_:above:)`, which holds the batch to the same
/// two rules in two statements.
extension Schema {
    /// The insert triggers that check or follow each row (not index it): lifted with
    /// `rowInsertTriggers` by a bulk insert that calls `checkInserted(_:above:)` after it.
    static let rowCheckTriggers = ["record_lookupState_insert", "record_restored_copy"]

    /// The rules of `rowCheckTriggers` for the records above `id` that a bulk insert of this
    /// transaction wrote with those triggers lifted (ids only grow, and no other connection
    /// writes during the transaction): a lookup state this build does not know fails the
    /// batch, as the trigger's abort would; a link to Discogs that names one of these ids
    /// (a copy put back) is no longer marked deleted.
    static func checkInserted(_ db: Database, above id: Int64) throws {
        let states = checkedLookupStates.map { "'\($0)'" }.joined(separator: ", ")
        if try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM record WHERE id > ? AND lookupState NOT IN (\(states)))", arguments: [id]) ?? false
        {
            throw StoreError.database("not a lookup state")
        }
        // The ids above `id` are the batch's, one run of them (AUTOINCREMENT ids only grow).
        try db.execute(
            sql: "UPDATE discogsCopy SET deletedAt = NULL WHERE recordID > ? AND recordID <= (SELECT MAX(id) FROM record) AND deletedAt IS NOT NULL",
            arguments: [id])
    }
}
