import Testing
@testable import CratesCore

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("Björk", 5), ("坂本龍一", 8), ("ｆｕｌｌ", 8), ("e\u{301}", 1), ("한국어", 6),
        ("🎵", 2), ("a\u{200B}b", 2), ("", 0),
    ])
    func widths(_ text: String, _ expected: Int) {
        #expect(DisplayWidth.of(text) == expected)
    }

    @Test func truncationNeverSplitsAWideCharacter() {
        #expect(TerminalText.truncated("坂本龍一", to: 5) == "坂本…")
        #expect(DisplayWidth.of(TerminalText.truncated("坂本龍一", to: 5)) <= 5)
        #expect(TerminalText.truncated("Homogenic", to: 9) == "Homogenic")
        #expect(TerminalText.truncated("Homogenic", to: 5) == "Homo…")
        #expect(TerminalText.fitted("ab", to: 4) == "ab  ")
    }

    @Test func controlCharactersAreRemoved() {
        let evil = "Evil\u{1B}[2J\u{07}Title\u{9B}31m\u{0}"
        let clean = ControlCharacters.cleaned(evil)
        #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        #expect(clean == "Evil[2JTitle31m")
        #expect(ControlCharacters.cleaned("a\tb\nc") == "a b c")
    }
}
