import CratesCore
import Foundation
import GRDB

/// Reading and writing the store's rows by hand (no Codable reflection: the sections query
/// reads 100,000 rows, and every column's meaning is spelled out here once).
enum StoredValues {
    // MARK: Dates and JSON

    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
    static func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decodeJSON<T: Decodable>(_ type: T.Type, _ text: String, recordID: Int64?, column: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw StoreError.unreadableValue(recordID: recordID, column: column, value: String(text.prefix(80)))
        }
    }

    // MARK: record

    /// The columns `record(from:)` reads, in order.
    static let recordColumns = """
        id, gtin, addedAt, addMethod, note, location, releaseID, lookupState, lookupError, \
        lookupAttempts, retryAt, skipReason, claimedUntil, candidatesJSON, updatedAt, \
        mediaCondition, sleeveCondition, rating
        """

    /// How many columns `recordColumns` names: a query's next column is at this index.
    static let recordColumnCount = 18

    static func record(from row: Row) throws -> CatalogueRecord {
        let id = try row.decode(Int64.self, atIndex: 0)
        let gtinText = try row.decode(String.self, atIndex: 1)
        guard let gtin = GTIN(canonical: gtinText) else {
            throw StoreError.unreadableValue(recordID: id, column: "gtin", value: gtinText)
        }
        let methodText = try row.decode(String.self, atIndex: 3)
        guard let method = AddMethod(rawValue: methodText) else {
            throw StoreError.unreadableValue(recordID: id, column: "addMethod", value: methodText)
        }
        let state = try lookupState(try row.decode(String.self, atIndex: 7), recordID: id)
        let candidates = try row.decode(String?.self, atIndex: 13).map {
            try decodeJSON([ReleaseCandidate].self, $0, recordID: id, column: "candidatesJSON")
        } ?? []
        return CatalogueRecord(
            id: id, gtin: gtin,
            addedAt: date(try row.decode(Double.self, atIndex: 2)),
            addMethod: method,
            note: try row.decode(String?.self, atIndex: 4),
            location: try row.decode(String?.self, atIndex: 5),
            releaseID: try row.decode(Int?.self, atIndex: 6),
            lookupState: state,
            lookupError: try row.decode(String?.self, atIndex: 8),
            lookupAttempts: try row.decode(Int.self, atIndex: 9),
            retryAt: try row.decode(Double?.self, atIndex: 10).map(date),
            skipReason: try row.decode(String?.self, atIndex: 11),
            claimedUntil: try row.decode(Double?.self, atIndex: 12).map(date),
            candidates: candidates,
            updatedAt: date(try row.decode(Double.self, atIndex: 14)),
            grading: try grading(from: row, at: 15, recordID: id))
    }

    /// The grading columns (`mediaCondition`, `sleeveCondition`, `rating`) from `index` on.
    static func grading(from row: Row, at index: Int, recordID: Int64) throws -> CopyGrading {
        var grading = CopyGrading(rating: Rating(clamping: try row.decode(Int.self, atIndex: index + 2)))
        if let text = try row.decode(String?.self, atIndex: index) {
            guard let media = MediaCondition(rawValue: text) else {
                throw StoreError.unreadableValue(recordID: recordID, column: "mediaCondition", value: text)
            }
            grading.media = media
        }
        if let text = try row.decode(String?.self, atIndex: index + 1) {
            guard let sleeve = SleeveCondition(rawValue: text) else {
                throw StoreError.unreadableValue(recordID: recordID, column: "sleeveCondition", value: text)
            }
            grading.sleeve = sleeve
        }
        return grading
    }

    static func lookupState(_ text: String, recordID: Int64?) throws -> LookupState {
        guard let state = LookupState(rawValue: text) else {
            throw StoreError.unreadableValue(recordID: recordID, column: "lookupState", value: text)
        }
        return state
    }

    static func fetchRecord(_ db: Database, id: Int64) throws -> CatalogueRecord? {
        try Row.fetchOne(db, sql: "SELECT \(recordColumns) FROM record WHERE id = ?", arguments: [id])
            .map(record(from:))
    }

    /// Inserts `record` with its own id (an undo), its sort keys computed from the release
    /// already stored. Ignored when the id is present (the same undo applied twice).
    static func insertExisting(_ db: Database, _ record: CatalogueRecord) throws {
        let release = try record.releaseID.flatMap { try fetchRelease(db, id: $0) }
        let keys = RecordKeys(release: release, gtin: record.gtin.canonical)
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO record (\(recordColumns), candidateCount, sectionKey, rowKey)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                record.id, record.gtin.canonical, seconds(record.addedAt), record.addMethod.rawValue,
                record.note, record.location, release == nil ? nil : record.releaseID,
                record.lookupState.rawValue, record.lookupError, record.lookupAttempts,
                record.retryAt.map(seconds), record.skipReason, record.claimedUntil.map(seconds),
                record.candidates.isEmpty ? nil : try json(record.candidates), seconds(record.updatedAt),
                record.grading.media?.rawValue, record.grading.sleeve?.rawValue, record.grading.rating.value,
                record.candidates.count, keys.section, keys.row,
            ])
        if db.changesCount > 0 { try count(db, sectionKey: keys.section, by: 1) }
    }

    /// Counts `count` more records in the section (see Schema: inserts are counted here,
    /// not by a trigger). Every INSERT INTO record must be followed by this.
    static func count(_ db: Database, sectionKey: String, by count: Int) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sectionCount (sectionKey, count) VALUES (?, ?)
            ON CONFLICT(sectionKey) DO UPDATE SET count = count + excluded.count
            """).execute(arguments: [sectionKey, count])
    }
}
