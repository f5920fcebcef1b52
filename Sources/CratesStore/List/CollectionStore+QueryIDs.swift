import CratesCore
import GRDB

extension CollectionStore {
    /// The ids of the records `query` keeps, in the list's `order`: what `crates move --query`
    /// moves, `crates labels --records QUERY` prints, and the UI tags when it tags every record
    /// its filter shows. One read; a term the collection cannot answer throws `.query`.
    public func recordIDs(matching query: RecordQuery, order: ListOrder = .default) async throws(StoreError) -> [Int64] {
        try await read { db in
            let condition = try query.sql(db, "r") ?? ("1", StatementArguments())
            return try Int64.fetchAll(
                db, sql: "SELECT r.id FROM record r WHERE \(condition.0) ORDER BY \(order.orderTerms())", arguments: condition.1)
        }
    }

    /// The ids of the records `query` keeps, in no particular order, when the trigram index
    /// (`filterIndex`) finds its words in at most one record in `indexShare` (`filterPlan`,
    /// as the list's filter decides); nil when it cannot narrow them (no word of 3
    /// characters or more, or words many records hold): the caller tests every record.
    ///
    /// The index only narrows: the records it finds are tested by the whole query, their
    /// words by `crates_contains`, as everywhere else. Each record's release is joined once
    /// (LEFT JOIN: a record without one is kept or not as the subqueries would decide),
    /// after the record's own terms passed.
    static func indexedMatches(_ db: Database, _ query: RecordQuery) throws -> [Int64]? {
        guard !query.terms.isEmpty,
              case .index(let expression) = try filterPlan(db, query.indexWords, records: fetchOutline(db).rowCount)
        else { return nil }
        let condition = try query.sql(db, "r", release: "rel") ?? ("1", StatementArguments())
        return try Int64.fetchAll(db, sql: """
            SELECT r.id FROM filterIndex f CROSS JOIN record r ON r.id = f.rowid LEFT JOIN release rel ON rel.id = r.releaseID
            WHERE f.filterIndex MATCH ? AND \(condition.0)
            """, arguments: StatementArguments([expression]) + condition.1)
    }

    /// The ids of every record the list shows for `query` (its filter, its place and the
    /// places inside it, its bar of the statistics), in no particular order: what the UI
    /// tags when it tags every record its filter shows. One read, one statement; a filter
    /// the collection cannot answer throws `.query`.
    public func recordIDs(shownBy query: CollectionQuery) async throws(StoreError) -> [Int64] {
        try await read { db in
            var conditions: [String] = []
            var arguments = StatementArguments()
            if let filter = try RecordQuery(parsing: query.filter).sql(db, "r") {
                conditions.append(filter.0)
                arguments += filter.1
            }
            if let location = query.location {
                let places = try Self.subtree(db, of: location)
                guard !places.isEmpty else { return [] }
                conditions.append("r.locationID IN (SELECT value FROM json_each(?))")
                arguments += [Self.jsonArray(places)]
            }
            if let facet = query.facet {
                let condition = try Self.facetCondition(db, facet)
                conditions.append(condition.0)
                arguments += condition.1
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            return try Int64.fetchAll(db, sql: "SELECT r.id FROM record r \(whereClause)", arguments: arguments)
        }
    }
}
