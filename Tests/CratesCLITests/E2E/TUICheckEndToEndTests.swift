import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// Check mode in tmux against a catalogue built from a generated dump and a seeded
/// collection (`CheckCommandTests.fixture`): a wedge burst answered whole, the verdicts,
/// a checked record bought, the wantlist's offer and its keys.
@Suite("TUI check mode end to end", .serialized, .processTimeLimit)
struct TUICheckEndToEndTests {
    typealias C = CheckCommandTests

    /// `--no-lookup`: the session's own background work (release details) asks nothing, so
    /// that every request the server counts would be a check's.
    private func start(_ fixture: CheckCommandTests.Fixture) async throws -> TmuxSession {
        let binary = try ProcessRunner.cratesBinary().path
        return try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --check --no-lookup --catalogue \(TmuxSession.quote(fixture.catalogue)) --no-scanner --no-covers",
            environment: fixture.sandbox.environment, width: 110, height: 40)
    }

    @Test("a burst of 20 wedge scans in check mode: all 20 on the fair's list with their verdicts, nothing added, no request")
    func burst() async throws {
        let fixture = try await C.fixture()
        let tmux = try await start(fixture)
        try await tmux.waitFor(text: "CHECK — scans add nothing")
        let codes = (0..<4).flatMap { _ in [C.otherPressing, C.owned, C.wanted, C.new, C.shared].map(\.canonical) }
        try await tmux.type(codes.map { $0 + "\r" }.joined())
        try await tmux.waitFor(text: "O W N E D")  // the last, the shared barcode: a copy of one pressing is owned
        try await tmux.press("Escape")
        let list = try await tmux.waitFor("every code answered") { lines in
            lines.contains { $0.contains("The fair's list: 20 checked") } && !lines.contains { $0.contains("CHECKING") }
        }
        let text = list.joined(separator: "\n")
        #expect(list.filter { $0.contains("OTHER PRESSING") && $0.contains(C.otherPressing.canonical) }.count == 4, "\(text)")
        #expect(list.filter { $0.contains("OWNED") && $0.contains(C.owned.canonical) && $0.contains("in Room › Shelf") }.count == 4, "\(text)")
        #expect(list.filter { $0.contains("WANTED") && $0.contains(C.wanted.canonical) }.count == 4, "\(text)")
        #expect(list.filter { $0.contains("NEW") && $0.contains(C.new.canonical) }.count == 4, "\(text)")
        #expect(list.filter { $0.contains("OWNED") && $0.contains(C.shared.canonical) && $0.contains("2 pressings") }.count == 4, "\(text)")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        #expect(try await fixture.server.stats().requests == 0)
        let records = try await fixture.sandbox.crates(["list"])
        #expect(records.stdoutLines.count == 2, "nothing added: \(records)")
    }

    @Test("from a verdict: b adds the pressing; a wanted one offers to come off the wantlist; w and x in the wantlist view")
    func boughtAndWanted() async throws {
        let fixture = try await C.fixture()
        await fixture.server.stop()  // offline, as at a fair
        let tmux = try await start(fixture)
        try await tmux.waitFor(text: "CHECK — scans add nothing")
        try await tmux.type(C.new.canonical + "\r")
        try await tmux.waitFor(text: "N E W")
        try await tmux.press("b")
        try await tmux.waitFor(text: "O W N E D")
        try await tmux.type(C.wanted.canonical + "\r")
        try await tmux.waitFor(text: "W A N T E D")
        try await tmux.press("b")
        try await tmux.waitFor(text: "is on your wantlist: take it off? (y/N)")
        try await tmux.press("y")
        try await tmux.waitFor(text: "Off the wantlist")
        // The other pressing's code: wanted from its verdict, then taken off in the wantlist view.
        try await tmux.type(C.otherPressing.canonical + "\r")
        try await tmux.waitFor(text: "O T H E R   P R E S S I N G")
        try await tmux.press("w")
        try await tmux.waitFor(text: "On your wantlist")  // still OTHER PRESSING: owning comes first
        try await tmux.press("f")
        try await tmux.waitFor(text: "Check mode off")
        try await tmux.press("w")
        try await tmux.waitFor(text: "Artist 1 — Title 100")
        try await tmux.press("x")
        try await tmux.waitFor(text: "The wantlist is empty.")
        try await tmux.press("q", "q")
        #expect(try await tmux.exitReport().status == 0)

        let list = try await fixture.sandbox.crates(["list", "--json"])
        let releases = try C.objects(list.stdout).compactMap { ($0["release"] as? [String: Any])?["id"] as? Int }
        #expect(releases.sorted() == [2, 3, 4, 5], "bought: 4 and 3 added to 2 and 5: \(list)")
        let wants = try await fixture.sandbox.crates(["want", "list"])
        #expect(wants.stdoutLines.isEmpty, "\(wants)")
    }

    @Test("the wantlist view: by artist, O O by rating (the most wanted first), R the other way round")
    func wantlistOrder() async throws {
        let fixture = try await C.fixture()
        await fixture.server.stop()
        // r3 is wanted with five stars; r1 joins it with two.
        let added = try await fixture.sandbox.crates(["want", "add", "--catalogue", fixture.catalogue, "r1", "--rating", "2"])
        #expect(added.status == 0, "\(added)")
        let tmux = try await start(fixture)
        try await tmux.waitFor(text: "CHECK — scans add nothing")
        try await tmux.press("f")
        try await tmux.waitFor(text: "Check mode off")
        try await tmux.press("w")
        /// Waits for the header to say `order` and the rows to be `artists`, top to bottom
        /// (one capture may catch a redraw half-way: the wait looks again).
        func see(_ order: String, _ artists: [String]) async throws {
            try await tmux.waitFor("the wantlist \(order): \(artists)") { lines in
                lines.contains { $0.contains("2 wanted, \(order)") }
                    && lines.compactMap { line in ["Artist 1 —", "Artist 3 —"].first { line.contains($0) } } == artists
            }
        }
        try await see("by artist, A–Z", ["Artist 1 —", "Artist 3 —"])
        try await tmux.press("O", "O")
        try await see("by rating, the most wanted first", ["Artist 3 —", "Artist 1 —"])
        try await tmux.press("R")
        try await see("by rating, the least wanted first", ["Artist 1 —", "Artist 3 —"])
        try await tmux.press("q", "q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
