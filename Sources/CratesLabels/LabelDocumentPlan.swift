import CratesCore

/// Everything a label document draws, page by page, with its positions on the page in
/// points: the pure result of layout, which the PDF renderer draws as it is and tests check
/// against the layout's geometry.
public struct LabelDocumentPlan: Hashable, Sendable {
    /// One page of the PDF.
    public struct Page: Hashable, Sendable {
        public var width: Double
        public var height: Double
        /// The labels on the page (a contents page has its crate's label first).
        public var labels: [PlacedLabel]
        /// Text outside labels (a contents list).
        public var texts: [PlacedText]
        /// Thin filled rectangles (a contents list's rules).
        public var rules: [LabelRect]

        public init(width: Double, height: Double, labels: [PlacedLabel] = [], texts: [PlacedText] = [],
                    rules: [LabelRect] = []) {
            self.width = width
            self.height = height
            self.labels = labels
            self.texts = texts
            self.rules = rules
        }
    }

    /// The layout's name.
    public var layout: String
    public var pages: [Page]

    public init(layout: String, pages: [Page]) {
        self.layout = layout
        self.pages = pages
    }

    /// The codes in the order they are drawn, page by page.
    public var codes: [GTIN] { pages.flatMap { $0.labels.map(\.code) } }

    /// The labels whose title was cut to fit, each once (a crate's label heads its contents
    /// list too), in the order drawn.
    public var cut: [PlacedLabel] {
        var seen = Set<GTIN>()
        return pages.flatMap(\.labels).filter { $0.cutFrom != nil && seen.insert($0.code).inserted }
    }
}

/// A label drawn on a page.
public struct PlacedLabel: Hashable, Sendable {
    public var code: GTIN
    /// The sheet position (0-based, row by row), nil on a roll or a contents page.
    public var position: Int?
    /// The label's area on the page.
    public var cell: LabelRect
    public var symbol: PlacedSymbol
    /// The name and the path, as they fitted.
    public var texts: [PlacedText]
    /// The whole title when it was too long for the label and cut with "…"; nil when whole.
    public var cutFrom: String?
}

/// A barcode symbol drawn on a page.
public struct PlacedSymbol: Hashable, Sendable {
    public var symbology: Label.Symbology
    /// The whole symbol: quiet zones, bars and digits.
    public var frame: LabelRect
    /// The module, as whole printer dots.
    public var scale: ModuleScale
    /// The bars' height in modules (EAN-13's guard bars descend 5 more).
    public var barHeight: Double
    /// The dark rectangles as drawn, bleed already taken off.
    public var bars: [LabelRect]
    /// The digits beneath the bars.
    public var texts: [PlacedText]

    /// From the first bar's left edge to the last bar's right edge, top to the longest bar's
    /// bottom.
    public var barsFrame: LabelRect {
        let left = bars.map(\.minX).min() ?? frame.minX
        let right = bars.map(\.maxX).max() ?? frame.minX
        let top = bars.map(\.minY).min() ?? frame.minY
        let bottom = bars.map(\.maxY).max() ?? frame.minY
        return LabelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// A line of text drawn on a page.
public struct PlacedText: Hashable, Sendable {
    /// The text as drawn (shortened with "…" if it had to be).
    public var text: String
    public var font: LabelFont
    /// In points.
    public var size: Double
    /// The left edge of the text.
    public var x: Double
    public var baseline: Double
    /// The advance width as measured.
    public var width: Double

    /// The box from ascent to descent.
    public var frame: LabelRect {
        LabelRect(x: x, y: baseline - LabelFont.ascent * size, width: width,
                  height: (LabelFont.ascent + LabelFont.descent) * size)
    }
}
