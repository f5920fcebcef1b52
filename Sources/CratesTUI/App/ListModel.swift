import CratesCore

/// One record as the list shows it: text already sanitised for the terminal.
public struct ListItem: Equatable, Sendable {
    public var recordID: Int64
    public var gtin: String
    public var artist: String
    public var title: String
    /// A short format summary, e.g. "CD, Album".
    public var format: String
    public var year: Int?
    public var state: LookupState
    /// How many pressings share the barcode, when the lookup was ambiguous.
    public var candidates: Int

    public init(
        recordID: Int64, gtin: String, artist: String = "", title: String = "", format: String = "",
        year: Int? = nil, state: LookupState = .pending, candidates: Int = 0
    ) {
        self.recordID = recordID
        self.gtin = gtin
        self.artist = TerminalText.sanitised(artist)
        self.title = TerminalText.sanitised(title)
        self.format = TerminalText.sanitised(format)
        self.year = year
        self.state = state
        self.candidates = candidates
    }

    /// "Artist — Title", or the barcode while the record is not matched.
    public var displayTitle: String {
        guard state == .matched, !title.isEmpty else { return gtin }
        return artist.isEmpty ? title : "\(artist) — \(title)"
    }
}

/// What the list asks the store for: which rows, under which filter, and which record to
/// locate (the selection follows it when the collection changes under it).
public struct ListQuery: Equatable, Sendable {
    public var filter: String
    public var offset: Int
    public var limit: Int
    public var focus: Int64?

    public init(filter: String = "", offset: Int = 0, limit: Int = 200, focus: Int64? = nil) {
        self.filter = filter
        self.offset = offset
        self.limit = limit
        self.focus = focus
    }
}

/// The collection as the list holds it: every section's name and size (cheap even at
/// 100,000 records) and the rows of one window around the screen. The list never holds the
/// whole collection: the store answers a `ListQuery` with a new model.
public struct ListModel: Equatable, Sendable {
    public struct Section: Equatable, Sendable {
        public var name: String
        public var count: Int
        /// The section's first row among all rows (headers not counted).
        public var firstRow: Int

        public init(name: String, count: Int, firstRow: Int) {
            self.name = TerminalText.sanitised(name)
            self.count = count
            self.firstRow = firstRow
        }
    }

    /// The non-empty sections of the filtered collection, in order.
    public var sections: [Section]
    /// Records in the whole collection, whatever the filter.
    public var totalRecords: Int
    /// The filter these sections and rows answer.
    public var filter: String
    /// The first row held in `rows`.
    public var offset: Int
    public var rows: [ListItem]
    /// The record the query asked to locate, and its row, when it is in the filtered list.
    public var focus: Int64?
    public var focusRow: Int?

    public init(
        sections: [Section], totalRecords: Int, filter: String = "", offset: Int = 0, rows: [ListItem],
        focus: Int64? = nil, focusRow: Int? = nil
    ) {
        self.sections = sections
        self.totalRecords = totalRecords
        self.filter = filter
        self.offset = offset
        self.rows = rows
        self.focus = focus
        self.focusRow = focusRow
    }

    public static let empty = ListModel(sections: [], totalRecords: 0, rows: [])

    /// Rows under the filter (headers not counted).
    public var rowCount: Int { sections.last.map { $0.firstRow + $0.count } ?? 0 }

    /// Lines: a header per section plus its rows.
    public var lineCount: Int { rowCount + sections.count }

    /// What line `index` shows.
    public func line(_ index: Int) -> ListLine? {
        guard index >= 0, index < lineCount else { return nil }
        // The last section whose header line (firstRow + its index) is at or before `index`.
        let low = lastSection { section, i in section.firstRow + i <= index }
        let headerLine = sections[low].firstRow + low
        if index == headerLine { return .header(section: low) }
        return .row(sections[low].firstRow + (index - headerLine - 1), section: low)
    }

    /// The line showing row `row`.
    public func lineIndex(ofRow row: Int) -> Int? {
        guard row >= 0, row < rowCount else { return nil }
        return row + lastSection { section, _ in section.firstRow <= row } + 1
    }

    /// Binary search: the last section (there is at least one) for which `isAtOrBefore`
    /// holds, given that it holds for a prefix of the sections.
    private func lastSection(_ isAtOrBefore: (Section, Int) -> Bool) -> Int {
        var low = 0
        var high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if isAtOrBefore(sections[mid], mid) { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The record on row `row`, when that row is in the window held.
    public func item(row: Int) -> ListItem? {
        let i = row - offset
        return rows.indices.contains(i) ? rows[i] : nil
    }

    public func holds(rows range: Range<Int>) -> Bool {
        range.isEmpty || (range.lowerBound >= offset && range.upperBound <= offset + rows.count)
    }

    /// The row of a record in the window held, if it is there.
    public func row(of recordID: Int64) -> Int? {
        rows.firstIndex { $0.recordID == recordID }.map { $0 + offset }
    }
}

/// A line of the list: a section header or a record row.
public enum ListLine: Equatable, Sendable {
    case header(section: Int)
    case row(Int, section: Int)
}
