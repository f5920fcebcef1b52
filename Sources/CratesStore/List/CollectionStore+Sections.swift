import CratesCore
import Foundation
import GRDB

/// The genre-sectioned list. Order: see `CollectionSection`; the keys: see `SortKey`.
///
/// Two ways to read it: `sections()` returns every row (the CLI's `list`, small
/// collections); `window(_:)` returns the outline (section names and counts) and only the
/// rows of one screenful, which is what a scrolling list needs and stays fast at 100,000
/// records. Both walk the `record_order` index: no sort at query time.
extension CollectionStore {
    /// Every record, in sections, in `order` within each.
    public func sections(order: ListOrder = .default) async throws(StoreError) -> [CollectionSection] {
        try await read { db in try Self.fetchSections(db, order: order) }
    }

    /// Section names, counts and where each starts.
    public func outline() async throws(StoreError) -> CollectionOutline {
        try await read { db in try Self.fetchOutline(db) }
    }

    /// The outline and the rows of `window`, from one snapshot.
    public func window(_ window: RowWindow, order: ListOrder = .default) async throws(StoreError) -> CollectionWindow {
        try await read { db in try Self.fetchWindow(db, window, order: order) }
    }

    // MARK: Queries (shared with the observers)

    /// Artist, title, format, year, country and the first catalogue number as the list
    /// shows them: the collector's own where set, else the release's.
    static let shownColumns = """
        coalesce(r.ownArtist, rel.artist), coalesce(r.ownTitle, rel.title), \
        coalesce(r.ownFormat, rel.formatSummary), coalesce(r.ownYear, rel.year), \
        coalesce(r.ownCountry, rel.country), coalesce(r.ownCatno, json_extract(rel.labelsJSON, '$[0].catno'))
        """

    /// Where the section key is in the rows `row(from:)` reads: after `shownColumns`.
    static let sectionKeyIndex = 11
    static let catalogueEditionIndex = 12

    /// The columns `row(from:)` reads: those before the section key, then the key, then the
    /// record's catalogue edition (`catalogueEditionIndex`).
    static func rowQuery(_ order: ListOrder) -> String {
        """
        SELECT r.id, coalesce(r.gtin, ''), r.lookupState, r.candidateCount, r.addedAt,
               \(shownColumns), r.sectionKey, r.catalogueEdition
        FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
        ORDER BY \(order.orderTerms())
        """
    }

    static func row(from row: Row) throws -> CollectionRow {
        let id = try row.decode(Int64.self, atIndex: 0)
        return CollectionRow(
            recordID: id,
            gtin: try row.decode(String.self, atIndex: 1),
            artist: try row.decode(String?.self, atIndex: 5),
            title: try row.decode(String?.self, atIndex: 6),
            formats: try row.decode(String?.self, atIndex: 7),
            year: try row.decode(Int?.self, atIndex: 8),
            country: try row.decode(String?.self, atIndex: 9),
            catno: try row.decode(String?.self, atIndex: 10),
            lookupState: try StoredValues.lookupState(try row.decode(String.self, atIndex: 2), recordID: id),
            candidateCount: try row.decode(Int.self, atIndex: 3),
            addedAt: StoredValues.date(try row.decode(Double.self, atIndex: 4)),
            catalogueEdition: try row.decode(String?.self, atIndex: catalogueEditionIndex).map(CatalogueEdition.init(dumpDate:)))
    }

    static func fetchSections(_ db: Database, order: ListOrder = .default) throws -> [CollectionSection] {
        var sections: [CollectionSection] = []
        var currentKey: String?
        let cursor = try Row.fetchCursor(db, sql: rowQuery(order))
        while let raw = try cursor.next() {
            let key = try raw.decode(String.self, atIndex: sectionKeyIndex)
            if key != currentKey {
                sections.append(CollectionSection(name: SortKey.sectionName(fromKey: key), rows: []))
                currentKey = key
            }
            sections[sections.count - 1].rows.append(try row(from: raw))
        }
        return sections
    }

    static func fetchOutline(_ db: Database) throws -> CollectionOutline {
        // Counts kept by triggers (see Schema): a handful of rows, whatever the collection.
        var summaries: [SectionSummary] = []
        var first = 0
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT sectionKey, count FROM sectionCount WHERE count > 0 ORDER BY sectionKey")
        while let raw = try cursor.next() {
            let count = try raw.decode(Int.self, atIndex: 1)
            summaries.append(SectionSummary(
                name: SortKey.sectionName(fromKey: try raw.decode(String.self, atIndex: 0)), count: count,
                firstRow: first))
            first += count
        }
        return CollectionOutline(sections: summaries)
    }

    /// One window: the ids are found on the covering index of the order (`record_order`,
    /// `record_by_artist`, …) first, so the rows skipped by OFFSET cost an index step each,
    /// not a table read and a join.
    static func windowQuery(_ order: ListOrder) -> String {
        """
        SELECT r.id, coalesce(r.gtin, ''), r.lookupState, r.candidateCount, r.addedAt,
               \(shownColumns), r.sectionKey, r.catalogueEdition
        FROM (SELECT id FROM record ORDER BY \(order.orderTerms("")) LIMIT ? OFFSET ?) AS w
        JOIN record r ON r.id = w.id
        LEFT JOIN release rel ON rel.id = r.releaseID
        ORDER BY \(order.orderTerms())
        """
    }

    static func fetchRows(_ db: Database, _ window: RowWindow, order: ListOrder = .default) throws -> [CollectionRow] {
        guard window.limit > 0 else { return [] }
        return try Row.fetchAll(db, sql: windowQuery(order), arguments: [window.limit, window.offset]).map(row(from:))
    }

    /// The rows of `window` in `arrangement`, in sections (flat: `FlatList`): ascending as
    /// above, else section by section (`ListArrangement`), each section's part of the window
    /// one walk of its index, forwards or backwards, from the section's start: as fast either
    /// way round.
    static func fetchRows(_ db: Database, _ window: RowWindow, arrangement: ListArrangement) throws -> [CollectionRow] {
        if arrangement.isSectionsAscending { return try fetchRows(db, window, order: arrangement.order) }
        guard window.limit > 0 else { return [] }
        let (sum, overflow) = window.offset.addingReportingOverflow(window.limit)
        let end = overflow ? Int.max : sum
        var ids: [Int64] = []
        var start = 0
        for group in try arrangement.groups(db) {
            guard start < end else { break }
            let lower = max(window.offset, start)
            let upper = min(end, start + group.count)
            if lower < upper {
                ids += try Int64.fetchAll(db, sql: """
                    SELECT r.id FROM record r WHERE \(group.condition)
                    ORDER BY \(arrangement.groupOrderTerms()) LIMIT ? OFFSET ?
                    """, arguments: [group.value, upper - lower, lower - start])
            }
            start += group.count
        }
        return try fetchRows(db, ids: ids, arrangement: arrangement)
    }

    static func fetchWindow(_ db: Database, _ window: RowWindow, order: ListOrder = .default) throws -> CollectionWindow {
        CollectionWindow(
            outline: try fetchOutline(db), window: window, rows: try fetchRows(db, window, order: order), order: order)
    }
}
