import CratesCore
import Foundation
import GRDB

/// The list's queries: a window of the collection narrowed by a filter (and a place), with
/// one record located in it. Without a filter these walk the `record_order` index and read the outline
/// from `sectionCount`; with one, SQLite scans the records once per part (an `instr` per
/// word on the folded search text), which costs tens of milliseconds at 100,000 records and
/// runs off the UI thread.
extension CatalogueStore {
    /// The outline and rows `query` asks for, and where its focus record is, from one snapshot.
    public func window(_ query: CollectionQuery) async throws(StoreError) -> CollectionWindow {
        try await read { db in try Self.fetchWindow(db, query) }
    }

    static func fetchWindow(_ db: Database, _ query: CollectionQuery) throws -> CollectionWindow {
        let words = filterWords(query.filter)
        let whole = try fetchOutline(db)
        // A place: its records and those of the places inside it (a place removed meanwhile
        // has none).
        let places = try query.location.map { try subtree(db, of: $0) }
        guard !words.isEmpty || places != nil else {
            let rows = try fetchRows(db, query.window)
            return CollectionWindow(
                outline: whole, window: query.window, rows: rows, filter: query.filter, totalRecords: whole.rowCount,
                focus: query.focus, focusRow: try query.focus.flatMap { try focusRow(db, $0, words: [], places: nil) })
        }
        let (condition, arguments) = matchCondition(words, places: places)
        var summaries: [SectionSummary] = []
        var first = 0
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT r.sectionKey, COUNT(*) FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
            WHERE \(condition) GROUP BY r.sectionKey ORDER BY r.sectionKey
            """, arguments: arguments)
        while let raw = try cursor.next() {
            let count = try raw.decode(Int.self, atIndex: 1)
            summaries.append(SectionSummary(
                name: SortKey.sectionName(fromKey: try raw.decode(String.self, atIndex: 0)), count: count, firstRow: first))
            first += count
        }
        var rows: [CollectionRow] = []
        if query.window.limit > 0, first > 0 {
            rows = try Row.fetchAll(db, sql: """
                SELECT r.id, coalesce(r.gtin, ''), r.lookupState, r.candidateCount, r.addedAt,
                       \(shownColumns), r.sectionKey
                FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
                WHERE \(condition)
                ORDER BY r.sectionKey, r.rowKey, r.id LIMIT ? OFFSET ?
                """, arguments: arguments + StatementArguments([query.window.limit, query.window.offset])).map(row(from:))
        }
        return CollectionWindow(
            outline: CollectionOutline(sections: summaries), window: query.window, rows: rows, filter: query.filter,
            totalRecords: whole.rowCount, focus: query.focus,
            focusRow: try query.focus.flatMap { try focusRow(db, $0, words: words, places: places) },
            location: query.location)
    }

    /// The filter's words, folded as the search text is.
    static func filterWords(_ filter: String) -> [String] {
        SortKey.fold(filter).split(separator: " ").map(String.init).filter { !$0.isEmpty }
    }

    /// Every word in the GTIN, the release's search text or the collector's own values';
    /// and, with `places`, the record in one of them.
    static func matchCondition(_ words: [String], places: [Int64]? = nil) -> (String, StatementArguments) {
        var conditions = words.map { _ in
            """
            (instr(coalesce(r.gtin, ''), ?) > 0 OR instr(coalesce(rel.searchText, ''), ?) > 0 \
            OR instr(coalesce(r.ownSearchText, ''), ?) > 0)
            """
        }
        let values: [String] = words.flatMap { [$0, $0, $0] }
        var arguments = StatementArguments(values)
        if let places {
            conditions.append(places.isEmpty ? "0" : "r.locationID IN (\(Array(repeating: "?", count: places.count).joined(separator: ", ")))")
            arguments += StatementArguments(places)
        }
        return (conditions.joined(separator: " AND "), arguments)
    }

    /// The row of `id` in the list's order (filtered by `words`): how many rows sort before
    /// it. An index range count, a few milliseconds at 100,000 records. Nil when the record is
    /// gone or filtered out.
    static func focusRow(_ db: Database, _ id: Int64, words: [String], places: [Int64]?) throws -> Int? {
        guard let key = try Row.fetchOne(db, sql: "SELECT sectionKey, rowKey FROM record WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let sectionKey: String = key[0]
        let rowKey: String = key[1]
        let before = "(r.sectionKey < ? OR (r.sectionKey = ? AND (r.rowKey < ? OR (r.rowKey = ? AND r.id < ?))))"
        let beforeArguments = StatementArguments([sectionKey, sectionKey, rowKey, rowKey]) + StatementArguments([id])
        if words.isEmpty, places == nil {
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record r WHERE \(before)", arguments: beforeArguments)
        }
        let (condition, arguments) = matchCondition(words, places: places)
        let matches = try Bool.fetchOne(db, sql: """
            SELECT 1 FROM record r LEFT JOIN release rel ON rel.id = r.releaseID WHERE r.id = ? AND \(condition)
            """, arguments: StatementArguments([id]) + arguments) ?? false
        guard matches else { return nil }
        return try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
            WHERE \(before) AND \(condition)
            """, arguments: beforeArguments + arguments)
    }
}
