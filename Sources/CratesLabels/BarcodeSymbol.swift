/// A barcode symbol as libzint lays it out, measured in modules (X-dimensions, the width of
/// the narrowest bar), origin at the top left corner of its quiet zones.
///
/// Pure data, so that layout can be computed and tested without drawing: `encode` fills it
/// from libzint's vector output (`BarcodeSymbol+Zint.swift`), never from a hand-written
/// encoder.
public struct BarcodeSymbol: Hashable, Sendable {
    /// A dark rectangle, in modules.
    public struct Bar: Hashable, Sendable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    /// How a text's `x` anchors it.
    public enum Alignment: Hashable, Sendable {
        case left, centre, right
    }

    /// Human-readable text libzint places with the symbol (EAN-13's digits), in modules.
    public struct Text: Hashable, Sendable {
        public var text: String
        /// Where the text is anchored horizontally, as `alignment` says.
        public var x: Double
        public var baseline: Double
        /// The font size.
        public var size: Double
        /// The width libzint allows the text (0: no limit).
        public var width: Double
        public var alignment: Alignment
    }

    public let symbology: Label.Symbology
    /// What the symbol encodes.
    public let data: String
    /// The whole symbol: bars, quiet zones and text (EAN-13: 11 + 95 + 7 = 113 modules).
    public let width: Double
    public let height: Double
    /// The height asked for the bars (EAN-13's guard bars descend 5 modules more).
    public let barHeight: Double
    public let bars: [Bar]
    public let texts: [Text]

    public init(
        symbology: Label.Symbology, data: String, width: Double, height: Double, barHeight: Double, bars: [Bar],
        texts: [Text]
    ) {
        self.symbology = symbology
        self.data = data
        self.width = width
        self.height = height
        self.barHeight = barHeight
        self.bars = bars
        self.texts = texts
    }

    /// From the left edge of the first bar to the right edge of the last one.
    public var barsExtent: ClosedRange<Double> {
        let left = bars.map(\.x).min() ?? 0
        let right = bars.map { $0.x + $0.width }.max() ?? 0
        return left...max(left, right)
    }

    /// The height below the bars taken by the text (EAN-13: the digits), in modules: what the
    /// symbol adds to `barHeight`.
    public var textDepth: Double { max(0, height - barHeight) }
}

extension Label.Symbology {
    /// The light margins each side that scanners need, in modules (GS1 General
    /// Specifications §5.2.3.4: EAN-13 11 left, 7 right; ISO/IEC 18004: QR 4 all round).
    public var quietZones: (left: Int, right: Int) {
        switch self {
        case .ean13: (11, 7)
        case .qr: (4, 4)
        }
    }

    /// The module widths allowed, in millimetres. EAN-13: GS1 General Specifications symbol
    /// specification table 1 (retail POS): X from 0.264 mm (80%) to 0.660 mm (200%), 0.330
    /// nominal. QR: crates' choice for a camera at arm's length.
    public var moduleRange: ClosedRange<Double> {
        switch self {
        case .ean13: 0.264...0.660
        case .qr: 0.25...1.0
        }
    }

    /// The bars' height at the GS1 nominal proportion, in modules: 22.85 mm at X = 0.330 mm
    /// (GS1 General Specifications, table 1), so 69.24 X. Bars are drawn this tall where the
    /// label has room, shorter (truncated, as in-store labels are) where it has not.
    public var nominalBarHeight: Double {
        switch self {
        case .ean13: 22.85 / 0.330
        case .qr: 0
        }
    }
}
