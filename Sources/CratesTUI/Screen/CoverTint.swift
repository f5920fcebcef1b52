import CratesCore

/// A cell's own colours, for a cover's cells: drawn as they are, whatever the cell's style.
public struct CoverTint: Hashable, Sendable {
    public var foreground: CoverArt.RGB
    public var background: CoverArt.RGB

    public init(foreground: CoverArt.RGB, background: CoverArt.RGB) {
        self.foreground = foreground
        self.background = background
    }
}

extension Screen {
    /// Paints a cover's cells with their top-left corner at (row, column), clipped to the frame.
    mutating func paint(_ art: CoverArt, row: Int, column: Int) {
        for (r, cells) in art.rows.enumerated() {
            for (c, cell) in cells.enumerated() {
                let tint = CoverTint(foreground: cell.foreground, background: cell.background)
                set(Cell(character: cell.symbol, style: .normal, continuation: false, tint: tint), row: row + r, column: column + c)
            }
        }
    }
}
