import CratesCore
import Foundation

/// The fonts labels use. The PDF renderer sets them in DejaVu Sans (Debian's
/// fonts-dejavu-core, which fontconfig falls back to), whose metrics `ascent`, `descent` and
/// `lineHeight` describe.
public enum LabelFont: String, Hashable, Sendable, CaseIterable {
    /// Paths, contents lists, the digits beneath the bars.
    case regular
    /// Names and headings.
    case bold

    /// From the baseline to the top of the tallest glyphs, in ems (DejaVu Sans: 0.928).
    public static let ascent = 0.93
    /// From the baseline to the bottom of descenders, in ems (DejaVu Sans: 0.236).
    public static let descent = 0.24
    /// From one baseline to the next, in ems.
    public static let lineHeight = 1.2
}

/// Measures text as it will be drawn, so that layout can shrink or shorten it to fit.
/// `CairoTextMeasurer` measures with the fonts the PDF embeds; tests use a twin with fixed
/// advances.
public protocol TextMeasuring {
    /// The advance width of `text` set in `font` at `size` points, in points.
    func width(of text: String, font: LabelFont, size: Double) -> Double
}

/// Sizes and spacing of a label's content. Lengths in points unless named otherwise.
public enum LabelStyle {
    /// Space kept clear inside a label's left and right edges (sheets shift by about a
    /// millimetre in printers; label printers do not print to the edge).
    public static let horizontalInset = Points.millimetres(3)
    /// Space kept clear inside a label's top and bottom edges.
    public static let verticalInset = Points.millimetres(1.5)
    /// The name's size when it fits.
    public static let maximumTitleSize = 12.0
    /// The smallest readable size: a name shrinks to this, and a name that does not fit at
    /// this size is cut with "…" (`Label`).
    public static let minimumTitleSize = 6.0
    /// The path's size; a path too long is shortened from its outermost place.
    public static let pathSize = 7.0
    /// Between the text and the symbol.
    public static let textGap = Points.millimetres(1)
    /// The shortest bars drawn, in millimetres: below this a hand scanner's line easily
    /// misses the symbol, so a label that leaves less is too small.
    public static let minimumBarMillimetres = 6.0
    /// The steps in which a name shrinks.
    static let sizeStep = 0.25
}

/// Shrinking and shortening text to a width.
enum TextFitting {
    static let ellipsis = "…"

    /// The largest size from `sizes.upperBound` down to `sizes.lowerBound`, in steps of
    /// `LabelStyle.sizeStep`, at which `text` fits `width`; nil when it fits at none.
    static func largestSize(
        of text: String, font: LabelFont, fitting width: Double, sizes: ClosedRange<Double>,
        measurer: some TextMeasuring
    ) -> Double? {
        var size = sizes.upperBound
        while size >= sizes.lowerBound - 1e-9 {
            if measurer.width(of: text, font: font, size: size) <= width { return size }
            size -= LabelStyle.sizeStep
        }
        return nil
    }

    /// `text` as it is when it fits `width`, else its longest beginning that fits with "…"
    /// after it (empty when not even "…" fits).
    static func shortened(
        _ text: String, font: LabelFont, size: Double, fitting width: Double, measurer: some TextMeasuring
    ) -> String {
        if measurer.width(of: text, font: font, size: size) <= width { return text }
        let characters = Array(text)
        func candidate(_ count: Int) -> String {
            var head = String(characters.prefix(count))
            while head.last?.isWhitespace == true { head.removeLast() }
            return head + ellipsis
        }
        // The widest prefix that fits, by bisection: widths grow with the prefix.
        var low = 0
        var high = characters.count - 1
        guard measurer.width(of: candidate(0), font: font, size: size) <= width else { return "" }
        while low < high {
            let middle = (low + high + 1) / 2
            if measurer.width(of: candidate(middle), font: font, size: size) <= width {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return candidate(low)
    }

    /// The places joined by " › " when they fit `width`; else the outermost places give way
    /// to "…" one by one ("… › Shelf 2 › Crate A"), the nearest being the most telling; and
    /// if the nearest alone is too long, it is cut with "…".
    static func shortenedPath(
        _ places: [String], font: LabelFont, size: Double, fitting width: Double, measurer: some TextMeasuring
    ) -> String {
        let separator = Label.pathSeparator
        // A path of hundreds of characters fits no label (the widest holds well under 200 at
        // this size): it is not measured, so that a place deep in a long chain costs no more
        // than one near the top.
        let whole = places.joined(separator: separator)
        if whole.unicodeScalars.count <= 400, measurer.width(of: whole, font: font, size: size) <= width { return whole }
        // Then from the nearest place outwards, while the path still fits: a label shows a
        // few places, so this measures a few short texts however deep the place lies.
        var shown = ""
        for kept in 1..<max(1, places.count) {
            let text = ([ellipsis] + places.suffix(kept)).joined(separator: separator)
            guard measurer.width(of: text, font: font, size: size) <= width else { break }
            shown = text
        }
        if !shown.isEmpty { return shown }
        let nearest = places.count > 1 ? ellipsis + separator + (places.last ?? "") : whole
        return shortened(nearest, font: font, size: size, fitting: width, measurer: measurer)
    }

    /// `text` safe to draw: control characters removed, tabs and line breaks made spaces
    /// (`DiscogsText.clean`: names and Discogs text are untrusted), surrounding spaces trimmed.
    static func cleaned(_ text: String) -> String {
        ControlCharacters.cleaned(text).trimmingCharacters(in: .whitespaces)
    }
}
