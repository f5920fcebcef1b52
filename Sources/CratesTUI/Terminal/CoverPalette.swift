import CNcursesW
import CratesCore

/// The colour pairs of covers' cells: each pair of colours a cover uses gets a pair number of
/// its own, made on first use (above the styles' pairs); when the terminal's pairs run out,
/// they are made again from the first, and the screen repainted whole.
struct CoverPalette {
    /// The styles' pairs lie below (`Palette`).
    private static let first: Int32 = 64
    private var pairs: [Int64: Int32] = [:]
    private var next = CoverPalette.first
    let colours: CoverColours?

    init(colours: CoverColours?) {
        self.colours = colours
    }

    /// How many colours the terminal shows, from its terminfo; nil without colours.
    static func detect(hasColours: Bool) -> CoverColours? {
        guard hasColours else { return nil }
        if crates_has_direct_colour() != 0 || crates_colors() >= 0x100_0000 { return .direct }
        if crates_colors() >= 256 { return .palette256 }
        return crates_colors() >= 8 ? .sixteen : nil
    }

    /// The pair for a tint, made now if new; `exhausted` is set when the pairs were made again
    /// from the first (cells drawn before with the old numbers must be drawn again).
    mutating func pair(for tint: CoverTint, exhausted: inout Bool) -> Int32? {
        guard let colours else { return nil }
        let fg = Self.colour(tint.foreground, colours)
        let bg = Self.colour(tint.background, colours)
        let key = Int64(fg) << 32 | Int64(bg)
        if let pair = pairs[key] { return pair }
        if next >= crates_color_pairs() {
            pairs.removeAll()
            next = Self.first
            exhausted = true
            guard next < crates_color_pairs() else { return nil }
        }
        let pair = next
        next += 1
        guard init_extended_pair(pair, fg, bg) != crates_err() else { return nil }
        pairs[key] = pair
        return pair
    }

    /// The terminal's colour nearest to `rgb`.
    static func colour(_ rgb: CoverArt.RGB, _ colours: CoverColours) -> Int32 {
        switch colours {
        case .direct: Int32(rgb.red) << 16 | Int32(rgb.green) << 8 | Int32(rgb.blue)
        case .palette256: Int32(rgb.xterm256Index)
        case .sixteen: Int32(rgb.ansi16Index)
        }
    }
}
