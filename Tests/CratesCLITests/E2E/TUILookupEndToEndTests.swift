import CratesTestSupport
import Foundation
import Testing

/// A scan turning into "Artist — Title" in place, looked up by the real binary through
/// libcurl against the loopback Discogs server (Tests/DiscogsServer/server.py).
@Suite("TUI lookup end to end", .serialized, .processTimeLimit)
struct TUILookupEndToEndTests {
    @Test("a scanned record turns into Artist — Title in place, in its genre section")
    func lookupTurnsARowIntoArtistAndTitle() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try await DiscogsTestServer.start(token: "e2e-token")
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data("e2e-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")
        #expect(!auth.stdout.contains("e2e-token") && !auth.stderr.contains("e2e-token"), "the token is never printed")

        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database))",
            environment: environment)
        try await tmux.waitFor(text: "No records yet.")
        // A UPC-A whose sleeve prints "7 27361 62652 5": found by the spaced form.
        try await tmux.type("727361626525\r")
        // The record and its section in one capture (a capture can fall between two reads of one redraw).
        let screen = try await tmux.waitFor("the record in its section", deadline: .seconds(120)) { lines in
            lines.contains { $0.contains("HammerFall — Glory To The Brave") } && lines.contains { $0.hasPrefix(" Rock (1)") }
        }
        #expect(!screen.contains { $0.contains("looking up…") })
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
