import CratesCore
import Foundation
import GRDB

/// The list's queries: a window of the collection narrowed by a filter (and a place), with
/// one record located in it. Without a filter these walk the `record_order` index and read
/// the outline from `sectionCount`. With one, a record is kept when each word of the filter is
/// in its `filterText` (barcode, release's search text, collector's values, folded: see
/// `Schema.addCollectionSearchIndex`), found one of two ways (`FilterPlan`):
///
/// - through `filterIndex` (trigram FTS5) when a word has 3 characters or more and the index
///   finds few enough records: those are read by id and sorted, in one pass that gives the
///   outline, the window's rows and the focus's row;
/// - else by walking `record_filter`, which reads every record's key and text but nothing
///   else (no join, no sort): the words of 1 or 2 characters, which a trigram index cannot
///   look up, and the words most records hold, for which reading the records by id would
///   cost more than the walk (`matchesByScan`).
///
/// Either way `crates_contains` decides (`FilterContains`: `instr`'s answer, faster), as
/// `instr` did when the filter scanned the joined tables: the index only narrows, so both
/// plans give the same rows.
extension CollectionStore {
    /// The outline and rows `query` asks for, and where its focus record is, from one snapshot.
    public func window(_ query: CollectionQuery) async throws(StoreError) -> CollectionWindow {
        try await read { [filterSnapshots] db in try Self.fetchWindow(db, query, snapshots: filterSnapshots) }
    }

    /// How the filter finds its records (see the type's comment); chosen by `filterPlan`.
    enum FilterPlan: Equatable, Sendable {
        /// Through `filterIndex`, with its match expression.
        case index(String)
        /// A walk of `record_filter`.
        case scan
        /// The records' texts held in memory (`FilterSnapshot`), read from two covering
        /// indexes when none is held for the database as it is.
        case memory
    }

    /// The index is used when it finds at most one record in `indexShare` of the collection:
    /// reading a record by id and sorting it costs about ten times a step of the walk
    /// (crates-tui-bench at 100,000 records: "blue", 5,180 records through the index, 14 ms
    /// of CPU; a walk, 25 ms). Measured again with `crates_contains`: one in 20 sent "blue"
    /// and "bjork" (5 to 7% of the records) to the walk, and the words of 3 characters or
    /// more took 15 ms of CPU (median) at 100,000 records instead of 12.
    static let indexShare = 10

    /// `plan`: forced (the tests compare them all); nil: chosen by `filterPlan`, or the
    /// snapshot held in `snapshots` when the filter has only words (no place, year, format or
    /// bar of the statistics) and the collection is small enough to hold.
    static func fetchWindow(
        _ db: Database, _ query: CollectionQuery, plan forced: FilterPlan? = nil, snapshots: FilterSnapshots? = nil
    ) throws -> CollectionWindow {
        var window = try fetchArrangedWindow(db, query, plan: forced, snapshots: snapshots)
        window.descending = query.descending
        window.flat = query.flat
        if query.flat { window.outline = window.outline.flattened }
        return window
    }

