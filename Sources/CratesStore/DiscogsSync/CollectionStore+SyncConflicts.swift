import CratesCore
import Foundation
import GRDB

/// The conflicts a sync found (`discogsConflict`, see `Schema.addSyncConflicts`): kept after
/// the sync, listed for the collection UI, settled toward one side by a person's choice.
extension CollectionStore {
    /// The copies in conflict now: linked to an instance still on Discogs, with at least one
    /// field whose crates value still differs from Discogs' (a copy edited since to Discogs'
    /// value is settled), oldest copy first.
    public func syncConflicts() async throws(StoreError) -> [SyncCopyConflict] {
        try await read { db in try Self.fetchConflicts(db, recordIDs: nil) }
    }

    /// What settling some conflicts did.
    public struct SettledConflicts: Sendable {
        /// The conflicts settled, as they were.
        public var settled: [SyncCopyConflict] = []
        /// The pushes planned (toward crates): to send now; a sync sends them otherwise.
        public var pushes: [OutboxEntry] = []
    }

    /// Settles the conflicts of these copies toward one side, in one transaction, and
    /// forgets them:
    /// - `.discogs`: the copy takes Discogs' values, which become the base (both hold them).
    /// - `.crates`: the base becomes Discogs' value, so that crates' is the one change since
    ///   the last sync, and a push of it is planned (an outbox `update`): sent now by the
    ///   caller, or, if it cannot be, by the next sync, which plans it again from the base.
    ///
    /// Copies without a conflict (settled meanwhile) are left alone.
    public func settleConflicts(
        recordIDs: [Int64], toward side: SyncPreference, now: Date = Date()
    ) async throws(StoreError) -> SettledConflicts {
        try await write { db in
            var result = SettledConflicts()
            for conflict in try Self.fetchConflicts(db, recordIDs: recordIDs) {
                guard let link = try Row.fetchOne(
                    db, sql: "SELECT releaseID, folderID FROM discogsCopy WHERE instanceID = ?", arguments: [conflict.instanceID]),
                    let record = try StoredValues.fetchRecord(db, id: conflict.recordID)
                else { continue }
                let key = DiscogsInstanceKey(folderID: link[1], releaseID: link[0], instanceID: conflict.instanceID)
                for field in conflict.fields {
                    try Self.setBase(db, instanceID: conflict.instanceID, field: field.field, value: field.discogs)
                }
                switch side {
                case .discogs:
                    let taken = conflict.discogsValues(over: SyncedValues(grading: record.grading, note: record.note))
                    var grading = record.grading
                    (grading.rating, grading.media, grading.sleeve) = (taken.rating, taken.media, taken.sleeve)
                    let notes = conflict.fields.contains { $0.field == .notes } ? taken.notes : record.note
                    try StoredValues.setGrading(db, recordID: record.id, grading: grading, note: notes, now: now)
                case .crates:
                    for field in conflict.fields {
                        try db.execute(
                            sql: """
                                INSERT INTO discogsOutbox (kind, recordID, releaseID, folderID, instanceID, field, value, createdAt)
                                VALUES ('update', ?, ?, ?, ?, ?, ?, ?)
                                """,
                            arguments: [
                                record.id, key.releaseID, key.folderID, key.instanceID, field.field.rawValue, field.crates,
                                StoredValues.seconds(now),
                            ])
                        if let entry = try Row.fetchOne(
                            db, sql: Self.outboxSelect + " WHERE id = ?", arguments: [db.lastInsertedRowID]
                        ).map(Self.outboxEntry(from:)) {
                            result.pushes.append(entry)
                        }
                    }
                }
                try db.execute(sql: "DELETE FROM discogsConflict WHERE instanceID = ?", arguments: [conflict.instanceID])
                result.settled.append(conflict)
            }
            return result
        }
    }

    // MARK: Rows

    /// The conflicts of these copies (nil: every copy's).
    static func fetchConflicts(_ db: Database, recordIDs: [Int64]?) throws -> [SyncCopyConflict] {
        var sql = """
            SELECT k.instanceID, k.field, k.discogsValue, r.id, r.addedAt, r.note, r.mediaCondition, r.sleeveCondition,
                   r.rating, r.gtin, COALESCE(r.ownArtist, rel.artist), COALESCE(r.ownTitle, rel.title)
            FROM discogsConflict k JOIN discogsCopy c ON c.instanceID = k.instanceID
            JOIN record r ON r.id = c.recordID LEFT JOIN release rel ON rel.id = r.releaseID
            WHERE c.removedAt IS NULL
            """
        var arguments: StatementArguments = []
        if let recordIDs {
            sql += " AND r.id IN (SELECT value FROM json_each(?))"
            arguments = [jsonArray(recordIDs)]
        }
        sql += " ORDER BY r.addedAt, r.id"
        var conflicts: [SyncCopyConflict] = []
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            guard let field = (row[1] as String?).flatMap(SyncField.init(rawValue:)) else { continue }
            let copy = try syncCopy(from: row, at: 3)
            let discogs: String? = row[2]
            // Edited since to Discogs' value: nothing left to choose.
            guard copy.values.text(field) != discogs else { continue }
            let entry = SyncCopyConflict.Field(field: field, crates: copy.values.text(field), discogs: discogs)
            if let last = conflicts.indices.last, conflicts[last].recordID == copy.recordID {
                conflicts[last].fields.append(entry)
                conflicts[last].fields.sort { $0.field < $1.field }
            } else {
                conflicts.append(SyncCopyConflict(recordID: copy.recordID, instanceID: row[0], title: copy.title, fields: [entry]))
            }
        }
        return conflicts
    }

    /// The stored conflicts of these instances: Discogs' value of each field in conflict.
    static func storedConflicts(_ db: Database, instanceIDs: [Int64]) throws -> [Int64: [SyncField: String?]] {
        guard !instanceIDs.isEmpty else { return [:] }
        var conflicts: [Int64: [SyncField: String?]] = [:]
        let rows = try Row.fetchAll(
            db, sql: "SELECT instanceID, field, discogsValue FROM discogsConflict WHERE instanceID IN (SELECT value FROM json_each(?))",
            arguments: [jsonArray(instanceIDs)])
        for row in rows {
            guard let field = (row[1] as String?).flatMap(SyncField.init(rawValue:)) else { continue }
            conflicts[row[0] as Int64, default: [:]][field] = .some(row[2] as String?)
        }
        return conflicts
    }

    /// Replaces an instance's conflicts with `fields` (empty: none left).
    static func replaceConflicts(_ db: Database, instanceID: Int64, fields: [SyncField: String?], now: Date) throws {
        try db.execute(sql: "DELETE FROM discogsConflict WHERE instanceID = ?", arguments: [instanceID])
        for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            try db.cachedStatement(sql: "INSERT INTO discogsConflict (instanceID, field, discogsValue, foundAt) VALUES (?, ?, ?, ?)")
                .execute(arguments: [instanceID, field.rawValue, value, StoredValues.seconds(now)])
        }
    }
}
