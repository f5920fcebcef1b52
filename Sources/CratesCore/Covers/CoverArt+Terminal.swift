/// A cover as text for a terminal that is not curses' (`crates cover` on a terminal): lines of
/// its symbols with SGR colour escapes.
extension CoverArt {
    /// One line a row, each starting its own colours and ending with a reset (`ESC[0m`), so
    /// that any line may be printed alone. `.direct` writes 24-bit colours (`38;2;r;g;b`),
    /// `.palette256` the nearest of xterm's 240 cube and grey colours (`38;5;n`), `.sixteen`
    /// the nearest of the 16 standard ones (`30`–`37`, `90`–`97`). A colour is written only
    /// where it changes along the line.
    public func ansiLines(colours: CoverColours) -> [String] {
        rows.map { row in
            var line = ""
            var current: (foreground: String, background: String)?
            for cell in row {
                let foreground = Self.sgr(cell.foreground, colours: colours, background: false)
                let background = Self.sgr(cell.background, colours: colours, background: true)
                if current?.foreground != foreground || current?.background != background {
                    line += "\u{1B}[\(foreground);\(background)m"
                    current = (foreground, background)
                }
                line.append(cell.symbol)
            }
            return row.isEmpty ? line : line + "\u{1B}[0m"
        }
    }

    /// The SGR parameters that select `colour` as the foreground or background.
    static func sgr(_ colour: RGB, colours: CoverColours, background: Bool) -> String {
        switch colours {
        case .direct:
            return "\(background ? 48 : 38);2;\(colour.red);\(colour.green);\(colour.blue)"
        case .palette256:
            return "\(background ? 48 : 38);5;\(colour.xterm256Index)"
        case .sixteen:
            let index = colour.ansi16Index
            let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            return String(base + index % 8)
        }
    }
}

extension CoverArt.RGB {
    /// The six levels of each channel in xterm's 6 × 6 × 6 colour cube (colours 16–231).
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// xterm's 16 standard colours, as its default palette has them.
    static let standardColours: [CoverArt.RGB] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ].map { CoverArt.RGB(red: $0.0, green: $0.1, blue: $0.2) }

    /// The nearest of xterm's colours 16–255 (the cube and the 24 greys), which every
    /// 256-colour terminal has as xterm does; 0–15 are left out, the theme's own.
    public var xterm256Index: Int {
        func level(_ value: UInt8) -> Int {
            let value = Int(value)
            return value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40
        }
        let (r, g, b) = (level(red), level(green), level(blue))
        let cube = CoverArt.RGB(
            red: UInt8(Self.cubeLevels[r]), green: UInt8(Self.cubeLevels[g]), blue: UInt8(Self.cubeLevels[b]))
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = min(23, max(0, (average - 3) / 10))
        let greyValue = UInt8(8 + 10 * greyStep)
        let grey = CoverArt.RGB(red: greyValue, green: greyValue, blue: greyValue)
        return distance(to: grey) < distance(to: cube) ? 232 + greyStep : 16 + 36 * r + 6 * g + b
    }

    /// The nearest of the 16 standard colours (0–7 normal, 8–15 bright).
    public var ansi16Index: Int {
        var best = 0
        for (index, colour) in Self.standardColours.enumerated() where distance(to: colour) < distance(to: Self.standardColours[best]) {
            best = index
        }
        return best
    }

    /// Squared distance in RGB: enough to choose the nearest of a palette.
    func distance(to other: CoverArt.RGB) -> Int {
        let r = Int(red) - Int(other.red)
        let g = Int(green) - Int(other.green)
        let b = Int(blue) - Int(other.blue)
        return r * r + g * g + b * b
    }
}
