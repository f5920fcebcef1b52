import CratesCore
import Foundation
import GRDB

/// The reads of `crates list` and `crates export`: every record (or those a filter keeps)
/// with its release, in the list's order, a page at a time, so that 100,000 records never
/// sit in memory at once.
extension CollectionStore {
    /// How much of each record to read.
    public enum ExportDetail: Sendable {
        /// The record and its release, without Discogs' JSON or the history (`crates list`).
        case listing
        /// Everything: the release's JSON as Discogs sent it and the lookup history too.
        case full
    }

    /// The section names the collection has now, in the list's order.
    public func sectionNames() async throws(StoreError) -> [String] {
        try await read { db in try Self.fetchOutline(db).sections.map(\.name) }
    }

    /// Calls `body` with the records `filter` keeps, in the list's order (sections, then
    /// rows, as `sections()` and the TUI order them), `pageSize` records per call.
    ///
    /// Every page comes from one snapshot (one read transaction), so an export taken while
    /// the TUI or an import writes is the collection as it was at one moment: no record
    /// twice, none missing. Pages are found by key (after the last row's sort key, on the
    /// `record_order` index), not by OFFSET, so each costs the same however deep it is.
    /// Writers are not held up meanwhile (WAL); `body` runs on the store's reader thread, not
    /// the cooperative pool, so it may write to a file or a pipe.
    ///
    /// Errors from `body` come back as they were thrown; database errors, and a query term
    /// the collection cannot answer, as `StoreError`.
    public func forEachPage(
        _ filter: ExportFilter = ExportFilter(), detail: ExportDetail, pageSize: Int = 500,
        _ body: @escaping @Sendable ([ExportedRecord]) throws -> Void
    ) async throws {
        do {
            try await writer.read { db in
                try Self.walk(db, filter: filter, detail: detail, pageSize: max(1, pageSize), body)
            }
        } catch let error as DatabaseError {
            throw StoreError.wrap(error)
        } catch let error as RecordQueryError {
            throw StoreError.query(error)
        }
    }

