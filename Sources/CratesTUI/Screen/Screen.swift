import CratesCore
/// A frame: a grid of cells that the UI core renders into and a terminal draws.
///
/// Rendering into a `Screen` instead of straight into curses keeps the UI core testable
/// without a terminal (snapshot tests read `text`) and keeps every curses call on the UI
/// thread, in `CursesTerminal`.
public struct Screen: Equatable, Sendable {
    /// One column. A wide character occupies its cell and marks the next as `continuation`.
    public struct Cell: Equatable, Sendable {
        public var character: Character
        public var style: Style
        public var continuation: Bool
        /// A cover's cell: its own colours (nil: the style's).
        public var tint: CoverTint? = nil

        public static let blank = Cell(character: " ", style: .normal, continuation: false)
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown (a prompt), or nil to hide it.
    public var cursor: Position?

    public struct Position: Equatable, Sendable {
        public var row: Int
        public var column: Int
        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }
    /// A hyperlink (OSC 8) to emit over a region, for the details view's Discogs URL.
    public var hyperlink: Hyperlink?

    public struct Hyperlink: Equatable, Sendable {
        public var url: String
        public var row: Int
        public var column: Int
        public var text: String
    }

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Sets one cell (a cover's, a single-width symbol); nothing outside the frame.
    mutating func set(_ cell: Cell, row: Int, column: Int) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        cells[row * width + column] = cell
    }

    /// Writes `text` at (row, column), cut at `limit` columns (default: the edge), sanitised of
    /// control characters. Returns the column after the last one written.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: Style = .normal, limit: Int? = nil) -> Int {
        guard row >= 0, row < height, column >= 0, column < width else { return column }
        let end = min(width, column + (limit ?? width))
        var col = column
        // Cut with "…" rather than silently, so a reader sees that there is more.
        for character in TerminalText.truncated(ControlCharacters.cleaned(text), to: end - column) {
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if col + w > end { break }
            cells[row * width + col] = Cell(character: character, style: style, continuation: false)
            if w == 2 {
                cells[row * width + col + 1] = Cell(character: " ", style: style, continuation: true)
            }
            col += w
        }
        return col
    }

    /// Fills a run of a row with spaces in `style` (a selection bar, the status line).
    public mutating func fill(row: Int, from column: Int = 0, to end: Int? = nil, style: Style) {
        guard row >= 0, row < height else { return }
        let stop = min(width, end ?? width)
        guard column < stop else { return }
        for col in max(0, column)..<stop {
            cells[row * width + col] = Cell(character: " ", style: style, continuation: false)
        }
    }

    /// One row as text (continuation cells omitted), trailing spaces kept.
    public func line(_ row: Int) -> String {
        var out = ""
        for col in 0..<width where !self[row, col].continuation {
            out.append(self[row, col].character)
        }
        return out
    }

    /// The whole frame as text, trailing spaces trimmed: what snapshot tests compare.
    public var text: String {
        (0..<height).map { row in
            var line = line(row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
