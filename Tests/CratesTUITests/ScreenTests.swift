import Testing
@testable import CratesTUI

@Suite struct ScreenTests {
    @Test func wideCharactersTakeTwoCellsAndAreCutAtTheEdge() {
        var screen = Screen(width: 7, height: 1)
        let end = screen.put("坂本龍一", row: 0, column: 0)
        #expect(end == 7)
        #expect(screen[0, 1].continuation)
        #expect(screen.line(0) == "坂本龍…", "cut with an ellipsis, never half a wide character")
    }

    @Test func writesOutsideTheGridAreIgnored() {
        var screen = Screen(width: 3, height: 1)
        screen.put("x", row: 5, column: 0)
        screen.put("x", row: 0, column: 9)
        screen.put("abcdef", row: 0, column: 1)
        #expect(screen.text == " a…")
    }
}
