/// Lengths on a label page are points (1/72 inch, PDF's unit), measured from the page's top
/// left corner with y growing downwards, as cairo draws.
public enum Points {
    /// Points per millimetre: 72 / 25.4.
    public static let perMillimetre = 72.0 / 25.4

    /// `millimetres` in points.
    public static func millimetres(_ millimetres: Double) -> Double { millimetres * perMillimetre }

    /// `inches` in points.
    public static func inches(_ inches: Double) -> Double { inches * 72 }

    /// `points` in millimetres.
    public static func toMillimetres(_ points: Double) -> Double { points / perMillimetre }

    /// The length of one printer dot at `dpi` dots per inch.
    public static func dot(dpi: Int) -> Double { 72 / Double(dpi) }
}

/// A rectangle on a page, in points, origin at its top left corner.
public struct LabelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    /// This rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom.
    public func insetBy(dx: Double, dy: Double) -> LabelRect {
        LabelRect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// Whether `other` lies inside this rectangle, allowing `tolerance` points of rounding.
    public func contains(_ other: LabelRect, tolerance: Double = 1e-6) -> Bool {
        other.minX >= minX - tolerance && other.minY >= minY - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }

    /// In millimetres, for messages and test failures.
    public var description: String {
        func mm(_ value: Double) -> String { LabelMeasure.millimetres(value) }
        return "(\(mm(x)), \(mm(y))) \(mm(width)) × \(mm(height)) mm"
    }
}

/// Lengths written for people: "63.5", "0.423" (millimetres, no trailing zeros).
enum LabelMeasure {
    /// `points` in millimetres with up to `decimals` decimals, without trailing zeros.
    static func millimetres(_ points: Double, decimals: Int = 2) -> String {
        number(Points.toMillimetres(points), decimals: decimals)
    }

    static func number(_ value: Double, decimals: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
