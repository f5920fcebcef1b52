/// How to print: where a partly used sheet starts, how much thinner to draw bars, and the
/// printer's resolution that bars are scaled to.
public struct LabelOptions: Hashable, Sendable {
    /// Positions already used on the first sheet (0-based count, row by row): the first
    /// label goes to position `skip`. Sheets only.
    public var skip: Int
    /// Millimetres by which each bar is drawn thinner, keeping its centre: thermal printers
    /// spread each dark dot into its neighbours ("bleed"), so bars print wider than drawn.
    /// Less than half a module.
    public var bleed: Double
    /// The printer's resolution in dots per inch: a module (the narrowest bar) is a whole
    /// number of dots. 300 for most laser and label printers; 203 for many thermal ones.
    public var dpi: Int

    /// The resolutions accepted.
    public static let dpiRange: ClosedRange<Int> = 72...2400

    public init(skip: Int = 0, bleed: Double = 0, dpi: Int = 300) {
        self.skip = skip
        self.bleed = bleed
        self.dpi = dpi
    }

    /// Checks what does not depend on the labels: `skip` against the layout, the ranges of
    /// `bleed` and `dpi`. (Whether the bleed leaves the bars whole depends on the module,
    /// which `LabelPlanner` checks per label.)
    func validate(for layout: LabelSheetLayout) throws(LabelError) {
        guard Self.dpiRange.contains(dpi) else {
            throw .badOption("dpi \(dpi) is out of range: give the printer's resolution, from "
                + "\(Self.dpiRange.lowerBound) to \(Self.dpiRange.upperBound) dots per inch (300 for most printers)")
        }
        guard bleed.isFinite, bleed >= 0 else {
            throw .badOption("bleed \(bleed) mm: the bleed is a length in mm, 0 or more (like 0.05)")
        }
        guard skip >= 0 else { throw .badOption("skip \(skip): the positions to skip are 0 or more") }
        if skip > 0 {
            guard layout.isSheet else {
                throw .badOption("skip \(skip): \(layout.name) prints one label per page, there is no position to skip "
                    + "(skip is for sheets)")
            }
            guard skip < layout.labelsPerPage else {
                throw .badOption("skip \(skip): a sheet of \(layout.name) has \(layout.labelsPerPage) positions, "
                    + "so at most \(layout.labelsPerPage - 1) can be skipped")
            }
        }
    }
}
