import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// Covers in the details view, as the UI core asks for and draws them (the session's answers
/// given by hand).
@Suite struct CoverStateTests {
    private func harness(width: Int = 80, height: Int = 24, covers: Bool = true) -> Harness {
        Harness.withCovers(width: width, height: height, covers: covers)
    }

    private static let red = CoverArt.RGB(red: 255, green: 0, blue: 0)
    private static let blue = CoverArt.RGB(red: 0, green: 0, blue: 255)

    /// Left half red, right half blue.
    private static func art(columns: Int, rows: Int) -> CoverArt {
        CoverArt(rows: (0..<rows).map { _ in
            (0..<columns).map { c in
                let colour = c < columns / 2 ? red : blue
                return CoverArt.Cell(symbol: "▀", foreground: colour, background: colour)
            }
        })
    }

    private func coverRequest(_ commands: [AppCommand]) -> CoverRequest? {
        for command in commands { if case .session(.cover(let request)) = command { return request } }
        return nil
    }

    /// The details open at once, the cover asked for with them; it is drawn when it comes,
    /// beside the text, red on the left and blue on the right.
    @Test func theDetailsAskForTheCoverAndDrawItWhenItComes() throws {
        var h = harness()
        let commands = h.type([.enter])
        #expect(commands.contains(.loadDetails(1)))
        let request = try #require(coverRequest(commands))
        #expect(request.subject == .record(1) && request.colours == .palette256)
        #expect(h.lines.contains { $0.contains("cover…") })
        h.send(.cover(request, .art(Self.art(columns: request.columns, rows: request.rows))))
        let screen = h.screen
        let box = try #require(h.state.detailsCoverBox)
        #expect(box.beside && box.column + box.columns <= 80)
        #expect(screen[box.row, box.column].tint?.foreground == Self.red)
        #expect(screen[box.row + box.rows - 1, box.column + box.columns - 1].tint?.foreground == Self.blue)
        // The text keeps to the left of it.
        for row in 1..<h.state.height - 2 { #expect(screen[row, box.column - 1].tint == nil) }
        // Asked once: another event does not ask again.
        #expect(coverRequest(h.send(.waiting(3))) == nil)
    }

    @Test func aPlaceholderSaysWhy() throws {
        var h = harness()
        let request = try #require(coverRequest(h.type([.enter])))
        h.send(.cover(request, .placeholder("no cover on Discogs")))
        #expect(h.lines.contains { $0.contains("no cover on Discogs") })
    }

    /// C hides them (and nothing is asked), C shows them again.
    @Test func theKeyTogglesCovers() throws {
        var h = harness()
        let request = try #require(coverRequest(h.type([.enter])))
        h.send(.cover(request, .art(Self.art(columns: request.columns, rows: request.rows))))
        h.type("I")
        #expect(!h.state.coversOn)
        #expect(!h.screen.cellsHaveTint)
        #expect(h.lines.contains { $0.contains("Covers hidden") })
        h.type("I")
        #expect(h.screen.cellsHaveTint)
        #expect(HelpText.lines(width: 80).contains { $0.text.contains("I") && $0.text.contains("covers") })
    }

    /// Off from the start (--no-covers, the configuration): nothing asked, nothing drawn.
    @Test func offAsksForNothing() {
        var h = harness(covers: false)
        #expect(coverRequest(h.type([.enter])) == nil)
        #expect(h.state.detailsCoverBox == nil)
    }

    /// Too narrow for beside: above the text; too small for either: none.
    @Test func theCoverGoesWhereThereIsRoom() throws {
        let narrow = harness(width: 50, height: 40)
        let box = try #require(narrow.state.detailsCoverBox)
        #expect(!box.beside && box.rows >= 4)
        let tiny = harness(width: 40, height: 10)
        #expect(tiny.state.detailsCoverBox == nil)
    }

    @Test func nearestColours() {
        #expect(CoverPalette.colour(Self.red, .palette256) == 196)
        #expect(CoverPalette.colour(Self.blue, .palette256) == 21)
        #expect(CoverPalette.colour(Self.blue, .direct) == 255)
        #expect(CoverPalette.colour(Self.red, .sixteen) == 9)
    }
}

extension Screen {
    var cellsHaveTint: Bool { cells.contains { $0.tint != nil } }
}

extension Harness {
    /// A UI core whose terminal shows covers in 256 colours, covers on (or off: `covers`).
    static func withCovers(width: Int, height: Int, covers: Bool) -> Harness {
        var h = Harness(width: width, height: height)
        h.state = AppState(width: width, height: height, covers: covers, coverColours: .palette256)
        h.send(.resize(width: width, height: height))
        return h
    }
}
