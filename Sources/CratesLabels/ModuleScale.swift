/// The module (the narrowest bar) as a whole number of printer dots.
///
/// The book's rule for sharp bars: scale by whole modules only, and take the largest whole
/// scale that fits, rounded to the printer's steps. A printer can only print whole dots, so a
/// module of 4.5 dots comes out as 4 or 5 depending on where it falls, and bars of one width
/// print at two: the symbol's proportions drift and scanners misread. A module of exactly k
/// dots, with every bar edge on a dot boundary, prints every bar at its true width.
public struct ModuleScale: Hashable, Sendable, CustomStringConvertible {
    /// Printer dots per module.
    public let dots: Int
    /// The printer's resolution.
    public let dpi: Int

    public init(dots: Int, dpi: Int) {
        self.dots = dots
        self.dpi = dpi
    }

    /// One printer dot, in points.
    public var dot: Double { Points.dot(dpi: dpi) }

    /// The module, in points.
    public var module: Double { Double(dots) * dot }

    /// The module, in millimetres.
    public var millimetres: Double { Points.toMillimetres(module) }

    public var description: String {
        "\(dots) dot\(dots == 1 ? "" : "s") at \(dpi) dpi (\(LabelMeasure.number(millimetres, decimals: 3)) mm)"
    }

    /// The largest whole number of dots per module for which `modules` modules fit in
    /// `width` points and the module stays at most `range.upperBound` mm; nil when even that
    /// scale makes the module narrower than `range.lowerBound` mm (or less than a dot).
    public static func largest(
        modules: Double, fitting width: Double, dpi: Int, range: ClosedRange<Double>
    ) -> ModuleScale? {
        guard modules > 0, width > 0, dpi > 0 else { return nil }
        let dot = Points.dot(dpi: dpi)
        // A millionth of a dot of slack: 113 × 6 dots must fit 678 dots exactly.
        let fitting = Int((width / (modules * dot) + 1e-6).rounded(.down))
        let widest = Int((Points.millimetres(range.upperBound) / dot + 1e-6).rounded(.down))
        let dots = min(fitting, max(1, widest))
        guard dots >= 1 else { return nil }
        let scale = ModuleScale(dots: dots, dpi: dpi)
        guard scale.millimetres >= range.lowerBound - 1e-9 else { return nil }
        return scale
    }

    /// `x` (points from the page's left or top edge) moved to a dot boundary (the nearest,
    /// or as `rule` says), so that bars whose offsets are whole modules start and end on dots.
    public func snapped(_ x: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Double {
        (x / dot).rounded(rule) * dot
    }
}
