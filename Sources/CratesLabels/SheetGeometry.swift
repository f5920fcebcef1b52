/// A sheet of labels in a grid: the page, the label size, where the first label sits and how
/// far apart the labels are. All lengths in points.
///
/// Positions are numbered from 0, row by row, left to right and then top to bottom, as label
/// sheets are filled (and as `skip` counts the positions already used).
public struct SheetGeometry: Hashable, Sendable {
    public let pageWidth: Double
    public let pageHeight: Double
    public let labelWidth: Double
    public let labelHeight: Double
    /// From the page's left edge to the left edge of the first column.
    public let leftMargin: Double
    /// From the page's top edge to the top edge of the first row.
    public let topMargin: Double
    /// From one column's left edge to the next one's: the label width plus the gap.
    public let columnPitch: Double
    /// From one row's top edge to the next one's: the label height plus the gap.
    public let rowPitch: Double
    public let columns: Int
    public let rows: Int

    /// A grid checked to fit its page, lengths in points.
    /// - Throws: a reason (for `LabelError.badCustomSheet`) when a length is not positive,
    ///   labels overlap, or the grid runs off the page.
    public init(
        pageWidth: Double, pageHeight: Double, labelWidth: Double, labelHeight: Double,
        leftMargin: Double, topMargin: Double, columnPitch: Double, rowPitch: Double,
        columns: Int, rows: Int
    ) throws(SheetGeometryError) {
        for (name, value) in [("page width", pageWidth), ("page height", pageHeight),
                              ("label width", labelWidth), ("label height", labelHeight)]
        where !(value.isFinite && value > 0) {
            throw SheetGeometryError("the \(name) must be more than 0")
        }
        for (name, value) in [("left margin", leftMargin), ("top margin", topMargin)]
        where !(value.isFinite && value >= 0) {
            throw SheetGeometryError("the \(name) must be 0 or more")
        }
        guard columns >= 1, rows >= 1 else { throw SheetGeometryError("a sheet needs at least 1 column and 1 row") }
        guard columns * rows <= 1000 else {
            throw SheetGeometryError("\(columns * rows) labels on a sheet is more than 1000")
        }
        // A hundredth of a millimetre of slack for lengths given in decimals.
        let slack = Points.millimetres(0.01)
        guard columns == 1 || columnPitch >= labelWidth - slack else {
            throw SheetGeometryError("the columns overlap (the horizontal gap is less than 0)")
        }
        guard rows == 1 || rowPitch >= labelHeight - slack else {
            throw SheetGeometryError("the rows overlap (the vertical gap is less than 0)")
        }
        let right = leftMargin + Double(columns - 1) * columnPitch + labelWidth
        let bottom = topMargin + Double(rows - 1) * rowPitch + labelHeight
        guard right <= pageWidth + slack else {
            throw SheetGeometryError("\(columns) columns end at \(LabelMeasure.millimetres(right)) mm, "
                + "past the page's width of \(LabelMeasure.millimetres(pageWidth)) mm")
        }
        guard bottom <= pageHeight + slack else {
            throw SheetGeometryError("\(rows) rows end at \(LabelMeasure.millimetres(bottom)) mm, "
                + "past the page's height of \(LabelMeasure.millimetres(pageHeight)) mm")
        }
        self.init(
            unchecked: (pageWidth, pageHeight), label: (labelWidth, labelHeight), margins: (leftMargin, topMargin),
            pitch: (columnPitch, rowPitch), columns: columns, rows: rows)
    }

    /// The numbers as they are, for the built-in layouts (whose fit the tests check).
    init(
        unchecked page: (width: Double, height: Double), label: (width: Double, height: Double),
        margins: (left: Double, top: Double), pitch: (column: Double, row: Double), columns: Int, rows: Int
    ) {
        pageWidth = page.width
        pageHeight = page.height
        labelWidth = label.width
        labelHeight = label.height
        leftMargin = margins.left
        topMargin = margins.top
        columnPitch = pitch.column
        rowPitch = pitch.row
        self.columns = columns
        self.rows = rows
    }

    /// Labels on one sheet.
    public var positions: Int { columns * rows }

    /// The label at `position` (0-based, row by row; taken modulo `positions`).
    public func cell(at position: Int) -> LabelRect {
        let index = ((position % positions) + positions) % positions
        let column = index % columns
        let row = index / columns
        return LabelRect(
            x: leftMargin + Double(column) * columnPitch, y: topMargin + Double(row) * rowPitch,
            width: labelWidth, height: labelHeight)
    }
}

/// Why a sheet's numbers do not make a sheet (said inside `LabelError.badCustomSheet`).
public struct SheetGeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
