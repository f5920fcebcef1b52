import CratesTestSupport
import Foundation
import Testing

/// `S` in the real binary under tmux: the sync's progress on the status line while the
/// loopback server holds the listing's answer, then the pulled copy in its section and the
/// summary; then `M` in its details sets a grade that the next sync pushes.
@Suite("TUI sync end to end", .serialized, .processTimeLimit)
struct TUISyncEndToEndTests {
    @Test("S syncs with progress on the status line; M grades the pulled copy; S pushes the grade")
    func syncKey() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try await DiscogsTestServer.start(token: "tui-sync-token")
        try await server.collection.seed(#"{"instances": [{"release_id": 5134861, "rating": 4}]}"#)
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data("tui-sync-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")

        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) --no-scanner",
            environment: environment, width: 100, height: 24)
        try await tmux.waitFor(text: "No records yet.")
        try await server.collection.hold("folder_releases")
        try await tmux.press("S")
        try await server.collection.waitUntilHeld()
        try await tmux.waitFor(text: "sync: reading 0")
        try await server.collection.release()
        let screen = try await tmux.waitFor(text: "Synced with Discogs (DamIDhagor): 1 pulled")
        #expect(screen.contains { $0.contains("HammerFall — Glory To The Brave") })
        #expect(!screen.contains { $0.contains("sync: reading") }, "the progress is gone once done")

        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Rating       ★★★★☆  · * to change")
        try await tmux.press("M")
        try await tmux.waitFor(text: "Media condition: Enter sets it")
        try await tmux.press("j", "j", "Enter")  // not graded, Mint (M), Near Mint
        try await tmux.waitFor(text: "Media        Near Mint (NM or M-)  · M to change")
        try await tmux.press("Escape")
        try await tmux.press("S")
        try await tmux.waitFor(text: "Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed, 0 linked, 1 updated")
        let instance = try #require(try await server.collection.dump().instances.first)
        #expect(instance.note(1) == "Near Mint (NM or M-)")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
