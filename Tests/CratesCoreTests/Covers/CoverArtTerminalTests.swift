import CratesCore
import Testing

/// A cover as ANSI-coloured text (`crates cover` on a terminal).
@Suite struct CoverArtTerminalTests {
    static let red = CoverArt.RGB(red: 220, green: 20, blue: 30)
    static let blue = CoverArt.RGB(red: 20, green: 40, blue: 210)
    static let black = CoverArt.RGB(red: 0, green: 0, blue: 0)

    /// Two rows: red, red, blue over black; then a half block red over blue.
    static let art = CoverArt(rows: [
        [
            CoverArt.Cell(symbol: "█", foreground: red, background: black),
            CoverArt.Cell(symbol: "█", foreground: red, background: black),
            CoverArt.Cell(symbol: "█", foreground: blue, background: black),
        ],
        [
            CoverArt.Cell(symbol: "▀", foreground: red, background: blue),
            CoverArt.Cell(symbol: " ", foreground: red, background: blue),
            CoverArt.Cell(symbol: "▀", foreground: red, background: blue),
        ],
    ])

    @Test("24-bit: a colour written where it changes, every line reset at its end")
    func direct() {
        #expect(Self.art.ansiLines(colours: .direct) == [
            "\u{1B}[38;2;220;20;30;48;2;0;0;0m██\u{1B}[38;2;20;40;210;48;2;0;0;0m█\u{1B}[0m",
            "\u{1B}[38;2;220;20;30;48;2;20;40;210m▀ ▀\u{1B}[0m",
        ])
    }

    @Test("256 colours: the nearest of xterm's cube and greys")
    func palette256() {
        #expect(Self.art.ansiLines(colours: .palette256) == [
            "\u{1B}[38;5;160;48;5;16m██\u{1B}[38;5;20;48;5;16m█\u{1B}[0m",
            "\u{1B}[38;5;160;48;5;20m▀ ▀\u{1B}[0m",
        ])
        #expect(CoverArt.RGB(red: 255, green: 0, blue: 0).xterm256Index == 196)
        #expect(CoverArt.RGB(red: 0, green: 0, blue: 255).xterm256Index == 21)
        #expect(CoverArt.RGB(red: 255, green: 255, blue: 255).xterm256Index == 231)
        #expect(CoverArt.RGB(red: 128, green: 128, blue: 128).xterm256Index == 244)
        #expect(CoverArt.RGB(red: 8, green: 8, blue: 8).xterm256Index == 232)
        #expect(CoverArt.RGB(red: 95, green: 135, blue: 175).xterm256Index == 16 + 36 + 12 + 3)
    }

    @Test("16 colours: the nearest standard one, bright ones as 90–97 and 100–107")
    func sixteen() {
        #expect(Self.art.ansiLines(colours: .sixteen) == [
            "\u{1B}[31;40m██\u{1B}[34;40m█\u{1B}[0m",
            "\u{1B}[31;44m▀ ▀\u{1B}[0m",
        ])
        #expect(CoverArt.RGB(red: 255, green: 255, blue: 255).ansi16Index == 15)
        #expect(CoverArt.art16Bright == "\u{1B}[97;101m▀\u{1B}[0m")
    }

    @Test("an art of no cells is no lines")
    func empty() {
        #expect(CoverArt(rows: []).ansiLines(colours: .direct).isEmpty)
    }
}

extension CoverArt {
    /// White over bright red: the codes of the bright half of the 16.
    fileprivate static var art16Bright: String {
        CoverArt(rows: [[
            CoverArt.Cell(
                symbol: "▀", foreground: RGB(red: 255, green: 255, blue: 255), background: RGB(red: 255, green: 0, blue: 0))
        ]]).ansiLines(colours: .sixteen)[0]
    }
}
