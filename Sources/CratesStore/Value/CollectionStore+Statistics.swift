import CratesCore
import Foundation
import GRDB

/// `crates stats`: counts of the collection from SQLite aggregates, one GROUP BY per
/// dimension over one snapshot, never the records themselves (at 100,000 records each query
/// scans the table once, tens of milliseconds). The values counted are the ones the list
/// shows: the collector's own where set, else Discogs'.
extension CollectionStore {
    /// The totals and the counts of `dimensions` over the copies `filter` keeps.
    /// With `spending`, what was spent on them too (per year, by where bought); with
    /// `placeless`, the places chart has a bar of the copies in no place
    /// (`StatisticsFacet.noPlace`).
    public func statistics(
        _ filter: ExportFilter = ExportFilter(), dimensions: [StatisticsDimension] = StatisticsDimension.allCases,
        spending: Bool = false, placeless: Bool = false
    ) async throws(StoreError) -> CollectionStatistics {
        try await read { db in
            var statistics = try Self.fetchStatistics(db, filter: filter, dimensions: dimensions, placeless: placeless)
            if spending { statistics.spending = try Self.fetchSpending(db, filter: filter) }
            return statistics
        }
    }

    /// The purchases of the copies `filter` keeps whose price is known, summed in Core
    /// (`Spending`): exact decimals, and few rows (only copies with a price).
    static func fetchSpending(_ db: Database, filter: ExportFilter) throws -> Spending {
        guard let (condition, arguments) = try statisticsCondition(db, filter) else { return Spending() }
        let rows = try Row.fetchAll(
            db, sql: "SELECT r.purchasePrice, r.purchaseCurrency, r.purchaseDate, r.purchaseFrom FROM record r "
                + "WHERE \(condition) AND r.purchasePrice IS NOT NULL",
            arguments: arguments)
        return Spending(try rows.map { row in
            Purchase(
                price: try row.decode(String?.self, atIndex: 0).flatMap(MoneyAmount.parse),
                currency: try row.decode(String?.self, atIndex: 1), date: try row.decode(String?.self, atIndex: 2),
                from: try row.decode(String?.self, atIndex: 3))
        })
    }