    /// `fetchWindow`, its outline still in sections when the list is flat.
    private static func fetchArrangedWindow(
        _ db: Database, _ query: CollectionQuery, plan forced: FilterPlan?, snapshots: FilterSnapshots?
    ) throws -> CollectionWindow {
        let arrangement = ListArrangement(query)
        // The filter is a query (`RecordQuery`): its words are found in the text as ever,
        // through the plans below; its other terms are conditions of their own.
        let whole = try fetchOutline(db)
        let fields: (String, StatementArguments)?
        // The same, reading the release from a join (the index's plan: see `matchesThroughIndex`).
        let joinedFields: (String, StatementArguments)?
        let words: [String]
        do {
            let parsed = try RecordQuery(parsing: query.filter)
            words = parsed.indexWords
            fields = try parsed.sql(db, withWords: false)
            joinedFields = try parsed.sql(db, release: "rel", withWords: false)
        } catch let error as RecordQueryError {
            var refused = CollectionWindow(
                outline: CollectionOutline(sections: []), window: query.window, rows: [], filter: query.filter,
                totalRecords: whole.rowCount, focus: query.focus, location: query.location, order: query.order, facet: query.facet)
            refused.filterError = error.description
            return refused
        }
        // A place: its records and those of the places inside it (a place removed meanwhile
        // has none).
        let places = try query.location.map { try subtree(db, of: $0) }
        let facet = try query.facet.map { try facetCondition(db, $0) }
        guard !words.isEmpty || places != nil || fields != nil || facet != nil else {
            let rows: [CollectionRow]
            let focusRow: Int?
            if arrangement.flat {
                // No index holds the flat order: a slice of the list held in memory.
                let list = try (snapshots ?? FilterSnapshots()).flatList(db, order: query.order)
                rows = try fetchRows(db, ids: list.ids(query.window, descending: query.descending), arrangement: arrangement)
                focusRow = query.focus.flatMap { list.row(of: $0, descending: query.descending) }
            } else {
                rows = try fetchRows(db, query.window, arrangement: arrangement)
                focusRow = try query.focus.flatMap { try unfilteredFocusRow(db, $0, arrangement: arrangement) }
            }
            return CollectionWindow(
                outline: whole, window: query.window, rows: rows, filter: query.filter, totalRecords: whole.rowCount,
                focus: query.focus, focusRow: focusRow, order: query.order)
        }
        func matching(_ fields: (String, StatementArguments)?) -> (String, StatementArguments) {
            var (condition, arguments) = matchCondition(words, places: places)
            if let fields {
                condition += " AND \(fields.0)"
                arguments += fields.1
            }
            if let facet {
                condition += " AND " + facet.0
                arguments += facet.1
            }
            return (condition, arguments)
        }
        let (condition, arguments) = matching(fields)
        let found: (outline: CollectionOutline, ids: [Int64], focusRow: Int?)
        // Words only: the snapshot when one is held, or read one (a forced `.memory` always
        // does) unless the index finds few records: reading every text costs 50–85 ms at
        // 100,000 records, the index's plan a few.
        var chosen = forced
        if places == nil, fields == nil, facet == nil, forced == nil || forced == .memory,
           let snapshots = snapshots ?? (forced == .memory ? FilterSnapshots() : nil),
           let snapshot = try snapshots.snapshot(db, arrangement: arrangement, records: whole.rowCount, read: {
               guard forced == nil else { return true }
               chosen = try filterPlan(db, words, records: whole.rowCount)
               return chosen == .scan
           })
        {
            found = snapshot.matches(words, query)
        } else {
            switch try chosen ?? filterPlan(db, words, records: whole.rowCount) {
            case .index(let expression):
                let (joined, joinedArguments) = matching(joinedFields)
                found = try matchesThroughIndex(db, expression, joined, joinedArguments, query)
            case .scan, .memory:
                found = try matchesByScan(db, condition, arguments, query)
            }
        }
        return CollectionWindow(
            outline: found.outline, window: query.window, rows: try fetchRows(db, ids: found.ids, arrangement: arrangement),
            filter: query.filter, totalRecords: whole.rowCount, focus: query.focus, focusRow: found.focusRow,
            location: query.location, order: query.order, facet: query.facet)
    }

    /// The copies that count in one bar of the statistics, as a condition on `record r`: the
    /// same values, and the same rule, as `countQuery` counts them by (the collector's value
    /// where set, else Discogs'; a copy in each of its styles and labels; a place directly).
    static func facetCondition(_ db: Database, _ facet: StatisticsFacet) throws -> (String, StatementArguments) {
        let release = { (column: String) in "(SELECT rel.\(column) FROM release rel WHERE rel.id = r.releaseID)" }
        let year = "coalesce(r.ownYear, \(release("year")))"
        let key = facet.key
        switch facet.dimension {
        case .genre:
            let keys = try String.fetchAll(db, sql: "SELECT sectionKey FROM sectionCount")
                .filter { SortKey.sectionName(fromKey: $0) == key }
            return ("r.sectionKey IN (SELECT value FROM json_each(?))",
                    ["[" + keys.map(JSONStringLiteral.quoted).joined(separator: ",") + "]"])
        case .decade:
            let decade = Int(key.dropLast()).map { $0 / 10 } ?? -1
            return ("\(year) > 0 AND \(year) / 10 = ?", [decade])
        case .year:
            return ("\(year) > 0 AND \(year) = ?", [Int(key) ?? -1])
        case .format:
            // The texts of the bar's medium (and description), as the chart grouped them.
            let texts = try String.fetchAll(db, sql: """
                SELECT DISTINCT coalesce(r.ownFormat, rel.formatSummary) AS format
                FROM record r LEFT JOIN release rel ON rel.id = r.releaseID WHERE format IS NOT NULL
                """).filter { FormatMedium.counts($0, in: key, detail: facet.detail) }
            return ("coalesce(r.ownFormat, \(release("formatSummary"))) IN (SELECT value FROM json_each(?))",
                    ["[" + texts.map(JSONStringLiteral.quoted).joined(separator: ",") + "]"])
        case .country:
            return ("coalesce(r.ownCountry, \(release("country"))) = ?", [key])
        case .style:
            return ("""
                EXISTS (SELECT 1 FROM release rel, json_each(rel.stylesJSON) s WHERE rel.id = r.releaseID AND s.value = ?)
                """, [key])
        case .label:
            return ("""
                (r.ownLabel = ? OR (r.ownLabel IS NULL AND EXISTS (SELECT 1 FROM release rel, json_each(rel.labelsJSON) l
                    WHERE rel.id = r.releaseID AND json_extract(l.value, '$.name') = ?)))
                """, [key, key])
        case .location:
            if key == StatisticsFacet.noPlace { return ("r.locationID IS NULL", []) }
            let tree = try fetchTree(db)
            let id = tree.nodes.first { tree.location($0.id)?.pathText == key }?.id
            return ("r.locationID = ?", [id ?? -1])
        case .added:
            return ("strftime('%Y-%m', r.addedAt, 'unixepoch') = ?", [key])
        case .grade:
            return ("r.mediaCondition = ?", [key])
        }
    }

