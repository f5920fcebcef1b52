import CratesCore
import GRDB
import GRDBSQLite
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Every record's filter text, in the list's order, held in memory: what the filter reads
/// per keystroke, taken from one snapshot of the database and kept while nothing changes.
///
/// The first filter query reads the texts and the list's order from two covering indexes
/// (`load`) and keeps what it read; each later keystroke tests its words against that copy,
/// with the same byte search as `crates_contains` (`FilterContains.find`), and reads from
/// the database only the outline and the window's rows: crates-tui-bench at 100,000 records,
/// 5 ms of CPU a keystroke (median) instead of 20–25. The copy holds about 8 MB at 100,000
/// records. Reading it again after a change costs 50–85 ms: `FilterSnapshots`.
struct FilterSnapshot: Sendable {
    /// Every record's text, in the order `record_filter` holds them (the titles' order).
    struct Texts: Sendable {
        /// The records' ids, in that order.
        let ids: [Int64]
        /// Where each record's text starts in `text`, and one more: where the last one ends.
        let starts: [Int]
        /// The records' `filterText`, one after the other, as SQLite holds them (UTF-8 bytes).
        let text: [UInt8]
    }

    /// The order the records are in (`ListArrangement.orderTerms`).
    let arrangement: ListArrangement
    /// Each section's name and rows, in the list's order (flat, each group's: the outline is
    /// made one section of them by `fetchWindow`).
    let sections: [(name: String, rows: Range<Int>)]
    /// Each row's record, in the list's order: its id, and where its text is in `texts`.
    let ids: [Int64]
    let textIndexes: [Int]
    let texts: Texts

    /// Reads every record's section key, id and text in `arrangement`, from the
    /// transaction `db` is in, with `texts` when they were read in this transaction's state.
    /// `records`: the outline's count. Nil when a record has no text (only inside a
    /// transaction that writes records, which a read never sees; the filter then asks the
    /// database).
    ///
    /// Two walks of covering indexes, never the records' rows: `record_filter` for the texts
    /// (in the titles' order), and for another order its own index (`record_by_artist`...),
    /// whose ids find their texts. Reading the texts in another order's index would read each
    /// record's row, ten times the cost.
    static func load(_ db: Database, arrangement: ListArrangement, records: Int, texts known: Texts? = nil) throws -> FilterSnapshot? {
        let titles = arrangement == ListArrangement(order: .title)
        var sections = SectionWalk()
        var texts = known
        if texts == nil {
            var ids: [Int64] = []
            var starts: [Int] = [0]
            var text: [UInt8] = []
            ids.reserveCapacity(records)
            starts.reserveCapacity(records + 1)
            let statement = try db.makeStatement(sql: """
                SELECT r.sectionKey, r.id, r.filterText FROM record r ORDER BY \(ListOrder.title.orderTerms())
                """)
            let raw = statement.sqliteStatement
            while try step(statement) {
                guard sqlite3_column_type(raw, 2) != SQLITE_NULL else { return nil }
                if titles { sections.add(raw, row: ids.count) }
                ids.append(sqlite3_column_int64(raw, 1))
                // Text first, then its length (SQLite's order).
                let value = sqlite3_column_text(raw, 2)
                let length = Int(sqlite3_column_bytes(raw, 2))
                if let value, length > 0 { text.append(contentsOf: UnsafeBufferPointer(start: value, count: length)) }
                starts.append(text.count)
            }
            texts = Texts(ids: ids, starts: starts, text: text)
        }
        guard let texts else { return nil }
        // The titles' order, read with the texts just now: its sections too.
        if titles, known == nil {
            let rows = sections.finish(rows: texts.ids.count)
            return FilterSnapshot(
                arrangement: arrangement, sections: rows, ids: texts.ids, textIndexes: Array(0..<texts.ids.count), texts: texts)
        }
        // Another order: its ids, and where each one's text is.
        let lookup = TextLookup(texts.ids)
        var ids: [Int64] = []
        var textIndexes: [Int] = []
        ids.reserveCapacity(texts.ids.count)
        textIndexes.reserveCapacity(texts.ids.count)
        // Each group (a section, or flat a `flatGroup`) ascending, in sections by its index
        // (flat, sorted: no index holds that order); descending, each group's part is turned
        // round below, which costs less than a sort.
        var ascending = arrangement
        ascending.descending = false
        let statement = try db.makeStatement(
            sql: "SELECT \(ascending.group()), r.id FROM record r ORDER BY \(ascending.orderTerms())")
        let raw = statement.sqliteStatement
        while try step(statement) {
            let id = sqlite3_column_int64(raw, 1)
            guard let index = lookup.index(of: id) else { return nil }
            sections.add(raw, row: ids.count)
            ids.append(id)
            textIndexes.append(index)
        }
        guard ids.count == texts.ids.count else { return nil }
        let groups = sections.finish(rows: ids.count)
        if arrangement.descending {
            for group in groups {
                ids[group.rows].reverse()
                textIndexes[group.rows].reverse()
            }
        }
        return FilterSnapshot(arrangement: arrangement, sections: groups, ids: ids, textIndexes: textIndexes, texts: texts)
    }

