import Foundation

/// Where labels go: a sheet of labels in a grid, a continuous roll, or die-cut labels on a
/// roll. Chosen by name with `named(_:)`.
public struct LabelSheetLayout: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of label stock.
    public enum Form: Hashable, Sendable {
        /// A sheet of labels in a grid, printed page by page.
        case sheet(SheetGeometry)
        /// A continuous roll `width` points wide: one label per page, the page's length (the
        /// cut) following from the label's content.
        case continuousRoll(width: Double)
        /// Die-cut labels on a roll: one label per page of exactly this size.
        case dieCut(width: Double, height: Double)
    }

    /// The name it was chosen by (for a custom sheet, the text as given).
    public let name: String
    public let form: Form

    public init(name: String, form: Form) {
        self.name = name
        self.form = form
    }

    public var description: String { name }

    /// How many labels a page holds.
    public var labelsPerPage: Int {
        if case let .sheet(geometry) = form { return geometry.positions }
        return 1
    }

    /// Whether `skip` means anything here: only sheets have used positions.
    public var isSheet: Bool {
        if case .sheet = form { return true }
        return false
    }

    // MARK: - Built-in layouts

    /// `a4-3x7`: A4 (210 × 297 mm), 3 × 7 labels of 63.5 × 38.1 mm, the Avery L7160
    /// geometry: left margin 7.25 mm, top margin 15.15 mm, column pitch 66.04 mm (a 2.54 mm
    /// gap), rows touching (pitch 38.1 mm).
    public static let a4L7160 = LabelSheetLayout(name: "a4-3x7", form: .sheet(builtInSheet(
        pageWidth: Points.millimetres(210), pageHeight: Points.millimetres(297),
        labelWidth: Points.millimetres(63.5), labelHeight: Points.millimetres(38.1),
        leftMargin: Points.millimetres(7.25), topMargin: Points.millimetres(15.15),
        columnPitch: Points.millimetres(66.04), rowPitch: Points.millimetres(38.1), columns: 3, rows: 7)))

    /// `letter-3x10`: US Letter (8.5 × 11 in), 3 × 10 labels of 2.625 × 1 in, the Avery 5160
    /// geometry: left margin 0.1875 in, top margin 0.5 in, column pitch 2.75 in (a 0.125 in
    /// gap), row pitch 1 in.
    public static let letter5160 = LabelSheetLayout(name: "letter-3x10", form: .sheet(builtInSheet(
        pageWidth: Points.inches(8.5), pageHeight: Points.inches(11),
        labelWidth: Points.inches(2.625), labelHeight: Points.inches(1),
        leftMargin: Points.inches(0.1875), topMargin: Points.inches(0.5),
        columnPitch: Points.inches(2.75), rowPitch: Points.inches(1), columns: 3, rows: 10)))

    /// `roll-62`: a 62 mm continuous roll (Brother DK-22205 and the like).
    public static let roll62 = LabelSheetLayout(name: "roll-62", form: .continuousRoll(width: Points.millimetres(62)))

    /// `roll-29x90`: die-cut 29 × 90 mm labels (Brother DK-11201), printed landscape: each page
    /// is 90 mm wide and 29 mm high.
    public static let roll29x90 = LabelSheetLayout(
        name: "roll-29x90", form: .dieCut(width: Points.millimetres(90), height: Points.millimetres(29)))

    /// The built-in layouts, in the order help texts list them.
    public static let builtIn: [LabelSheetLayout] = [a4L7160, letter5160, roll62, roll29x90]

    /// The names `named(_:)` knows, the custom sheet's form last.
    public static var knownNames: [String] { builtIn.map(\.name) + [customSheetSyntax] }

    /// The layout called `name`: a built-in one, or a custom sheet (`sheet:...`, see
    /// `customSheetSyntax`). Names are matched without regard to case or surrounding spaces.
    public static func named(_ name: String) throws(LabelError) -> LabelSheetLayout {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if let layout = builtIn.first(where: { $0.name == lowered }) { return layout }
        if lowered.hasPrefix(customSheetPrefix) { return try customSheet(trimmed) }
        throw .unknownLayout(name, known: knownNames)
    }

    /// The built-in numbers, taken as they are: the tests check that each grid fits its page.
    private static func builtInSheet(
        pageWidth: Double, pageHeight: Double, labelWidth: Double, labelHeight: Double,
        leftMargin: Double, topMargin: Double, columnPitch: Double, rowPitch: Double, columns: Int, rows: Int
    ) -> SheetGeometry {
        SheetGeometry(
            unchecked: (pageWidth, pageHeight), label: (labelWidth, labelHeight), margins: (leftMargin, topMargin),
            pitch: (columnPitch, rowPitch), columns: columns, rows: rows)
    }
}