    /// The filter's words, folded as the search text is.
    static func filterWords(_ filter: String) -> [String] {
        SortKey.fold(filter).split(separator: " ").map(String.init).filter { !$0.isEmpty }
    }

    /// Every word in the record's filter text (barcode, the release's search text, the
    /// collector's own values); and, with `places`, the record in one of them.
    static func matchCondition(_ words: [String], places: [Int64]? = nil) -> (String, StatementArguments) {
        var conditions = words.map { _ in "\(FilterContains.name)(r.filterText, ?)" }
        var arguments = StatementArguments(words)
        if let places {
            conditions.append(places.isEmpty ? "0" : "r.locationID IN (\(Array(repeating: "?", count: places.count).joined(separator: ", ")))")
            arguments += StatementArguments(places)
        }
        if conditions.isEmpty { conditions.append("1") }
        return (conditions.joined(separator: " AND "), arguments)
    }

    /// The index's match expression for the words it can look up: those of 3 characters
    /// (Unicode scalars, as the trigram tokenizer counts them) or more, each a quoted phrase
    /// (so that no character of it is query syntax), all required. Nil when there is none.
    static func indexExpression(_ words: [String]) -> String? {
        let phrases = words.filter { $0.unicodeScalars.count >= 3 }
            .map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"" }
        return phrases.isEmpty ? nil : phrases.joined(separator: " ")
    }

    /// The index when it can look a word up and finds at most one record in `indexShare`
    /// (counting stops there, so a word most records hold costs little to rule out).
    static func filterPlan(_ db: Database, _ words: [String], records: Int) throws -> FilterPlan {
        guard let expression = indexExpression(words) else { return .scan }
        let limit = records / indexShare
        let found = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM (SELECT rowid FROM filterIndex WHERE filterIndex MATCH ? LIMIT ?)
            """, arguments: [expression, limit + 1]) ?? 0
        return found <= limit ? .index(expression) : .scan
    }

    /// The matches the index finds, read by id (CROSS JOIN: the index first) and sorted in
    /// the list's order: one pass counts the sections, keeps the window's ids and finds the
    /// focus's row. `condition` may read the record's release as `rel` (a LEFT JOIN, which
    /// SQLite leaves out when the condition does not).
    static func matchesThroughIndex(
        _ db: Database, _ expression: String, _ condition: String, _ arguments: StatementArguments, _ query: CollectionQuery
    ) throws -> (outline: CollectionOutline, ids: [Int64], focusRow: Int?) {
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT r.sectionKey, r.id FROM filterIndex f CROSS JOIN record r ON r.id = f.rowid
            LEFT JOIN release rel ON rel.id = r.releaseID
            WHERE f.filterIndex MATCH ? AND \(condition)
            ORDER BY \(ListArrangement(query).orderTerms())
            """, arguments: StatementArguments([expression]) + arguments)
        var tally = MatchTally(query)
        while let match = try cursor.next() {
            tally.add(sectionKey: try match.decode(String.self, atIndex: 0), id: try match.decode(Int64.self, atIndex: 1))
        }
        return tally.result
    }

    /// The most matches the scan's first walk keeps (`matchesByScan`): the window the UI asks
    /// for while a person types is a screenful and its margins from the top, far fewer.
    static let scanProbeLimit = 2_000

    /// The matches found by walking the records, in one walk of every record whatever the
    /// filter keeps (`FilterMatchWalk`, by the covering index: each section's count, and the
    /// matches' ids while they are few):
    ///
    /// - when the filter keeps at most `scanProbeLimit` records (a word few records hold),
    ///   those are read by id and sorted in the list's order: the window and the focus;
    /// - otherwise (a word many records hold) a walk in the list's order keeps the matches up
    ///   to the window's end (when that is at most `scanProbeLimit` rows down), which it meets
    ///   soon, the matches being many; the window and the focus come from its rows, or, when
    ///   they lie further down, from a walk of the rows before them (the focus: of its section
    ///   only, the sections before it being counted).
    static func matchesByScan(
        _ db: Database, _ condition: String, _ arguments: StatementArguments, _ query: CollectionQuery
    ) throws -> (outline: CollectionOutline, ids: [Int64], focusRow: Int?) {
        let walk = try FilterMatchWalk.run(db, condition, arguments, keeping: scanProbeLimit)
        if let all = walk.ids {
            guard !all.isEmpty else { return (CollectionOutline(sections: []), [], nil) }
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT r.sectionKey, r.id FROM record r WHERE r.id IN (SELECT value FROM json_each(?))
                ORDER BY \(ListArrangement(query).orderTerms())
                """, arguments: ["[" + all.map(String.init).joined(separator: ",") + "]"])
            var tally = MatchTally(query)
            while let match = try cursor.next() {
                tally.add(sectionKey: try match.decode(String.self, atIndex: 0), id: try match.decode(Int64.self, atIndex: 1))
            }
            return tally.result
        }
        let (end, overflow) = query.window.offset.addingReportingOverflow(query.window.limit)
        var windowIDs: [Int64]?
        var focusRow: Int?
        var focusFound = false
        if !overflow, end <= scanProbeLimit {
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT r.sectionKey, r.id FROM record r WHERE \(condition) ORDER BY \(ListArrangement(query).orderTerms()) LIMIT ?
                """, arguments: arguments + StatementArguments([end + 1]))
            var tally = MatchTally(query)
            while let match = try cursor.next() {
                tally.add(sectionKey: try match.decode(String.self, atIndex: 0), id: try match.decode(Int64.self, atIndex: 1))
            }
            if tally.rowCount <= end { return tally.result }
            // More matches than the walk kept: its window is whole, its outline is not.
            windowIDs = tally.result.ids
            if let row = tally.result.focusRow { (focusRow, focusFound) = (row, true) }
        }
        let summaries = walk.summaries
        let first = walk.total
        if !focusFound, let focus = query.focus,
           let key = try Row.fetchOne(
               db, sql: "SELECT r.sectionKey, r.\(query.order.keyColumn), r.id FROM record r WHERE r.id = ? AND \(condition)",
               arguments: StatementArguments([focus]) + arguments)
        {
            // The matches before it in its own group, after those of the groups before: in
            // sections, the sections before it; flat, the records matched when it is in the
            // Unknown section (the last group), none else.
            let arrangement = ListArrangement(query)
            let sectionKey: String = key[0]
            let start = arrangement.flat && sectionKey != SortKey.unknownSection ? 0 : walk.firstRows[sectionKey] ?? 0
            let before = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM record r
                WHERE \(arrangement.group()) = ? AND \(arrangement.beforeCondition()) AND \(condition)
                """, arguments: StatementArguments(
                    [arrangement.groupValue(sectionKey: sectionKey), key[1], key[1], key[2]] as [DatabaseValue]) + arguments) ?? 0
            focusRow = start + before
        }
        if windowIDs == nil {
            windowIDs = []
            if query.window.limit > 0, first > 0 {
                windowIDs = try Int64.fetchAll(db, sql: """
                    SELECT r.id FROM record r WHERE \(condition) ORDER BY \(ListArrangement(query).orderTerms()) LIMIT ? OFFSET ?
                    """, arguments: arguments + StatementArguments([query.window.limit, query.window.offset]))
            }
        }
        return (CollectionOutline(sections: summaries), windowIDs ?? [], focusRow)
    }

    /// The outline, the window's ids and the focus's row of matches met one by one in the
    /// list's order.
    struct MatchTally {
        private var summaries: [SectionSummary] = []
        private var sectionKey: String?
        private var ids: [Int64] = []
        private var focusRow: Int?
        private let focus: Int64?
        private let window: Range<Int>
        /// The matches met so far.
        private(set) var rowCount = 0

        init(_ query: CollectionQuery) {
            focus = query.focus
            let (end, overflow) = query.window.offset.addingReportingOverflow(query.window.limit)
            window = query.window.offset..<(overflow ? Int.max : end)
        }

        mutating func add(sectionKey key: String, id: Int64) {
            if key != sectionKey {
                summaries.append(SectionSummary(name: SortKey.sectionName(fromKey: key), count: 0, firstRow: rowCount))
                sectionKey = key
            }
            summaries[summaries.count - 1].count += 1
            if window.contains(rowCount) { ids.append(id) }
            if id == focus { focusRow = rowCount }
            rowCount += 1
        }

        var result: (outline: CollectionOutline, ids: [Int64], focusRow: Int?) {
            (CollectionOutline(sections: summaries), ids, focusRow)
        }
    }

    /// The rows of `ids`, in the list's order.
    static func fetchRows(_ db: Database, ids: [Int64], order: ListOrder = .default) throws -> [CollectionRow] {
        try fetchRows(db, ids: ids, arrangement: ListArrangement(order: order))
    }

    /// The rows of `ids` (in `arrangement`'s order already, each part of 500 sorted alone).
    static func fetchRows(_ db: Database, ids: [Int64], arrangement: ListArrangement) throws -> [CollectionRow] {
        var rows: [CollectionRow] = []
        // At most 500 ids a statement, far below SQLite's limit on parameters.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let part = Array(ids[start..<min(start + 500, ids.count)])
            rows += try Row.fetchAll(db, sql: """
                SELECT r.id, coalesce(r.gtin, ''), r.lookupState, r.candidateCount, r.addedAt,
                       \(shownColumns), r.sectionKey, r.catalogueEdition
                FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
                WHERE r.id IN (\(Array(repeating: "?", count: part.count).joined(separator: ", ")))
                ORDER BY \(arrangement.orderTerms())
                """, arguments: StatementArguments(part)).map(row(from:))
        }
        return rows
    }

    /// The row of `id` in the whole list in `arrangement`, in sections (flat: `FlatList`): the
    /// records of the sections before its own (their counts) and those before it in its
    /// section (an index range count, either way round). Nil when the record is gone.
    static func unfilteredFocusRow(_ db: Database, _ id: Int64, arrangement: ListArrangement) throws -> Int? {
        if arrangement.isSectionsAscending { return try unfilteredFocusRow(db, id, order: arrangement.order) }
        let column = arrangement.order.keyColumn
        guard let key = try Row.fetchOne(db, sql: "SELECT sectionKey, \(column) FROM record WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let value = arrangement.groupValue(sectionKey: try key.decode(String.self, atIndex: 0))
        var before = 0
        for group in try arrangement.groups(db) {
            guard group.value != value else {
                let rowKey: DatabaseValue = key[1]
                return try before + (Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM record r WHERE \(group.condition) AND \(arrangement.beforeCondition())
                    """, arguments: [value, rowKey, rowKey, id.databaseValue]) ?? 0)
            }
            before += group.count
        }
        return nil
    }

    /// The row of `id` in the whole list's order: how many rows sort before it. An index
    /// range count, a few milliseconds at 100,000 records. Nil when the record is gone.
    static func unfilteredFocusRow(_ db: Database, _ id: Int64, order: ListOrder = .default) throws -> Int? {
        let column = order.keyColumn
        guard let key = try Row.fetchOne(db, sql: "SELECT sectionKey, \(column) FROM record WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let sectionKey: DatabaseValue = key[0]
        let rowKey: DatabaseValue = key[1]
        return try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM record r
            WHERE r.sectionKey < ? OR (r.sectionKey = ? AND (r.\(column) < ? OR (r.\(column) = ? AND r.id < ?)))
            """, arguments: StatementArguments([sectionKey, sectionKey, rowKey, rowKey]) + StatementArguments([id]))
    }
}
