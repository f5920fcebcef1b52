import CratesTestSupport
import Foundation
import Testing

/// Covers in the pressing picker, drawn by the real renderer through ncurses in tmux, fetched
/// from the loopback Discogs server by the addresses its search gave; the screen read back with
/// its colours (`capture-pane -e`, `ColouredScreen`).
@Suite("TUI picker covers end to end", .serialized, .processTimeLimit)
struct TUIPickerCoverEndToEndTests {
    /// The DJ Healer barcode, which two pressings share (11849140 and 13416116).
    static let barcode = "5012345678900"

    /// A sandbox signed in to `server`, with the barcode added and looked up: ambiguous.
    private func collection(_ server: DiscogsTestServer) async throws -> (TUIEndToEndTests.Sandbox, [String: String]) {
        let sandbox = try TUIEndToEndTests.Sandbox()
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        // Covers are drawn only in colour: the test runner's own NO_COLOR=1 would hide them.
        environment["NO_COLOR"] = ""
        environment["CRATES_DB"] = sandbox.database
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data((server.token + "\n").utf8))
        #expect(auth.status == 0, "\(auth)")
        let added = try await ProcessRunner.crates(
            ["add", "--wait", "--timeout", "60", Self.barcode], environment: environment)
        #expect(added.status == 0 && added.stdout.contains("ambiguous"), "\(added)")
        return (sandbox, environment)
    }

    /// The cells of `hue` where the pressings are (rows 2–19 of 30): not the title line, blue
    /// on white in the default palette, nor the status line.
    private func body(_ screen: ColouredScreen, _ hue: ColouredScreen.Hue) -> [(row: Int, column: Int)] {
        screen.cells(hue).filter { (2..<20).contains($0.row) }
    }

    /// The rows of each pressing's block: from its "N. " line, as many as a thumbnail has.
    private func blocks(_ screen: ColouredScreen) -> [ClosedRange<Int>] {
        screen.lines.enumerated().compactMap { row, line in
            line.dropFirst(11).hasPrefix("1. ") || line.dropFirst(11).hasPrefix("2. ") ? row...row + 3 : nil
        }
    }

    @Test("each pressing's cover beside it; one without shows no cover; I in the list hides them")
    func coversBesideThePressings() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 11_849_140, "jpeg")
        try await server.setCover(release: 13_416_116, "404")
        let (sandbox, environment) = try await collection(server)
        let releasesBefore = try await server.stats().releases.count
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) --no-scanner",
            environment: environment, width: 100, height: 30)
        try await tmux.waitFor(text: "501234567890")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "2 pressings share")
        let screen = try await tmux.waitForColours("one pressing's cover, and the other's placeholder") {
            body($0, .red).count >= 6 && body($0, .blue).count >= 6 && $0.lines.contains { $0.hasPrefix("  cover") }
        }
        let blocks = blocks(screen)
        #expect(blocks.count == 2, "\(screen.lines.joined(separator: "\n"))")
        let coloured = body(screen, .red) + body(screen, .blue)
        // Every coloured cell is in the thumbnail column, within one pressing's block; the
        // other block has none.
        #expect(coloured.allSatisfy { (1...8).contains($0.column) }, "\(coloured)")
        let holding = blocks.filter { block in coloured.contains { block.contains($0.row) } }
        #expect(holding.count == 1 && coloured.allSatisfy { holding.first?.contains($0.row) == true })
        // Red left of blue on each row (the image's left half red).
        for row in Set(coloured.map(\.row)) {
            let reds = body(screen, .red).filter { $0.row == row }.map(\.column)
            let blues = body(screen, .blue).filter { $0.row == row }.map(\.column)
            if let red = reds.max(), let blue = blues.min() { #expect(red < blue, "row \(row)") }
        }
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "501234567890")
        try await tmux.press("I")
        try await tmux.waitFor(text: "Covers hidden")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "2 pressings share")
        try await tmux.waitForColours("no covers") { body($0, .red).isEmpty && body($0, .blue).isEmpty }
        try await tmux.press("Escape", "q")
        #expect(try await tmux.exitReport().status == 0)
        // One image each, by the addresses the search gave: no release fetched for them.
        #expect(try await server.coverCounts().requests == 2)
        #expect(try await server.stats().releases.count == releasesBefore)
    }
}
