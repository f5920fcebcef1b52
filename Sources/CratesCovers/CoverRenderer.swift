import CChafa
import CratesCore

/// Draws covers as terminal cells with chafa: JPEG (libjpeg-turbo) and PNG (libpng) decoded to
/// RGBA, then chafa's symbols (blocks and half blocks: the symbols every terminal font has)
/// in the colours the terminal shows. Stateless, so any task may call it at once: every call
/// has its own decoder and canvas.
public struct CoverRenderer: CoverRendering {
    /// A terminal cell is about twice as tall as wide: chafa's font ratio, width over height.
    static let cellAspect: Float = 0.5
    /// The largest art drawn, whatever the caller asks: a screen's worth of cells.
    static let largestSide = 1_000

    public init() {}

    public func render(_ image: [UInt8], columns: Int, rows: Int, colours: CoverColours) -> CoverArt? {
        guard columns > 0, rows > 0 else { return nil }
        let columns = min(columns, Self.largestSide)
        let rows = min(rows, Self.largestSide)
        // chafa looks at 8 × 8 pixels a cell: more than that is decoded for nothing.
        guard let decoded = CoverImage.decode(image, atLeast: (columns * 8, rows * 8)) else { return nil }
        return Self.draw(decoded, columns: columns, rows: rows, colours: colours)
    }

    /// The art's size in cells for an image of `width` × `height` pixels: as large as fits in
    /// `columns` × `rows` with the image's aspect (zooming a small image up), at least 1 × 1.
    static func geometry(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        var outWidth = Int32(columns)
        var outHeight = Int32(rows)
        chafa_calc_canvas_geometry(Int32(width), Int32(height), &outWidth, &outHeight, cellAspect, 1, 0)
        return (max(1, min(columns, Int(outWidth))), max(1, min(rows, Int(outHeight))))
    }

    static func draw(_ image: CoverImage, columns: Int, rows: Int, colours: CoverColours) -> CoverArt? {
        let size = geometry(width: image.width, height: image.height, columns: columns, rows: rows)
        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(size.columns), Int32(size.rows))
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        chafa_canvas_config_set_canvas_mode(config, canvasMode(colours))
        guard let symbols = chafa_symbol_map_new() else { return nil }
        defer { chafa_symbol_map_unref(symbols) }
        chafa_symbol_map_add_by_tags(symbols, symbolTags)
        chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_WIDE)
        chafa_canvas_config_set_symbol_map(config, symbols)

        guard let canvas = chafa_canvas_new(config) else { return nil }
        defer { chafa_canvas_unref(canvas) }
        chafa_canvas_draw_all_pixels(
            canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, image.pixels, Int32(image.width), Int32(image.height),
            Int32(image.width * 4))

        var art: [[CoverArt.Cell]] = []
        art.reserveCapacity(size.rows)
        for y in 0..<Int32(size.rows) {
            var line: [CoverArt.Cell] = []
            line.reserveCapacity(size.columns)
            for x in 0..<Int32(size.columns) {
                let code = chafa_canvas_get_char_at(canvas, x, y)
                var foreground: Int32 = 0
                var background: Int32 = 0
                chafa_canvas_get_colors_at(canvas, x, y, &foreground, &background)
                let symbol = Unicode.Scalar(code).map(Character.init) ?? " "
                line.append(CoverArt.Cell(symbol: symbol, foreground: rgb(foreground), background: rgb(background)))
            }
            art.append(line)
        }
        return CoverArt(rows: art)
    }

    /// Blocks (full, halves, quadrants, eighths) and the space: cells whose two colours a
    /// terminal paints edge to edge.
    static let symbolTags = ChafaSymbolTags(
        rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_HALF.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue
            | CHAFA_SYMBOL_TAG_SOLID.rawValue)

    /// 240 colours rather than 256 on a palette terminal: the first 16 are the terminal
    /// theme's own and could be anything.
    static func canvasMode(_ colours: CoverColours) -> ChafaCanvasMode {
        switch colours {
        case .sixteen: CHAFA_CANVAS_MODE_INDEXED_16
        case .palette256: CHAFA_CANVAS_MODE_INDEXED_240
        case .direct: CHAFA_CANVAS_MODE_TRUECOLOR
        }
    }

    /// chafa's packed 0xRRGGBB; -1 (transparent) cannot come from opaque pixels, black if it did.
    static func rgb(_ packed: Int32) -> CoverArt.RGB {
        guard packed >= 0 else { return CoverArt.RGB(red: 0, green: 0, blue: 0) }
        return CoverArt.RGB(
            red: UInt8(truncatingIfNeeded: packed >> 16), green: UInt8(truncatingIfNeeded: packed >> 8),
            blue: UInt8(truncatingIfNeeded: packed))
    }
}