    static func fetchStatistics(
        _ db: Database, filter: ExportFilter, dimensions: [StatisticsDimension], placeless: Bool = false
    ) throws -> CollectionStatistics {
        guard let (condition, arguments) = try statisticsCondition(db, filter) else {
            return CollectionStatistics(totals: .init(), dimensions: dimensions.map { ($0, []) })
        }
        // The filter reads only the record; the release is joined only for the dimensions
        // that show its values, so that the others stay one pass over the record table (the
        // genre one over the record_order index alone).
        let from = { (join: String) in
            join.isEmpty ? "FROM record r WHERE \(condition)"
                : "FROM record r LEFT JOIN release rel ON rel.id = r.releaseID\(join == " " ? "" : join) WHERE \(condition)"
        }
        var totals = CollectionStatistics.Totals()
        if let row = try Row.fetchOne(db, sql: """
            SELECT COUNT(*),
                   COUNT(DISTINCT r.releaseID) + SUM(r.releaseID IS NULL),
                   SUM(r.lookupState = ?),
                   SUM(r.lookupState IN (?, ?, ?)),
                   SUM(r.lookupState = ?),
                   SUM(r.gtin IS NULL),
                   SUM(r.locationID IS NOT NULL),
                   SUM(r.mediaCondition IS NOT NULL OR r.sleeveCondition IS NOT NULL)
            \(from(""))
            """,
            arguments: [LookupState.matched, LookupState.pending, LookupState.lookingUp, LookupState.failed, LookupState.handEntered]
                + arguments)
        {
            func value(_ index: Int) throws -> Int { try row.decode(Int?.self, atIndex: index) ?? 0 }
            totals = CollectionStatistics.Totals(
                records: try value(1), copies: try value(0), matched: try value(2), waiting: try value(3),
                handEntered: try value(4), withoutBarcode: try value(5), inPlaces: try value(6), graded: try value(7))
        }
        var result: [(dimension: StatisticsDimension, counts: [CollectionStatistics.Count])] = []
        // The decades are the years' counts summed: one scan serves both.
        var years: [CollectionStatistics.Count]?
        func yearCounts() throws -> [CollectionStatistics.Count] {
            if let years { return years }
            let counts = try fetchCounts(db, sql: countQuery(.year, from: from), arguments: arguments, uses: 1)
            years = counts
            return counts
        }
        for dimension in dimensions {
            var counts: [CollectionStatistics.Count]
            switch dimension {
            case .year: counts = try yearCounts()
            case .decade: counts = decades(try yearCounts())
            default:
                counts = try fetchCounts(
                    db, sql: countQuery(dimension, from: from), arguments: arguments, uses: dimension == .label ? 2 : 1)
            }
            switch dimension {
            case .genre:
                counts = counts.map { .init(key: SortKey.sectionName(fromKey: $0.key), count: $0.count) }
            case .format:
                // Counted by whole text in SQL (few distinct texts), grouped by medium in Core.
                counts = FormatMedium.chart(counts)
            case .location:
                let tree = try fetchTree(db)
                counts = counts.map { .init(key: tree.location(Int64($0.key) ?? 0)?.pathText ?? "#\($0.key)", count: $0.count) }
                if placeless, let none = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) \(from("")) AND r.locationID IS NULL", arguments: arguments), none > 0
                {
                    counts.append(.init(key: StatisticsFacet.noPlace, count: none))
                }
            default:
                break
            }
            result.append((dimension, dimension.ordered(counts)))
        }
        return CollectionStatistics(totals: totals, dimensions: result)
    }

    /// The query of one dimension's counts: rows of (key, count). A copy without a value
    /// (no year, no place) is in none.
    private static func countQuery(_ dimension: StatisticsDimension, from: (String) -> String) -> String {
        let filtered = from("")
        let joined = from(" ")
        let year = "coalesce(r.ownYear, rel.year)"
        switch dimension {
        case .genre:
            return "SELECT r.sectionKey, COUNT(*) \(filtered) GROUP BY r.sectionKey"
        case .style:
            // DISTINCT: a release naming a style twice counts its copy once.
            return """
                SELECT style, COUNT(*) FROM (
                    SELECT DISTINCT r.id, s.value AS style
                    \(from(", json_each(rel.stylesJSON) s"))
                ) GROUP BY style
                """
        case .year, .decade:
            return "SELECT CAST(\(year) AS TEXT), COUNT(*) \(joined) AND \(year) > 0 GROUP BY \(year)"
        case .format:
            let format = "coalesce(r.ownFormat, rel.formatSummary)"
            return "SELECT \(format), COUNT(*) \(joined) AND \(format) IS NOT NULL GROUP BY \(format)"
        case .country:
            let country = "coalesce(r.ownCountry, rel.country)"
            return "SELECT \(country), COUNT(*) \(joined) AND \(country) IS NOT NULL AND \(country) != '' GROUP BY \(country)"
        case .label:
            // The collector's label stands for all of Discogs'; else each distinct name once.
            return """
                SELECT label, COUNT(*) FROM (
                    SELECT r.id, r.ownLabel AS label \(filtered) AND r.ownLabel IS NOT NULL
                    UNION
                    SELECT r.id, json_extract(l.value, '$.name') AS label
                    \(from(", json_each(rel.labelsJSON) l")) AND r.ownLabel IS NULL
                ) WHERE label IS NOT NULL AND label != '' GROUP BY label
                """
        case .location:
            return "SELECT CAST(r.locationID AS TEXT), COUNT(*) \(filtered) AND r.locationID IS NOT NULL GROUP BY r.locationID"
        case .added:
            return "SELECT strftime('%Y-%m', r.addedAt, 'unixepoch'), COUNT(*) \(filtered) GROUP BY 1"
        case .grade:
            return "SELECT r.mediaCondition, COUNT(*) \(filtered) AND r.mediaCondition IS NOT NULL GROUP BY r.mediaCondition"
        }
    }

    /// The decades ("1970s") of the years' counts ("1974"), each the sum of its years.
    private static func decades(_ years: [CollectionStatistics.Count]) -> [CollectionStatistics.Count] {
        var sums: [Int: Int] = [:]
        for year in years {
            guard let value = Int(year.key) else { continue }
            sums[value / 10 * 10, default: 0] += year.count
        }
        return sums.map { .init(key: "\($0.key)s", count: $0.value) }
    }

    /// Rows of (key, count); `uses` is how many times the query holds the filter.
    private static func fetchCounts(
        _ db: Database, sql: String, arguments: StatementArguments, uses: Int
    ) throws -> [CollectionStatistics.Count] {
        var all = StatementArguments()
        for _ in 0..<uses { all += arguments }
        let cursor = try Row.fetchCursor(db, sql: sql, arguments: all)
        var counts: [CollectionStatistics.Count] = []
        while let row = try cursor.next() {
            guard let key = try row.decode(String?.self, atIndex: 0) else { continue }
            counts.append(.init(key: key, count: try row.decode(Int.self, atIndex: 1)))
        }
        return counts
    }

    /// The filter as an SQL condition on `record r`, or nil when nothing can pass it (a genre
    /// no section has, a place removed meanwhile). The same rules as the list's: sections by
    /// name in any case, a place with the places inside it, lookup states.
    private static func statisticsCondition(_ db: Database, _ filter: ExportFilter) throws -> (String, StatementArguments)? {
        var conditions = ["1"]
        var arguments = StatementArguments()
        if !filter.sections.isEmpty {
            let keys = try String.fetchAll(db, sql: "SELECT sectionKey FROM sectionCount WHERE count > 0")
                .filter { filter.includes(section: SortKey.sectionName(fromKey: $0)) }
            guard !keys.isEmpty else { return nil }
            conditions.append("r.sectionKey IN (SELECT value FROM json_each(?))")
            arguments += StatementArguments(["[" + keys.map(JSONStringLiteral.quoted).joined(separator: ",") + "]"])
        }
        if let location = filter.location {
            let places = try subtree(db, of: location)
            guard !places.isEmpty else { return nil }
            conditions.append("r.locationID IN (SELECT value FROM json_each(?))")
            arguments += StatementArguments([jsonArray(places)])
        }
        if let places = filter.directlyIn {
            guard !places.isEmpty else { return nil }
            conditions.append("r.locationID IN (SELECT value FROM json_each(?))")
            arguments += StatementArguments([jsonArray(Array(places))])
        }
        if !filter.states.isEmpty {
            conditions.append("r.lookupState IN (SELECT value FROM json_each(?))")
            arguments += StatementArguments(["[" + filter.states.map { JSONStringLiteral.quoted($0.rawValue) }.joined(separator: ",") + "]"])
        }
        if let query = try filter.query.sql(db, "r") {
            conditions.append(query.0)
            arguments += query.1
        }
        return (conditions.joined(separator: " AND "), arguments)
    }
}
