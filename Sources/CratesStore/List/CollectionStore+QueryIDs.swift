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
}