    /// Steps `statement` (one GRDB made, not yet run) to its next row: true on a row, false
    /// at the end. SQLite's own step, not a GRDB cursor, which makes an object per row (a
    /// third of the walk's time); the row's columns are read with SQLite's functions.
    static func step(_ statement: Statement) throws -> Bool {
        let code = sqlite3_step(statement.sqliteStatement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let message = sqlite3_errmsg(sqlite3_db_handle(statement.sqliteStatement)).map { String(cString: $0) }
        throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }

    /// The sections met in a walk in the list's order: a new one where the key (column 0)
    /// changes, compared as bytes, a `String` made only then.
    private struct SectionWalk {
        private var sections: [(name: String, rows: Range<Int>)] = []
        private var key: [UInt8] = []
        private var start = 0

        mutating func add(_ statement: OpaquePointer, row: Int) {
            let bytes = sqlite3_column_text(statement, 0)
            let length = Int(sqlite3_column_bytes(statement, 0))
            let current = UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : length)
            if row > 0, current.count == key.count, key.withUnsafeBufferPointer({ key in
                guard let known = key.baseAddress, let bytes = current.baseAddress else { return true }
                return memcmp(known, bytes, current.count) == 0
            }) {
                return
            }
            if row > 0 { sections[sections.count - 1].rows = start..<row }
            key = Array(current)
            start = row
            sections.append((SortKey.sectionName(fromKey: String(decoding: current, as: UTF8.self)), row..<row))
        }

        mutating func finish(rows: Int) -> [(name: String, rows: Range<Int>)] {
            if !sections.isEmpty { sections[sections.count - 1].rows = start..<rows }
            return sections
        }
    }

    /// Where a record's text is, by id: an array over the ids' span when they are dense
    /// enough (as SQLite hands them out), else a dictionary.
    private struct TextLookup {
        private let first: Int64
        private let dense: [Int]?
        private let sparse: [Int64: Int]

        init(_ ids: [Int64]) {
            let low = ids.min() ?? 0
            let high = ids.max() ?? -1
            first = low
            if high >= low, high - low < Int64(ids.count) * 4 + 1024 {
                var dense = [Int](repeating: -1, count: Int(high - low) + 1)
                for (index, id) in ids.enumerated() { dense[Int(id - low)] = index }
                self.dense = dense
                sparse = [:]
            } else {
                dense = nil
                sparse = Dictionary(ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            }
        }

        func index(of id: Int64) -> Int? {
            guard let dense else { return sparse[id] }
            let offset = id - first
            guard offset >= 0, offset < Int64(dense.count), dense[Int(offset)] >= 0 else { return nil }
            return dense[Int(offset)]
        }
    }

    /// The records whose text holds each of `words` (as `crates_contains` decides): the
    /// outline, the ids of `query`'s window and the focus's row, as the scan gives them.
    func matches(_ words: [String], _ query: CollectionQuery) -> (outline: CollectionOutline, ids: [Int64], focusRow: Int?) {
        let (end, overflow) = query.window.offset.addingReportingOverflow(query.window.limit)
        let window = query.window.offset..<(overflow ? Int.max : end)
        // Each word's bytes where the search can point at them, for the whole walk.
        let words = words.map { Array($0.utf8) }.filter { !$0.isEmpty }.map { word in
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: word.count)
            _ = buffer.initialize(from: word)
            return buffer
        }
        defer { for word in words { word.deallocate() } }
        var summaries: [SectionSummary] = []
        var windowIDs: [Int64] = []
        var focusRow: Int?
        var row = 0
        let starts = texts.starts
        texts.text.withUnsafeBufferPointer { text in
            for section in sections {
                let first = row
                for position in section.rows {
                    let index = textIndexes[position]
                    let start = starts[index]
                    let length = starts[index + 1] - start
                    var kept = true
                    for word in words {
                        // A text shorter than the word cannot hold it (an empty one has no bytes).
                        guard length >= word.count, let base = text.baseAddress, let bytes = word.baseAddress,
                              FilterContains.find(bytes, word.count, in: base + start, length)
                        else {
                            kept = false
                            break
                        }
                    }
                    guard kept else { continue }
                    if window.contains(row) { windowIDs.append(ids[position]) }
                    if ids[position] == query.focus { focusRow = row }
                    row += 1
                }
                if row > first { summaries.append(SectionSummary(name: section.name, count: row - first, firstRow: first)) }
            }
        }
        return (CollectionOutline(sections: summaries), windowIDs, focusRow)
    }
}

