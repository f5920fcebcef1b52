extension CoverColours {
    /// The terminal's colour nearest to `rgb`: the 24-bit value itself for direct colour, an
    /// xterm index (the 6×6×6 cube, 16–231, or the grey ramp, 232–255) for 256 colours, an
    /// ANSI index (0–15) for 16.
    public func number(for rgb: CoverArt.RGB) -> Int {
        let (r, g, b) = (Int(rgb.red), Int(rgb.green), Int(rgb.blue))
        switch self {
        case .direct:
            return r << 16 | g << 8 | b
        case .palette256:
            let levels = [0, 95, 135, 175, 215, 255]
            func level(_ v: Int) -> Int {
                var best = 0
                for (i, l) in levels.enumerated() where abs(v - l) < abs(v - levels[best]) { best = i }
                return best
            }
            let (ri, gi, bi) = (level(r), level(g), level(b))
            let cubeDistance = square(r - levels[ri]) + square(g - levels[gi]) + square(b - levels[bi])
            let grey = min(23, max(0, ((r + g + b) / 3 - 3) / 10))
            let value = 8 + 10 * grey
            let greyDistance = square(r - value) + square(g - value) + square(b - value)
            return greyDistance < cubeDistance ? 232 + grey : 16 + 36 * ri + 6 * gi + bi
        case .sixteen:
            var best = 0
            var distance = Int.max
            for (index, c) in Self.ansi.enumerated() {
                let d = square(r - c.0) + square(g - c.1) + square(b - c.2)
                if d < distance { (best, distance) = (index, d) }
            }
            return best
        }
    }

    /// The 16 ANSI colours as xterm shows them.
    private static let ansi: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    private func square(_ x: Int) -> Int { x * x }

    /// The SGR parameters that set `rgb` as the foreground (or the background).
    func sgr(_ rgb: CoverArt.RGB, background: Bool) -> String {
        switch self {
        case .direct: "\(background ? 48 : 38);2;\(rgb.red);\(rgb.green);\(rgb.blue)"
        case .palette256: "\(background ? 48 : 38);5;\(number(for: rgb))"
        case .sixteen:
            {
                let n = number(for: rgb)
                return "\((background ? 40 : 30) + n % 8 + (n >= 8 ? 60 : 0))"
            }()
        }
    }
}

extension CoverArt {
    /// The cover as text for a terminal: each row its cells with ANSI colours (SGR), the
    /// colours reset at the end of each line. `crates cover` prints this.
    public func ansiText(colours: CoverColours) -> String {
        var out = ""
        for row in rows {
            var last: Cell?
            for cell in row {
                if last?.foreground != cell.foreground || last?.background != cell.background {
                    out += "\u{1B}[\(colours.sgr(cell.foreground, background: false));\(colours.sgr(cell.background, background: true))m"
                }
                out.append(cell.symbol)
                last = cell
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }
}
