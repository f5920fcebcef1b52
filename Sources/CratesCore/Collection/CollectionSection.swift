import Foundation

/// One line of the collection list: a copy, with what its release says about it.
public struct CollectionRow: Hashable, Sendable, Identifiable {
    public var recordID: Int64
    /// The canonical GTIN digits as stored; empty for a record without a barcode.
    public var gtin: String
    /// The values shown: the collector's own where set, else the release's (nil until the
    /// record is matched, unless the collector gave one).
    public var artist: String?
    public var title: String?
    /// The release's formats, joined: "CD, Album" or "2×Vinyl, LP + CD".
    public var formats: String?
    public var year: Int?
    /// The country and the (first) catalogue number shown: what tells two pressings apart.
    public var country: String?
    public var catno: String?
    public var lookupState: LookupState
    /// How many pressings wait for the user's choice (when `ambiguous`).
    public var candidateCount: Int
    public var addedAt: Date
    /// The local catalogue that did not know the record, while it waits for Discogs.
    public var catalogueEdition: CatalogueEdition?

    public var id: Int64 { recordID }

    public init(
        recordID: Int64, gtin: String, artist: String? = nil, title: String? = nil,
        formats: String? = nil, year: Int? = nil, country: String? = nil, catno: String? = nil,
        lookupState: LookupState, candidateCount: Int = 0, addedAt: Date, catalogueEdition: CatalogueEdition? = nil
    ) {
        self.catalogueEdition = catalogueEdition
        self.country = country
        self.catno = catno
        self.recordID = recordID
        self.gtin = gtin
        self.artist = artist
        self.title = title
        self.formats = formats
        self.year = year
        self.lookupState = lookupState
        self.candidateCount = candidateCount
        self.addedAt = addedAt
    }
}

/// A genre section with all its rows.
///
/// Order (the store's rule): sections by name, case- and diacritic-insensitively, with
/// `Section.unknown` last; rows in a `ListOrder` (by title: title, then artist, then GTIN,
/// the same way). Unmatched
/// rows (in Unknown) have no title and no artist: they come first, in the order they were
/// added, so a pile being scanned shows in scan order.
public struct CollectionSection: Hashable, Sendable {
    public var name: String
    public var rows: [CollectionRow]

    public init(name: String, rows: [CollectionRow]) {
        self.name = name
        self.rows = rows
    }
}

/// A section's header: its name, how many rows it has, and where its rows start in the
/// collection's overall row order.
public struct SectionSummary: Hashable, Sendable {
    public var name: String
    public var count: Int
    /// The index of the section's first row among all rows (headers not counted).
    public var firstRow: Int

    public init(name: String, count: Int, firstRow: Int) {
        self.name = name
        self.count = count
        self.firstRow = firstRow
    }
}

/// The shape of the whole collection without its rows: cheap to fetch even for 100,000
/// records, so a list can size its scroll range and fetch only the rows it shows.
public struct CollectionOutline: Hashable, Sendable {
    public var sections: [SectionSummary]

    public init(sections: [SectionSummary]) {
        self.sections = sections
    }

    /// The name of the one section of a flat list (`CollectionQuery.flat`).
    public static let flatName = "All records"

    /// The same rows as one section named `flatName` (none when there are no rows).
    public var flattened: CollectionOutline {
        let count = rowCount
        return CollectionOutline(sections: count == 0 ? [] : [SectionSummary(name: Self.flatName, count: count, firstRow: 0)])
    }

    /// All rows, headers not counted.
    public var rowCount: Int { sections.last.map { $0.firstRow + $0.count } ?? 0 }

    /// The index in `sections` of the section holding row `row`, nil when out of range.
    public func sectionIndex(forRow row: Int) -> Int? {
        guard row >= 0, row < rowCount else { return nil }
        return lastSection { section, _ in section.firstRow <= row }
    }

    /// For a list that shows a header line above each section's rows: the index of the
    /// section whose header or rows are on line `line`, nil when out of range.
    public func sectionIndex(forLine line: Int) -> Int? {
        guard line >= 0, line < rowCount + sections.count else { return nil }
        // Section i's header is on line firstRow + i.
        return lastSection { section, index in section.firstRow + index <= line }
    }

