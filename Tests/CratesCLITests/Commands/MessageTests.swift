import CratesTestSupport
import Foundation
import Testing

/// The command line's messages: one prefix for every error, a refused personal token said in
/// a token user's terms, and exit-status tables that keep their layout in 80 columns.
@Suite("messages: error prefix, refused token, exit-status tables (process)", .processTimeLimit)
struct MessageTests {
    @Test("every error starts 'crates COMMAND: ', never ArgumentParser's 'Error: '", arguments: [
        (["add"], "crates add: "),
        (["location", "add"], "crates location add: "),
        (["list", "--state", "nonsense"], "crates list: "),
        (["--no-scanner", "--scanner", "/tmp/x.sock"], "crates: "),
        (["edit", "999"], "crates edit: "),
        (["move", "1", "--to", "Nowhere"], "crates move: "),
    ])
    func oneErrorPrefix(_ arguments: [String], _ prefix: String) async throws {
        let sandbox = try CommandSandbox()
        let result = try await sandbox.crates(arguments)
        #expect(result.status != 0, "\(arguments): \(result)")
        #expect(result.stderr.hasPrefix(prefix), "\(arguments): \(result)")
        #expect(!result.stderr.contains("Error: "), "\(arguments): \(result)")
    }

    @Test("a personal token Discogs refuses: what it means and where to make a new one, not 'register an app'")
    func refusedToken() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "the-right-token")
        sandbox.api = server.base
        let wrong = try await sandbox.crates(["auth", "--token"], stdin: Data("a-wrong-token\n".utf8))
        #expect(wrong.status != 0, "\(wrong)")
        // Signed in, then the token revoked: the commands that use it say the same.
        try await sandbox.signIn(token: "the-right-token")
        let other = try await DiscogsTestServer.start(token: "another-token")
        sandbox.api = other.base
        let lookup = try await sandbox.crates(["lookup", "727361626525"])
        #expect(lookup.status == 3, "\(lookup)")
        for result in [wrong, lookup] {
            #expect(result.stderr.contains("the personal access token is wrong or was revoked"), "\(result)")
            #expect(result.stderr.contains("https://www.discogs.com/settings/developers"), "\(result)")
            #expect(result.stderr.contains("crates auth --token"), "\(result)")
            #expect(!result.stderr.contains("register an app"), "\(result)")
        }
    }

    @Test("an exit-status table in 80 columns: every line of it indented, none wrapped to the margin", arguments: [
        "add", "import", "lookup", "search", "sync", "refresh",
    ])
    func exitStatusTables(_ command: String) async throws {
        let result = try await ProcessRunner.crates(["help", command], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "Exit status:"), "\(result)")
        let table = lines[(start + 1)...].prefix { !$0.isEmpty }
        #expect(table.count >= 3)
        for line in table {
            #expect(line.hasPrefix("  ") && line.count < 80, "\(command): \(line)")
        }
    }
}