    static func walk(
        _ db: Database, filter: ExportFilter, detail: ExportDetail, pageSize: Int,
        _ body: ([ExportedRecord]) throws -> Void
    ) throws {
        var conditions: [String] = []
        var arguments = StatementArguments()
        if !filter.sections.isEmpty {
            let keys = try String.fetchAll(db, sql: "SELECT sectionKey FROM sectionCount WHERE count > 0")
                .filter { filter.includes(section: SortKey.sectionName(fromKey: $0)) }
            guard !keys.isEmpty else { return }
            conditions.append("sectionKey IN (\(placeholders(keys.count)))")
            arguments += StatementArguments(keys)
        }
        if let location = filter.location {
            let places = try subtree(db, of: location)
            guard !places.isEmpty else { return }
            conditions.append("locationID IN (\(placeholders(places.count)))")
            arguments += StatementArguments(places)
        }
        if let places = filter.directlyIn {
            guard !places.isEmpty else { return }
            conditions.append("locationID IN (SELECT value FROM json_each(?))")
            arguments += StatementArguments([jsonArray(Array(places))])
        }
        if let records = filter.records {
            guard !records.isEmpty else { return }
            conditions.append("id IN (SELECT value FROM json_each(?))")
            arguments += StatementArguments([jsonArray(records)])
        }
        // The places, read once for every page: a collection has tens or hundreds.
        let tree = try fetchTree(db)
        // Copies linked to Discogs instances: read page by page only when there are any (a
        // collection never synced has none, and the query would cost every page).
        let linked = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM discogsCopy)") ?? false
        if !filter.states.isEmpty {
            // `+lookupState`: kept off the record_queue index, so that SQLite walks
            // record_order in the list's order instead of sorting every matching row again
            // for each page (which made `list --state pending` quadratic).
            conditions.append("+lookupState IN (\(placeholders(filter.states.count)))")
            arguments += StatementArguments(filter.states)
        }
        if let fields = FieldConditions(years: filter.years, formats: filter.format.map { [$0] } ?? []).sql("") {
            conditions.append(fields.0)
            arguments += fields.1
        }
        // A query whose words the trigram index finds in few records: those it keeps, found
        // first (`indexedMatches`), then listed by id. Tested in the list's order instead, a
        // query reads every record's row, as no order's index but the titles' holds the text
        // (at 100,000 records, 60,000 page reads for a query that keeps 276).
        // The ids are a condition of the statement that orders them only: each page's
        // statement reads its own ids, not every match again.
        let matches = try indexedMatches(db, filter.query)
        if let matches, matches.isEmpty { return }
        if matches == nil, let query = try filter.query.sql(db, "record") {
            conditions.append(query.0)
            arguments += query.1
        }
        // The order's key (`ListOrder.keyColumn`): text, or a date for the added order.
        let key = filter.order.keyColumn
        let columns = "SELECT \(StoredValues.recordColumns), sectionKey, \(key) FROM record"
        typealias Item = (record: CollectionRecord, sectionKey: String, rowKey: DatabaseValue)
        // Read through a cursor, each row decoded where it lies (no copy of every row first).
        func fetch(_ extra: [String], _ extraArguments: StatementArguments, order: String, limit: Int, into items: inout [Item]) throws {
            let all = conditions + extra
            let whereClause = all.isEmpty ? "" : "WHERE " + all.joined(separator: " AND ")
            // Cached: the same text for every page (compiling it again was a page's cost).
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "\(columns) \(whereClause) ORDER BY \(order) LIMIT ?"),
                arguments: arguments + extraArguments + StatementArguments([limit]))
            let sectionIndex = StoredValues.recordColumnCount
            while let row = try rows.next() {
                items.append((
                    try StoredValues.record(from: row, location: tree.location), try row.decode(String.self, atIndex: sectionIndex),
                    row[sectionIndex + 1] as DatabaseValue))
            }
        }
        /// Hands a page to `body`, with what the detail asks for read for its records.
        func emit(_ items: [Item]) throws {
            let releases = try fetchReleases(db, ids: Set(items.compactMap(\.record.releaseID)), detail: detail)
            let histories = detail == .full ? try fetchHistories(db, recordIDs: items.map(\.record.id)) : [:]
            let links = linked ? try fetchDiscogsLinks(db, recordIDs: items.map(\.record.id)) : [:]
            // What only a restore needs: the pinned releases and when each release was fetched.
            var pinned: [Int64: Int] = [:]
            var fetched: [Int: Date] = [:]
            if detail == .full {
                let ids = items.map(\.record.id)
                for row in try Row.fetchAll(
                    db, sql: "SELECT id, pinnedReleaseID FROM record WHERE id IN (\(placeholders(ids.count))) AND pinnedReleaseID IS NOT NULL",
                    arguments: StatementArguments(ids))
                {
                    pinned[row[0]] = row[1]
                }
                let releaseIDs = Array(releases.keys)
                if !releaseIDs.isEmpty {
                    for row in try Row.fetchAll(
                        db, sql: "SELECT id, fetchedAt FROM release WHERE id IN (\(placeholders(releaseIDs.count)))",
                        arguments: StatementArguments(releaseIDs))
                    {
                        fetched[row[0]] = StoredValues.date(row[1])
                    }
                }
            }
            try body(items.map { item in
                ExportedRecord(
                    record: item.record, release: item.record.releaseID.flatMap { releases[$0] },
                    section: SortKey.sectionName(fromKey: item.sectionKey),
                    history: detail == .full ? histories[item.record.id] ?? [] : nil,
                    discogs: links[item.record.id], pinnedReleaseID: pinned[item.record.id],
                    releaseFetchedAt: item.record.releaseID.flatMap { fetched[$0] },
                    placePath: item.record.location.map { tree.pathIDs($0.id) } ?? [])
            })
        }
        // Descending, without sections, or the few records a query keeps: the ids in that
        // order in one query (sorted once), then their records a page at a time in that
        // order. The list's own order walks record_order by key instead, as below.
        if filter.descending || filter.flat || matches != nil {
            let direction = filter.descending ? "DESC" : "ASC"
            // The sections stay in their order; the records within them turn round. Flat, the
            // records not matched yet (no title to file by) come last, as their section does.
            let order = (filter.flat ? "sectionKey = ?, " : "sectionKey, ") + "\(key) \(direction), id \(direction)"
            var kept = conditions
            var keptArguments = arguments
            if let matches {
                kept.append("id IN (SELECT value FROM json_each(?))")
                keptArguments += [jsonArray(matches)]
            }
            let whereClause = kept.isEmpty ? "" : "WHERE " + kept.joined(separator: " AND ")
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM record \(whereClause) ORDER BY \(order)",
                arguments: keptArguments + (filter.flat ? [SortKey.unknownSection] : []))
            for start in stride(from: 0, to: ids.count, by: pageSize) {
                let page = Array(ids[start..<min(start + pageSize, ids.count)])
                var items: [Item] = []
                try fetch(["id IN (SELECT value FROM json_each(?))"], [jsonArray(page)], order: "id", limit: page.count, into: &items)
                let position = Dictionary(uniqueKeysWithValues: page.enumerated().map { ($1, $0) })
                try emit(items.sorted { (position[$0.record.id] ?? 0) < (position[$1.record.id] ?? 0) })
            }
            return
        }
        let listOrder = filter.order.orderTerms("")
        var after: (section: String, row: DatabaseValue, id: Int64)?
        while true {
            var items: [Item] = []
            items.reserveCapacity(pageSize)
            if let after {
                // The page after a key, in two index seeks. SQLite uses only the first two
                // terms of a row value `(sectionKey, rowKey, id) > (?, ?, ?)` on record_order,
                // and many records share a key (every unmatched record is (Unknown, "")): it
                // would scan the whole group again for each page. So: first the rest of the
                // group (equal keys, rowid after the last), then what follows the group.
                try fetch(
                    ["sectionKey = ?", "\(key) = ?", "id > ?"],
                    StatementArguments([after.section.databaseValue, after.row]) + StatementArguments([after.id]),
                    order: "id", limit: pageSize, into: &items)
                if items.count < pageSize {
                    try fetch(
                        ["(sectionKey, \(key)) > (?, ?)"], StatementArguments([after.section.databaseValue, after.row]),
                        order: listOrder, limit: pageSize - items.count, into: &items)
                }
            } else {
                try fetch([], StatementArguments(), order: listOrder, limit: pageSize, into: &items)
            }
            guard let last = items.last else { return }
            try emit(items)
            after = (last.sectionKey, last.rowKey, last.record.id)
            if items.count < pageSize { return }
        }
    }

    /// One record as `crates list` shows it (without Discogs' JSON or the history); nil when
    /// there is none.
    public func exported(_ id: Int64) async throws(StoreError) -> ExportedRecord? {
        try await read { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT \(StoredValues.recordColumns), sectionKey FROM record WHERE id = ?", arguments: [id])
            else { return nil }
            let record = try StoredValues.record(from: row) { try StoredValues.fetchLocation(db, id: $0) }
            let release = try Self.fetchReleases(db, ids: Set(record.releaseID.map { [$0] } ?? []), detail: .listing)
            return ExportedRecord(
                record: record, release: record.releaseID.flatMap { release[$0] },
                section: SortKey.sectionName(fromKey: try row.decode(String.self, atIndex: StoredValues.recordColumnCount)))
        }
    }

    /// The releases with these ids, by id; Discogs' JSON only for `.full` ("{}" otherwise).
    static func fetchReleases(_ db: Database, ids: Set<Int>, detail: ExportDetail) throws -> [Int: Release] {
        guard !ids.isEmpty else { return [:] }
        let json = detail == .full ? "j.rawJSON" : "NULL"
        // The ids as one JSON array: one statement text for every page, compiled once.
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: """
                SELECT r.id, r.artist, r.title, r.genresJSON, r.stylesJSON, r.formatsJSON, r.year,
                       r.country, r.labelsJSON, r.url, r.thumbURL, \(json), r.hasFullDetails
                FROM release r LEFT JOIN releaseJSON j ON j.id = r.id
                WHERE r.id IN (SELECT value FROM json_each(?))
                """),
            arguments: [jsonArray(Array(ids))])
        var releases: [Int: Release] = [:]
        for row in rows {
            let release = try StoredValues.release(from: row)
            releases[release.id] = release
        }
        return releases
    }

    /// The lookup histories of these records, oldest event first, by record id.
    static func fetchHistories(_ db: Database, recordIDs: [Int64]) throws -> [Int64: [LookupEvent]] {
        guard !recordIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, recordID, at, kind, message FROM lookupEvent
                WHERE recordID IN (\(placeholders(recordIDs.count))) ORDER BY recordID, id
                """,
            arguments: StatementArguments(recordIDs))
        var histories: [Int64: [LookupEvent]] = [:]
        for row in rows {
            let recordID = try row.decode(Int64.self, atIndex: 1)
            let kindText = try row.decode(String.self, atIndex: 3)
            guard let kind = LookupEvent.Kind(rawValue: kindText) else {
                throw StoreError.unreadableValue(recordID: recordID, column: "lookupEvent.kind", value: kindText)
            }
            histories[recordID, default: []].append(LookupEvent(
                id: try row.decode(Int64.self, atIndex: 0), recordID: recordID,
                at: StoredValues.date(try row.decode(Double.self, atIndex: 2)), kind: kind,
                message: try row.decode(String.self, atIndex: 4)))
        }
        return histories
    }

    /// `?, ?, ?` for an `IN (…)` list of `count` values.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// A JSON array of numbers, for `json_each` (one bound value however many ids).
    static func jsonArray<T: BinaryInteger>(_ values: [T]) -> String {
        "[" + values.map { String($0) }.joined(separator: ",") + "]"
    }
}
