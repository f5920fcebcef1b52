import CratesTestSupport
import Foundation
import Testing

/// Choosing among the pressings a barcode shares, in tmux, against the loopback server: two
/// pressings of The Dark Side Of The Moon from its corpus (served in full by
/// `/releases/{id}`) answer one barcode.
@Suite("TUI pressing choice end to end", .serialized, .processTimeLimit)
struct TUIPressingChoiceEndToEndTests {
    static let barcode = "5012345678900"
    /// The UK first pressing (SHVL 804) and the US one (SMAS-11163), in that order.
    static let pressings = [20_000_001, 20_000_005]

    /// The sandbox, its environment signed in to a server whose barcode index has the one
    /// barcode both pressings share, and the server; the barcode added and looked up.
    private func collection() async throws -> (TUIEndToEndTests.Sandbox, [String: String], DiscogsTestServer) {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let index = sandbox.directory.appendingPathComponent("index.json")
        try JSONSerialization.data(withJSONObject: [Self.barcode: ["corpus": Self.pressings]]).write(to: index)
        let server = try await DiscogsTestServer.start(["--index", index.path])
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        environment["CRATES_DB"] = sandbox.database
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data((server.token + "\n").utf8))
        #expect(auth.status == 0, "\(auth)")
        let added = try await ProcessRunner.crates(["add", "--wait", "--timeout", "60", Self.barcode], environment: environment)
        #expect(added.status == 0 && added.stdout.contains("ambiguous"), "\(added)")
        return (sandbox, environment, server)
    }

    /// crates on the sandbox's collection, its one record's pressings open.
    private func pickerOpen(_ sandbox: TUIEndToEndTests.Sandbox, _ environment: [String: String]) async throws -> TmuxSession {
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) --no-scanner --no-covers",
            environment: environment, width: 100, height: 30)
        try await tmux.waitFor(text: "501234567890")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "2 pressings share")
        return tmux
    }

    /// The list's lookup state and release_id columns, a line a copy.
    private func states(_ environment: [String: String]) async throws -> [String] {
        let list = try await ProcessRunner.crates(["list"], environment: environment)
        return list.stdoutLines.map { line in
            let fields = line.components(separatedBy: "\t")
            return [fields.dropFirst(2).first, fields.dropFirst(10).first].map { $0 ?? "-" }.joined(separator: " ")
        }
    }

    @Test("choosing a pressing says which one: country, year and catalogue number, not the title twice")
    func theChoiceNamesThePressing() async throws {
        let (sandbox, environment, server) = try await collection()
        let tmux = try await pickerOpen(sandbox, environment)
        try await tmux.press("Down", "Enter")
        let screen = try await tmux.waitFor(text: "Matched to Pink Floyd — The Dark Side Of The Moon (US, 1973, SMAS-11163)")
        #expect(!screen.contains { $0.contains("Moon to Pink Floyd") }, "\(screen.joined(separator: "\n"))")
        try await tmux.waitFor("the row matched") { $0.contains { $0.hasPrefix("  Pink Floyd — The Dark Side Of The Moon") } }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        let matched = try await states(environment)
        #expect(matched == ["matched 20000005"])
        _ = server
    }

    @Test("a choice is kept when the UI quits before Discogs answers: queued with its release, which the next lookup fetches")
    func aChoiceOutlivesTheQuit() async throws {
        let (sandbox, environment, server) = try await collection()
        let tmux = try await pickerOpen(sandbox, environment)
        try await server.hold(match: "/releases/20000005")
        try await tmux.press("Down", "Enter")
        try await server.waitUntilHeld()
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        try await server.release()
        let queued = try await states(environment)
        #expect(queued == ["pending "], "waiting, its release pinned (not yet its release_id)")
        // Looked up again: by the release chosen, not by the barcode two pressings share.
        let refresh = try await ProcessRunner.crates(["refresh", "1"], environment: environment)
        #expect(refresh.status == 0, "\(refresh)")
        let refreshed = try await states(environment)
        #expect(refreshed == ["matched 20000005"])
    }
}
