/// A cover drawn as terminal cells: what the collection UI paints into the details view (and
/// `crates cover` prints), made from an image by a `CoverRendering`. Cells rather than pixels,
/// so a cover survives every redraw, resize and tmux like any other text on the screen.
public struct CoverArt: Hashable, Sendable {
    /// One terminal cell: a symbol (a block, a half block, a braille pattern…) in two colours.
    public struct Cell: Hashable, Sendable {
        public var symbol: Character
        public var foreground: RGB
        public var background: RGB

        public init(symbol: Character, foreground: RGB, background: RGB) {
            self.symbol = symbol
            self.foreground = foreground
            self.background = background
        }
    }

    /// A colour as 8-bit red, green and blue; the terminal's nearest colour is the UI's choice.
    public struct RGB: Hashable, Sendable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// Rows of cells, top first; every row `columns` cells long.
    public var rows: [[Cell]]

    public init(rows: [[Cell]]) {
        self.rows = rows
    }

    public var columns: Int { rows.first?.count ?? 0 }
}

/// What the details view shows where the cover goes.
public enum CoverState: Hashable, Sendable {
    /// Asked for, not here yet: the details are shown at once, the cover when it comes. As
    /// the session's answer: not fetched after all (it waited too long in line behind covers
    /// asked since), so the UI asks again if it shows that cover again.
    case loading
    case art(CoverArt)
    /// No cover to draw, and why, in a few words ("no cover on Discogs", "not an image crates
    /// reads", "today's 1,000 covers fetched: more tomorrow", "covers are off").
    case placeholder(String)
}

/// How many colours the terminal shows, which decides the cells' symbols and colours.
public enum CoverColours: Hashable, Sendable {
    case sixteen
    case palette256
    /// 24-bit colour, where the terminfo says the terminal has it.
    case direct
}

/// Draws an image's bytes (JPEG or PNG, sniffed; anything else is unreadable) as cells that fit
/// `columns` × `rows`, keeping the image's aspect (a cell is about twice as tall as wide).
public protocol CoverRendering: Sendable {
    func render(_ image: [UInt8], columns: Int, rows: Int, colours: CoverColours) -> CoverArt?
}
