import CratesCore
import GRDB

extension Schema {
    /// v28: an index per order for the flat list (`CollectionQuery.flat`, `crates list
    /// --flat`): the record's group (`ListArrangement.flatGroup`: 0 matched, 1 in the
    /// Unknown section, which comes last), then the order's key. A window of the flat list is
    /// then a walk of one of them, forwards or backwards, as a window in sections is of
    /// `record_order`, `record_by_artist`, …; without them each window sorted the whole
    /// collection. Their cost: six more index entries a record written, and kept up as its
    /// sort keys change: crates-bench's bulk insert of 100,000 records took 14.8 s of CPU
    /// (median of 3) against 10.0 s without them (a machine under heavy load: the ratio is
    /// the figure), and they hold 27 MB of a 354 MB collection of 100,000 records.
    static func addFlatOrders(_ db: Database) throws {
        for order in ListOrder.allCases {
            try db.execute(sql: """
                CREATE INDEX record_flat_\(order.rawValue) ON record(\(ListArrangement.flatGroup("")), \(order.keyColumn))
                """)
        }
    }
}
