import CratesCore
import Foundation
import GRDB

extension CatalogueStore {
    /// Makes `change` to the copy's conditions, rating and note, in one short transaction,
    /// and returns the record as stored. A change that asks for nothing changes nothing.
    /// Throws `StoreError.recordNotFound` when there is no such record.
    @discardableResult
    public func setGrading(_ change: CopyGradingChange, for id: Int64, now: Date = Date()) async throws(StoreError) -> CatalogueRecord {
        try await write { db in
            guard let record = try StoredValues.fetchRecord(db, id: id) else { throw StoreError.recordNotFound(id) }
            let grading = change.applied(to: record.grading)
            let note = change.applied(toNote: record.note)
            guard grading != record.grading || note != record.note else { return record }
            try StoredValues.setGrading(db, recordID: id, grading: grading, note: note, now: now)
            guard let stored = try StoredValues.fetchRecord(db, id: id) else { throw StoreError.recordNotFound(id) }
            return stored
        }
    }
}

extension StoredValues {
    /// Writes a copy's grading columns and note.
    static func setGrading(_ db: Database, recordID: Int64, grading: CopyGrading, note: String?, now: Date) throws {
        try db.cachedStatement(sql: """
            UPDATE record SET mediaCondition = ?, sleeveCondition = ?, rating = ?, note = ?, updatedAt = ?
            WHERE id = ?
            """).execute(arguments: [
                grading.media?.rawValue, grading.sleeve?.rawValue, grading.rating.value, note, seconds(now), recordID,
            ])
    }
}
