import CratesCore

/// A line of the list: a section header or a record row.
public enum ListLine: Equatable, Sendable {
    case header(section: Int)
    case row(Int, section: Int)
}

/// The list's view of what the store answered (`CollectionWindow`): every section's name and
/// size, and the rows of one window around the screen, laid out as lines with a header above
/// each section. The list never holds the whole collection.
extension CollectionWindow {
    /// Before the store's first answer.
    public static let empty = CollectionWindow(
        outline: CollectionOutline(sections: []), window: RowWindow(offset: 0, limit: 0), rows: [], totalRecords: 0)

    /// The non-empty sections of the filtered collection, in order.
    public var sections: [SectionSummary] { outline.sections }

    /// Rows under the filter (headers not counted).
    public var rowCount: Int { outline.rowCount }

    /// Lines: a header per section plus its rows.
    public var lineCount: Int { rowCount + sections.count }

    /// The first row held in `rows`.
    public var offset: Int { window.offset }

    /// What line `index` shows.
    public func line(_ index: Int) -> ListLine? {
        guard let section = outline.sectionIndex(forLine: index) else { return nil }
        let headerLine = sections[section].firstRow + section
        if index == headerLine { return .header(section: section) }
        return .row(sections[section].firstRow + (index - headerLine - 1), section: section)
    }

    /// The line showing row `row`.
    public func lineIndex(ofRow row: Int) -> Int? {
        outline.sectionIndex(forRow: row).map { row + $0 + 1 }
    }

    /// The record on row `row`, when that row is in the window held.
    public func item(row: Int) -> CollectionRow? {
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
