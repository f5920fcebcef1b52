import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The details of a record matched from its search result: opening them fetches the full
/// release at once, even while a background fetch of it is stuck.
@Suite("TUI details end to end", .serialized, .processTimeLimit)
struct TUIDetailsEndToEndTests {
    @Test("opening the details of a record matched from its search result fetches the full release at once")
    func detailsOnDemand() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try await DiscogsTestServer.start()
        // The first fetch of the release (the worker's, in the background, once the lookup is
        // done) is held by the server until the end of the test.
        try await server.hold(match: "/releases/5134861", count: 1)
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data((server.token + "\n").utf8))
        #expect(auth.status == 0, "\(auth)")

        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database))", environment: environment,
            width: 120, height: 40)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type("727361626525\r")
        try await tmux.waitFor(text: "HammerFall — Glory To The Brave", deadline: .seconds(120))
        let store = try CollectionStore(path: sandbox.database)
        #expect(try await store.details(1)?.release?.hasFullDetails == false, "one request: the search result")
        try await server.waitUntilHeld(1)  // the background fetch is under way (and held)

        try await tmux.press("Enter")
        let screen = try await tmux.waitFor("the full details", deadline: .seconds(120)) { lines in
            lines.contains { $0.contains("Germany") } && !lines.contains { $0.contains("from the barcode search") }
        }
        #expect(screen.contains { $0.contains("NB 265-2") })
        // The status line's "Added … (Germany, 1997, NB 265-2)" can meet the screen's
        // condition before the details are drawn: the fetch they ask for is waited for by
        // what it stores. While the background fetch is held, only the details' own fetch
        // can store the full release.
        try await waitUntil("the full release fetched for the details") {
            try await store.details(1)?.release?.hasFullDetails == true
        }
        #expect(try await store.details(1)?.release?.rawJSON.contains("tracklist") == true)
        try await server.release()
        try await tmux.press("Escape", "q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
