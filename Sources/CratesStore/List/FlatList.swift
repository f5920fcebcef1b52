import CratesCore
import GRDB
import GRDBSQLite

/// The flat list (`ListArrangement.flat`) of one order, held in memory: every record's id,
/// the records matched then those of the Unknown section, each group by the order's key and
/// the id. A window of the unfiltered flat list is a slice of it, either way round, and the
/// focus's row a search of it.
///
/// Why not an index per order on (group, key), which a window would walk as the sections'
/// windows walk `record_by_artist`, …: six more index entries a record written cost a bulk
/// insert of 100,000 records 1.5 times its CPU (14.8 s against 10.0 s), where an import of
/// that many barcodes is to get faster. The list is read once per state of the database
/// (`FilterSnapshots.flatList`, kept as the filter's snapshot is), one read of the table
/// sorted by SQLite, so that the order is SQLite's own (`ORDER BY`, as `crates list --flat`
/// sorts), never a second comparison of keys kept in step with it.
struct FlatList: Sendable {
    let order: ListOrder
    /// Every record's id, each group ascending.
    let ids: [Int64]
    /// How many records the first group (the matched ones) has.
    let matched: Int

    static func load(_ db: Database, order: ListOrder) throws -> FlatList {
        let ascending = ListArrangement(order: order, flat: true)
        let statement = try db.makeStatement(
            sql: "SELECT r.id, \(ascending.group()) FROM record r ORDER BY \(ascending.orderTerms())")
        let raw = statement.sqliteStatement
        var ids: [Int64] = []
        var matched = 0
        while try FilterSnapshot.step(statement) {
            ids.append(sqlite3_column_int64(raw, 0))
            if sqlite3_column_int64(raw, 1) == 0 { matched += 1 }
        }
        return FlatList(order: order, ids: ids, matched: matched)
    }

    /// Where the row `row` of the list in `descending` order is in `ids`: each group's rows
    /// turned round when descending, the groups staying in their order.
    private func index(ofRow row: Int, descending: Bool) -> Int {
        guard descending else { return row }
        return row < matched ? matched - 1 - row : ids.count - 1 - (row - matched)
    }

    /// The ids of `window`, in the list's order.
    func ids(_ window: RowWindow, descending: Bool) -> [Int64] {
        let lower = min(max(window.offset, 0), ids.count)
        let (sum, overflow) = lower.addingReportingOverflow(max(window.limit, 0))
        let upper = overflow ? ids.count : min(sum, ids.count)
        return (lower..<upper).map { ids[index(ofRow: $0, descending: descending)] }
    }

    /// The row of `id` in the list, nil when it is not in it.
    func row(of id: Int64, descending: Bool) -> Int? {
        // A search of every id: under a millisecond at a million records, against a
        // dictionary's tens of megabytes kept for it.
        guard let found = ids.firstIndex(of: id) else { return nil }
        // The mapping is its own inverse.
        return index(ofRow: found, descending: descending)
    }
}