/// The filter's snapshot of one connection (`FilterSnapshot`), kept while the database is as
/// it was when the snapshot was read.
///
/// "As it was" is decided per connection, with no schema of its own: SQLite changes
/// `PRAGMA data_version` on a connection whenever another connection (of this process or
/// another) has committed since, and `sqlite3_total_changes64` counts the rows the
/// connection itself wrote (an in-memory store reads and writes on one connection). Both are
/// read in the query's own transaction, so they name the state the query reads. Why not a
/// counter kept by triggers: it would cost a write per record written (a bulk insert of
/// 100,000 records writes each row already twice), and a trigger lifted for a restore
/// (`withoutRowIndexTriggers`) would be one more to remember; data_version sees every commit
/// whatever wrote it. A change anywhere in the file (a lookup's queue) also drops the
/// snapshot: the next keystroke reads the records again, as the scan would.
///
/// The connection is held weakly: a connection closed and another opened in its place
/// (same address, same counters) never passes for it.
final class FilterSnapshots: Sendable {
    /// Collections up to this size are held in memory (about 15 MB at this size); larger
    /// ones are filtered in the database each time.
    static let recordLimit = 250_000

    /// What was read on a connection, and the state of the collection it was read in.
    private final class Held<Value>: @unchecked Sendable {
        // Written once, in `init`; read under the mutex only.
        weak var connection: Database?
        let version: Int
        let changes: Int64
        let value: Value

        init(connection: Database, state: (version: Int, changes: Int64), value: Value) {
            self.connection = connection
            (version, changes) = state
            self.value = value
        }

        /// The value, when `db` is the connection it was read on and nothing has changed since.
        func value(on db: Database, _ state: (version: Int, changes: Int64)) -> Value? {
            connection === db && version == state.version && changes == state.changes ? value : nil
        }
    }

    /// A connection's state, as a held value is checked against it: in the query's
    /// transaction (the caller has read already), the state that transaction reads.
    private static func state(_ db: Database, _ connection: OpaquePointer) throws -> (version: Int, changes: Int64) {
        (try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0, sqlite3_total_changes64(connection))
    }

    private let held = Mutex<Held<FilterSnapshot>?>(nil)

    init() {}

    /// The snapshot for `db` in `arrangement`: the one held when nothing has changed since it was
    /// read on this connection, else, when `read` says so, one read now (and held). Nil for a
    /// collection over `recordLimit` records, or one the snapshot cannot hold
    /// (`FilterSnapshot.load`).
    func snapshot(
        _ db: Database, arrangement: ListArrangement, records: Int, read: () throws -> Bool = { true }
    ) throws -> FilterSnapshot? {
        guard records <= Self.recordLimit, let connection = db.sqliteConnection else { return nil }
        let state = try Self.state(db, connection)
        // The snapshot read in this state, if any: whole, or its texts for another order.
        let kept = held.withLock { $0?.value(on: db, state) }
        if let kept, kept.arrangement == arrangement { return kept }
        guard try read() else { return nil }
        guard let snapshot = try FilterSnapshot.load(db, arrangement: arrangement, records: records, texts: kept?.texts) else { return nil }
        let fresh = Held(connection: db, state: state, value: snapshot)
        held.withLock { $0 = fresh }
        return snapshot
    }

    private let heldFlat = Mutex<Held<FlatList>?>(nil)

    /// The flat list of `order` for `db` (`FlatList`): the one held when nothing has changed
    /// since it was read on this connection (the same test as the snapshot's), else one read
    /// now and held. Whatever the collection's size: it holds 8 bytes a record.
    func flatList(_ db: Database, order: ListOrder) throws -> FlatList {
        guard let connection = db.sqliteConnection else { return try FlatList.load(db, order: order) }
        let state = try Self.state(db, connection)
        if let kept = heldFlat.withLock({ $0?.value(on: db, state) }), kept.order == order { return kept }
        let list = try FlatList.load(db, order: order)
        let fresh = Held(connection: db, state: state, value: list)
        heldFlat.withLock { $0 = fresh }
        return list
    }

    /// Whether a snapshot is held (tests).
    var isHolding: Bool { held.withLock { $0 != nil } }
}
