import CratesStore
import Foundation
import Testing

extension TUILookupEndToEndTests.DiscogsServer {
    /// GET /_control/PATH on this server (stats, hold, release…), its JSON answer.
    func control(_ pathAndQuery: String) async throws -> [String: Any] {
        let script = "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())"
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", "-c", script, "http://127.0.0.1:\(port)/_control/\(pathAndQuery)"], deadline: .seconds(10))
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }
}

/// The details of a record matched from its search result: opening them fetches the full
/// release at once, even while a background fetch of it is stuck.
@Suite("TUI details end to end", .serialized)
struct TUIDetailsEndToEndTests {
    @Test("opening the details of a record matched from its search result fetches the full release at once")
    func detailsOnDemand() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try TUILookupEndToEndTests.DiscogsServer(token: "e2e-token")
        // The first fetch of the release (the worker's, in the background, once the lookup is
        // done) is held by the server until the end of the test.
        _ = try await server.control("hold?match=/releases/5134861&count=1")
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = "http://127.0.0.1:\(server.port)"
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data("e2e-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")

        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database))", environment: environment,
            width: 120, height: 40)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type("727361626525\r")
        try await tmux.waitFor(text: "HammerFall — Glory To The Brave", deadline: .seconds(30))
        let store = try CatalogueStore(path: sandbox.database)
        #expect(try await store.details(1)?.release?.hasFullDetails == false, "one request: the search result")
        let held = try await eventually { (try await server.control("stats")["held"] as? Int) == 1 }
        #expect(held, "the background fetch is under way (and held)")

        try await tmux.press("Enter")
        let screen = try await tmux.waitFor("the full details", deadline: .seconds(30)) { lines in
            lines.contains { $0.contains("Germany") } && !lines.contains { $0.contains("from the barcode search") }
        }
        #expect(screen.contains { $0.contains("NB 265-2") })
        #expect(try await store.details(1)?.release?.hasFullDetails == true)
        #expect(try await store.details(1)?.release?.rawJSON.contains("tracklist") == true)
        _ = try await server.control("release")
        try await tmux.press("Escape", "q")
        #expect(try await tmux.exitReport().status == 0)
    }

    /// Polls `condition` until it holds or `seconds` pass.
    private func eventually(seconds: Double = 20, _ condition: () async throws -> Bool) async throws -> Bool {
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }
}
