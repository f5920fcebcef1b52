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

    /// The record's own columns, which `record(from:)` reads first, in this order (the
    /// indexes below follow from it).
    static let baseColumns = [
        "id", "gtin", "addedAt", "addMethod", "note", "locationID", "releaseID", "lookupState", "lookupError",
        "lookupAttempts", "retryAt", "skipReason", "claimedUntil", "candidatesJSON", "updatedAt",
    ]
    /// The collector's values, in `RecordField.allCases` order.
    static let ownColumns = ["ownArtist", "ownTitle", "ownGenre", "ownYear", "ownFormat", "ownLabel", "ownCatno", "ownCountry"]
    /// The copy's grading (`CopyGrading`), in this order.
    static let gradingColumns = ["mediaCondition", "sleeveCondition", "rating"]

    /// What was paid and who has it (`Purchase`, `Loan`), in this order.
    static let personalColumns = [
        "purchasePrice", "purchaseCurrency", "purchaseDate", "purchaseFrom", "loanTo", "loanSince", "loanReturned",
    ]

    /// Every column `record(from:)` reads, in order.
    static let recordColumnList = baseColumns + ownColumns + gradingColumns + ["catalogueEdition"] + personalColumns
    /// `recordColumnList` for a SELECT.
    static let recordColumns = recordColumnList.joined(separator: ", ")
    /// How many columns `recordColumns` names: a query's next column is at this index.
    static let recordColumnCount = recordColumnList.count
    /// Where the collector's values and the grading start in `recordColumns`.
    private static let ownIndex = baseColumns.count
    private static let gradingIndex = baseColumns.count + ownColumns.count
    private static let catalogueIndex = gradingIndex + gradingColumns.count
    private static let personalIndex = catalogueIndex + 1

    /// The record in `row` (read with `recordColumns`); `location` gives the place of a
    /// location id (`fetchLocation`, or a `LocationTree` read once for many rows).
    static func record(from row: Row, location: (Int64) throws -> Location?) throws -> CollectionRecord {
        let id = try row.decode(Int64.self, atIndex: 0)
        var gtin: GTIN?
        if let gtinText = try row.decode(String?.self, atIndex: 1) {
            guard let parsed = GTIN(canonical: gtinText) else {
                throw StoreError.unreadableValue(recordID: id, column: "gtin", value: gtinText)
            }
            gtin = parsed
        }
        let methodText = try row.decode(String.self, atIndex: 3)
        guard let method = AddMethod(rawValue: methodText) else {
            throw StoreError.unreadableValue(recordID: id, column: "addMethod", value: methodText)
        }
        let state = try lookupState(try row.decode(String.self, atIndex: 7), recordID: id)
        let candidates = try row.decode(String?.self, atIndex: 13).map {
            try decodeJSON([ReleaseCandidate].self, $0, recordID: id, column: "candidatesJSON")
        } ?? []
        return CollectionRecord(
            id: id, gtin: gtin,
            addedAt: date(try row.decode(Double.self, atIndex: 2)),
            addMethod: method,
            note: try row.decode(String?.self, atIndex: 4),
            location: try row.decode(Int64?.self, atIndex: 5).flatMap(location),
            releaseID: try row.decode(Int?.self, atIndex: 6),
            lookupState: state,
            lookupError: try row.decode(String?.self, atIndex: 8),
            lookupAttempts: try row.decode(Int.self, atIndex: 9),
            retryAt: try row.decode(Double?.self, atIndex: 10).map(date),
            skipReason: try row.decode(String?.self, atIndex: 11),
            claimedUntil: try row.decode(Double?.self, atIndex: 12).map(date),
            candidates: candidates,
            updatedAt: date(try row.decode(Double.self, atIndex: 14)),
            collector: try collector(from: row, at: ownIndex),
            grading: try grading(from: row, at: gradingIndex, recordID: id),
            catalogueEdition: try row.decode(String?.self, atIndex: catalogueIndex).map(CatalogueEdition.init(dumpDate:)),
            purchase: try purchase(from: row, at: personalIndex, recordID: id),
            loan: try loan(from: row, at: personalIndex + 4))
    }

    /// The purchase from `personalColumns`, read from `index` on.
    static func purchase(from row: Row, at index: Int, recordID: Int64) throws -> Purchase {
        var price: Decimal?
        if let text = try row.decode(String?.self, atIndex: index) {
            guard let amount = MoneyAmount.parse(text) else {
                throw StoreError.unreadableValue(recordID: recordID, column: "purchasePrice", value: text)
            }
            price = amount
        }
        return Purchase(
            price: price, currency: try row.decode(String?.self, atIndex: index + 1),
            date: try row.decode(String?.self, atIndex: index + 2), from: try row.decode(String?.self, atIndex: index + 3))
    }

    /// The loan from `personalColumns`' last three, read from `index` on; nil when never lent.
    static func loan(from row: Row, at index: Int) throws -> Loan? {
        guard let to = try row.decode(String?.self, atIndex: index) else { return nil }
        return Loan(to: to, since: try row.decode(String?.self, atIndex: index + 1), returned: try row.decode(String?.self, atIndex: index + 2))
    }

    /// The values of `personalColumns` for a purchase and a loan, in order.
    static func personalValues(_ purchase: Purchase, _ loan: Loan?) -> [(any DatabaseValueConvertible)?] {
        [purchase.price.map(MoneyAmount.text), purchase.currency, purchase.date, purchase.from, loan?.to, loan?.since, loan?.returned]
    }

    /// The collector's values from `ownColumns`, read from `index` on.
    static func collector(from row: Row, at index: Int) throws -> RecordFields {
        RecordFields(
            artist: try row.decode(String?.self, atIndex: index), title: try row.decode(String?.self, atIndex: index + 1),
            genre: try row.decode(String?.self, atIndex: index + 2), year: try row.decode(Int?.self, atIndex: index + 3),
            format: try row.decode(String?.self, atIndex: index + 4), label: try row.decode(String?.self, atIndex: index + 5),
            catno: try row.decode(String?.self, atIndex: index + 6), country: try row.decode(String?.self, atIndex: index + 7))
    }

    /// The values of `gradingColumns` for `grading`, in order.
    static func gradingValues(_ grading: CopyGrading) -> [(any DatabaseValueConvertible)?] {
        [grading.media?.rawValue, grading.sleeve?.rawValue, grading.rating.value]
    }

    /// The values of `ownColumns` for `fields`, in order.
    static func ownValues(_ fields: RecordFields) -> [(any DatabaseValueConvertible)?] {
        [fields.artist, fields.title, fields.genre, fields.year, fields.format, fields.label, fields.catno, fields.country]
    }

    /// What the list's filter searches in the collector's values (as `searchText` does in a
    /// release's): artist, title, label and catalogue number, folded; nil when none is set.
    static func ownSearchText(_ fields: RecordFields) -> String? {
        let parts = [fields.artist, fields.title, fields.label, fields.catno].compactMap { $0 }
        return parts.isEmpty ? nil : SortKey.fold(parts.joined(separator: " "))
    }

    /// A row an import described by its values has found its release (a lookup's match, or
    /// a person's choice): the values were what found it, not the collector's, and Discogs'
    /// stand from now on ("SHVL 814", not the "SHVL814" typed), unless the import kept them
    /// (`entryValues = 'keep'`). The duplicate key (`entryKey`) stays, so the same import run
    /// again still finds the copy there.
    static func dropEntryValues(_ db: Database, recordID: Int64) throws {
        let cleared = (ownColumns + ["ownSearchText"]).map { "\($0) = NULL" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE record SET \(cleared), entryValues = NULL WHERE id = ? AND entryValues = 'find'", arguments: [recordID])
    }

    /// The duplicate key of a record without a barcode: its own values' (see
    /// `RecordFields.entryKey`); nil for a record with a barcode.
    static func entryKey(gtin: GTIN?, collector: RecordFields) -> String? {
        gtin == nil ? collector.entryKey : nil
    }

    /// Sets the record's sort keys from its release and its collector's values (see
    /// `RecordKeys`); the triggers move it between section counts.
    static func rekey(_ db: Database, recordID: Int64) throws {
        guard let record = try fetchRecord(db, id: recordID) else { return }
        let release = try record.releaseID.flatMap { try fetchRelease(db, id: $0) }
        let keys = RecordKeys(release: release, collector: record.collector, gtin: record.gtin?.canonical ?? "")
        try db.execute(
            sql: "UPDATE record SET sectionKey = ?, rowKey = ? WHERE id = ? AND (sectionKey != ? OR rowKey != ?)",
            arguments: [keys.section, keys.row, recordID, keys.section, keys.row])
    }

    /// `rekey` when the collector has values that decide the keys (genre, title, artist):
    /// the bulk updates key records from their release alone.
    static func rekeyIfOwn(_ db: Database, recordID: Int64) throws {
        // A cached statement: every lookup's outcome asks, thousands a batch in the catalogue pass.
        let statement = try db.cachedStatement(
            sql: "SELECT 1 FROM record WHERE id = ? AND (ownGenre IS NOT NULL OR ownTitle IS NOT NULL OR ownArtist IS NOT NULL)")
        let own = try Bool.fetchOne(statement, arguments: [recordID]) ?? false
        if own { try rekey(db, recordID: recordID) }
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

    static func fetchRecord(_ db: Database, id: Int64) throws -> CollectionRecord? {
        try Row.fetchOne(db, sql: "SELECT \(recordColumns) FROM record WHERE id = ?", arguments: [id])
            .map { row in try record(from: row) { try fetchLocation(db, id: $0) } }
    }

    /// Inserts `record` with its own id (an undo), its sort keys computed from the release
    /// already stored. Ignored when the id is present (the same undo applied twice).
    static func insertExisting(_ db: Database, _ record: CollectionRecord) throws {
        let release = try record.releaseID.flatMap { try fetchRelease(db, id: $0) }
        let keys = RecordKeys(release: release, collector: record.collector, gtin: record.gtin?.canonical ?? "")
        let values: [(any DatabaseValueConvertible)?] = [
            record.id, record.gtin?.canonical, seconds(record.addedAt), record.addMethod.rawValue,
            record.note, record.location?.id, release == nil ? nil : record.releaseID,
            record.lookupState, record.lookupError, record.lookupAttempts,
            record.retryAt.map(seconds), record.skipReason, record.claimedUntil.map(seconds),
            record.candidates.isEmpty ? nil : try json(record.candidates), seconds(record.updatedAt),
        ] + ownValues(record.collector) + gradingValues(record.grading) + [
            record.catalogueEdition?.dumpDate,
        ] + personalValues(record.purchase, record.loan) + [
            record.candidates.count, keys.section, keys.row, ownSearchText(record.collector),
            entryKey(gtin: record.gtin, collector: record.collector),
        ]
        var placeholders = Array(repeating: "?", count: values.count)
        // The place (`locationID`), unless it was removed meanwhile (the copy then comes back
        // in none).
        if let place = recordColumnList.firstIndex(of: "locationID") {
            placeholders[place] = "(SELECT id FROM location WHERE id = ?)"
        }
        // Cached: the text is the same for every record, and preparing an insert into
        // `record` compiles its triggers.
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO record (\(recordColumns), candidateCount, sectionKey, rowKey, ownSearchText, entryKey)
                VALUES (\(placeholders.joined(separator: ", ")))
                """
        ).execute(arguments: StatementArguments(values))
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