    /// Binary search: the last section for which `isAtOrBefore` holds, given that it holds
    /// for a non-empty prefix of the sections.
    private func lastSection(_ isAtOrBefore: (SectionSummary, Int) -> Bool) -> Int {
        var low = 0
        var high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if isAtOrBefore(sections[mid], mid) { low = mid } else { high = mid - 1 }
        }
        return low
    }
}

/// Which rows to fetch, in the collection's overall row order.
public struct RowWindow: Hashable, Sendable {
    public var offset: Int
    public var limit: Int

    public init(offset: Int, limit: Int) {
        self.offset = max(0, offset)
        self.limit = max(0, limit)
    }
}

/// What a list asks the store for: one window of rows of the collection narrowed by a
/// filter, and a record to locate (a list keeps its selection on a record that moves).
public struct CollectionQuery: Hashable, Sendable {
    /// Words that must all appear (case- and accent-insensitively) in a record's artist,
    /// title, labels, catalogue numbers or GTIN. Empty: every record.
    public var filter: String
    public var window: RowWindow
    /// A record whose row to report in `CollectionWindow.focusRow`.
    public var focus: Int64?
    /// Only the records in this place and in the places inside it; nil: every record.
    public var location: Int64?
    /// The order of the rows within each section.
    public var order: ListOrder
    /// The rows of each section (or of the flat list) the other way round; the sections
    /// stay in their order.
    public var descending: Bool
    /// One run of every record in `order`, without genre sections: the outline has one
    /// section (`CollectionOutline.flatName`), the records not matched yet at its end.
    public var flat: Bool
    /// Only the copies that count in this bar of the statistics; nil: every record.
    public var facet: StatisticsFacet?

    public init(
        filter: String = "", window: RowWindow, focus: Int64? = nil, location: Int64? = nil, order: ListOrder = .default,
        descending: Bool = false, flat: Bool = false, facet: StatisticsFacet? = nil
    ) {
        self.descending = descending
        self.flat = flat
        self.filter = filter
        self.window = window
        self.focus = focus
        self.location = location
        self.order = order
        self.facet = facet
    }
}

/// The outline plus the rows of one window, fetched together from one snapshot, so the
/// two always agree.
public struct CollectionWindow: Hashable, Sendable {
    /// The sections of the (filtered) collection.
    public var outline: CollectionOutline
    public var window: RowWindow
    /// The rows from `window.offset`, at most `window.limit` of them.
    public var rows: [CollectionRow]
    /// The filter the outline and rows answer.
    public var filter: String
    /// The place the outline and rows answer (`CollectionQuery.location`).
    public var location: Int64?
    /// The order the rows are in (`CollectionQuery.order`, `descending`, `flat`).
    public var order: ListOrder
    public var descending = false
    public var flat = false
    /// The statistics' bar the outline and rows answer (`CollectionQuery.facet`).
    public var facet: StatisticsFacet?
    /// Records in the whole collection, whatever the filter.
    public var totalRecords: Int
    /// The record asked to be located, and its row in the (filtered) order, when it is there.
    public var focus: Int64?
    public var focusRow: Int?
    /// Why the filter could not be answered (a term that is not a field, a place the
    /// collection does not have: `RecordQueryError`'s words); nil when it was. The outline
    /// and rows are then empty.
    public var filterError: String?

    public init(
        outline: CollectionOutline, window: RowWindow, rows: [CollectionRow], filter: String = "",
        totalRecords: Int? = nil, focus: Int64? = nil, focusRow: Int? = nil, location: Int64? = nil,
        order: ListOrder = .default, facet: StatisticsFacet? = nil
    ) {
        self.order = order
        self.facet = facet
        self.outline = outline
        self.window = window
        self.rows = rows
        self.filter = filter
        self.location = location
        self.totalRecords = totalRecords ?? outline.rowCount
        self.focus = focus
        self.focusRow = focusRow
    }
}
