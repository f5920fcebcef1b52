import CratesCore
import Foundation
import GRDB

/// What the collection is worth, as Discogs priced it on each day it was asked ("v15 price
/// observations"): written by `crates value --refresh` and by every full release fetch,
/// read by `crates value`, the details view and the statistics screen.
extension CollectionStore {
    /// A copy to price: its record, release and media grade.
    public struct ValuedCopy: Hashable, Sendable {
        public var recordID: Int64
        public var releaseID: Int
        public var grade: MediaCondition?
    }

    /// The collection's value on one month's last day asked.
    public struct ValueHistoryEntry: Hashable, Sendable {
        /// "2026-11".
        public var month: String
        public var figure: CollectionValueReport.CollectionFigure
        public var currency: String
    }

    /// The day of `date` in UTC, `YYYY-MM-DD`: at most one observation per thing per day.
    static func observationDay(_ date: Date) -> String {
        String(UTCTimestamp.format(date, .iso8601).prefix(10))
    }

    /// Every copy matched to a release, oldest first: what `--refresh` asks about.
    public func valuedCopies() async throws(StoreError) -> [ValuedCopy] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, releaseID, mediaCondition FROM record WHERE releaseID IS NOT NULL ORDER BY id").map { row in
                ValuedCopy(
                    recordID: row["id"], releaseID: row["releaseID"],
                    grade: (row["mediaCondition"] as String?).flatMap(MediaCondition.init(rawValue:)))
            }
        }
    }

    /// Stores a release's marketplace figures of `at`'s day (replacing that day's).
    public func storeReleasePrice(
        releaseID: Int, currency: String, lowestPrice: Double?, forSale: Int?, at: Date
    ) async throws(StoreError) {
        try await write { db in
            try Self.insertReleasePrice(
                db, releaseID: releaseID, currency: currency, lowestPrice: lowestPrice, forSale: forSale, source: "stats", at: at)
        }
    }

    static func insertReleasePrice(
        _ db: Database, releaseID: Int, currency: String, lowestPrice: Double?, forSale: Int?, source: String, at: Date
    ) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO releasePrice (releaseID, day, currency, lowestPrice, numForSale, source, at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                releaseID, observationDay(at), currency, lowestPrice, forSale, source, StoredValues.seconds(at),
            ])
    }

    /// Stores the price suggested for a copy's media grade on `at`'s day.
    public func storeCopyPrice(recordID: Int64, grade: MediaCondition, price: DiscogsPrice, at: Date) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO copyPrice (recordID, day, grade, currency, suggestedPrice, at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [recordID, Self.observationDay(at), grade.rawValue, price.currency, price.value, StoredValues.seconds(at)])
        }
    }

    /// Stores the collection's value on `at`'s day.
    public func storeCollectionValue(_ value: DiscogsCollectionValue, currency: String, at: Date) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO collectionValue
                        (day, currency, minimum, median, maximum, minimumText, medianText, maximumText, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Self.observationDay(at), currency, value.minimumAmount, value.medianAmount, value.maximumAmount,
                    value.minimum, value.median, value.maximum, StoredValues.seconds(at),
                ])
        }
    }

    /// The currency of the newest figure stored (nil: none stored, or only figures of a
    /// release fetch, whose currency crates did not know).
    public func storedValueCurrency() async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(db, sql: """
                SELECT currency FROM (
                    SELECT currency, at FROM collectionValue
                    UNION ALL SELECT currency, at FROM releasePrice WHERE currency != ''
                    UNION ALL SELECT currency, at FROM copyPrice)
                ORDER BY at DESC LIMIT 1
                """)
        }
    }

    /// The newest figures stored in `currency`, for every copy matched to a release (a
    /// release fetch's figures, of the account's currency, count as `currency` when
    /// `accountCurrency`); `recordIDs` only those copies when given.
    public func valueReport(
        currency: String, accountCurrency: Bool, recordIDs: [Int64]? = nil
    ) async throws(StoreError) -> CollectionValueReport {
        try await read { db in
            try Self.fetchValueReport(db, currency: currency, accountCurrency: accountCurrency, recordIDs: recordIDs)
        }
    }

    static func fetchValueReport(
        _ db: Database, currency: String, accountCurrency: Bool, recordIDs: [Int64]?
    ) throws -> CollectionValueReport {
        let currencies = accountCurrency ? "(?, '')" : "(?)"
        let collection = try Row.fetchOne(
            db, sql: "SELECT * FROM collectionValue WHERE currency IN \(currencies) ORDER BY day DESC LIMIT 1", arguments: [currency]
        ).map(collectionFigure)
        let only = recordIDs.map { "AND r.id IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT r.id, r.releaseID, r.mediaCondition,
                       p.lowestPrice, p.numForSale, p.at AS priceAt,
                       c.grade AS suggestedGrade, c.suggestedPrice, c.at AS suggestedAt,
                       COALESCE(r.ownArtist, rel.artist, '') AS artist, COALESCE(r.ownTitle, rel.title, '') AS title
                FROM record r
                LEFT JOIN release rel ON rel.id = r.releaseID
                LEFT JOIN releasePrice p ON p.releaseID = r.releaseID AND p.day = (
                    SELECT max(day) FROM releasePrice WHERE releaseID = r.releaseID AND currency IN \(currencies))
                LEFT JOIN copyPrice c ON c.recordID = r.id AND c.day = (
                    SELECT max(day) FROM copyPrice WHERE recordID = r.id AND currency = ?)
                WHERE r.releaseID IS NOT NULL \(only)
                ORDER BY r.id
                """,
            arguments: [currency, currency])
        let records = rows.map { row -> CollectionValueReport.CopyFigure in
            let grade = (row["mediaCondition"] as String?).flatMap(MediaCondition.init(rawValue:))
            // A suggestion counts only for the grade the copy has now.
            let suggestedGrade = (row["suggestedGrade"] as String?).flatMap(MediaCondition.init(rawValue:))
            let suggested: Double? = suggestedGrade == grade ? row["suggestedPrice"] : nil
            let dates = [row["priceAt"] as Double?, suggested == nil ? nil : row["suggestedAt"] as Double?].compactMap { $0 }
            return CollectionValueReport.CopyFigure(
                id: row["id"], releaseID: row["releaseID"], grade: grade, lowestPrice: row["lowestPrice"],
                forSale: row["numForSale"], suggestedPrice: suggested, at: dates.max().map(StoredValues.date),
                title: DisplayTitle.of(artist: row["artist"], title: row["title"]))
        }
        return CollectionValueReport(currency: currency, collection: collection, records: records)
    }

    private static func collectionFigure(_ row: Row) -> CollectionValueReport.CollectionFigure {
        CollectionValueReport.CollectionFigure(
            value: DiscogsCollectionValue(minimum: row["minimumText"], median: row["medianText"], maximum: row["maximumText"]),
            at: StoredValues.date(row["at"]))
    }

    /// The collection's value per month (the month's last day asked), oldest first, in
    /// `currency` (every currency when nil).
    public func valueHistory(currency: String?) async throws(StoreError) -> [ValueHistoryEntry] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT v.* FROM collectionValue v
                    WHERE (?1 IS NULL OR v.currency = ?1) AND v.day = (
                        SELECT max(day) FROM collectionValue w
                        WHERE substr(w.day, 1, 7) = substr(v.day, 1, 7) AND (?1 IS NULL OR w.currency = ?1))
                    ORDER BY v.day
                    """,
                arguments: [currency]
            ).map { row in
                ValueHistoryEntry(month: String((row["day"] as String).prefix(7)), figure: Self.collectionFigure(row), currency: row["currency"])
            }
        }
    }

    /// A copy's newest figures, in the currency of its release's newest observation.
    static func fetchCopyValue(_ db: Database, recordID: Int64) throws -> (figure: CollectionValueReport.CopyFigure, currency: String)? {
        guard
            let currency = try String.fetchOne(
                db,
                sql: """
                    SELECT p.currency FROM record r JOIN releasePrice p ON p.releaseID = r.releaseID
                    WHERE r.id = ? ORDER BY p.day DESC LIMIT 1
                    """,
                arguments: [recordID])
        else { return nil }
        let report = try fetchValueReport(db, currency: currency, accountCurrency: true, recordIDs: [recordID])
        guard let figure = report.records.first, figure.at != nil else { return nil }
        return (figure, currency)
    }

    /// The statistics screen's value charts in `currency` (see `CollectionValueCharts`), from
    /// SQLite aggregates over the same newest figures as `valueReport`; nil when `currency`
    /// is nil (nothing stored).
    public func valueCharts(currency: String?, accountCurrency: Bool) async throws(StoreError) -> CollectionValueCharts? {
        guard let currency else { return nil }
        return try await read { db in try Self.fetchValueCharts(db, currency: currency, accountCurrency: accountCurrency) }
    }

    static func fetchValueCharts(_ db: Database, currency: String, accountCurrency: Bool) throws -> CollectionValueCharts {
        let currencies = accountCurrency ? "(?1, '')" : "(?1)"
        // Each copy's value: the newest suggestion in the currency, if it is for the grade the
        // copy has now, else the newest lowest price listed.
        let copies = """
            WITH copyValue AS (
                SELECT r.id, r.sectionKey, r.locationID, coalesce(
                    (SELECT CASE WHEN c.grade = r.mediaCondition THEN c.suggestedPrice END FROM copyPrice c
                     WHERE c.recordID = r.id AND c.currency = ?1 ORDER BY c.day DESC LIMIT 1),
                    (SELECT p.lowestPrice FROM releasePrice p
                     WHERE p.releaseID = r.releaseID AND p.currency IN \(currencies) ORDER BY p.day DESC LIMIT 1)) AS value
                FROM record r WHERE r.releaseID IS NOT NULL)
            """
        func counts(_ sql: String) throws -> [CollectionStatistics.Count] {
            try Row.fetchAll(db, sql: sql, arguments: [currency]).compactMap { row in
                guard let key = row[0] as String? else { return nil }
                return CollectionStatistics.Count(key: key, count: Int((row[1] as Double? ?? 0).rounded()))
            }
        }
        let mostValuable = try Row.fetchAll(
            db,
            sql: copies + """
                SELECT v.id, v.value, coalesce(r.ownArtist, rel.artist) AS artist, coalesce(r.ownTitle, rel.title) AS title
                FROM copyValue v JOIN record r ON r.id = v.id LEFT JOIN release rel ON rel.id = r.releaseID
                WHERE v.value IS NOT NULL
                ORDER BY v.value DESC, v.id LIMIT \(CollectionValueCharts.mostValuableCount)
                """,
            arguments: [currency]
        ).map { row -> CollectionStatistics.Count in
            let id: Int64 = row["id"]
            let name = [row["artist"] as String?, row["title"] as String?].compactMap { $0 }.joined(separator: " — ")
            return CollectionStatistics.Count(key: "#\(id) \(name.isEmpty ? "record" : name)", count: Int((row["value"] as Double).rounded()))
        }
        let byGenre = try counts(copies + """
            SELECT v.sectionKey, SUM(v.value) FROM copyValue v WHERE v.value IS NOT NULL
            GROUP BY v.sectionKey ORDER BY 2 DESC, 1
            """).map { CollectionStatistics.Count(key: SortKey.sectionName(fromKey: $0.key), count: $0.count) }
        let tree = try fetchTree(db)
        let byPlace = try counts(copies + """
            SELECT CAST(v.locationID AS TEXT), SUM(v.value) FROM copyValue v
            WHERE v.value IS NOT NULL AND v.locationID IS NOT NULL GROUP BY v.locationID ORDER BY 2 DESC, 1
            """).map { CollectionStatistics.Count(key: tree.location(Int64($0.key) ?? 0)?.pathText ?? "#\($0.key)", count: $0.count) }
        let overTime = try counts("""
            SELECT substr(v.day, 1, 7), v.median FROM collectionValue v
            WHERE v.currency IN \(currencies) AND v.median IS NOT NULL AND v.day = (
                SELECT max(day) FROM collectionValue w
                WHERE substr(w.day, 1, 7) = substr(v.day, 1, 7) AND w.currency IN \(currencies))
            ORDER BY v.day
            """)
        return CollectionValueCharts(currency: currency, mostValuable: mostValuable, byGenre: byGenre, byPlace: byPlace, overTime: overTime)
    }
}
