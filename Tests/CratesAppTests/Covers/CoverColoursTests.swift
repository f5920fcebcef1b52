import CratesCore
import Testing

@testable import CratesApp

/// The colours `crates cover` draws in: what COLORTERM and TERM say of the terminal.
@Suite("CoverColours from the environment")
struct CoverColoursTests {
    @Test("COLORTERM truecolor or 24bit: direct; TERM with 256: the palette; else sixteen")
    func colours() {
        #expect(CoverColours(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]) == .direct)
        #expect(CoverColours(environment: ["COLORTERM": "24BIT"]) == .direct)
        #expect(CoverColours(environment: ["TERM": "xterm-256color"]) == .palette256)
        #expect(CoverColours(environment: ["TERM": "vt100"]) == .sixteen)
        #expect(CoverColours(environment: [:]) == .sixteen)
    }
}
