import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// `crates cover` against the loopback Discogs server.
@Suite struct CoverCommandTests {
    private func signedIn(_ server: DiscogsTestServer) async throws -> CommandSandbox {
        var sandbox = try CommandSandbox()
        sandbox.api = server.base
        try await sandbox.signIn(token: DiscogsTestServer.token)
        return sandbox
    }

    /// Written to a file as Discogs sent it, by a release or by a record's id; fetched once
    /// across runs (the second comes from the cache: the server counts one image request).
    @Test func writesTheImageFetchedOnceAcrossRuns() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "jpeg")
        let sandbox = try await signedIn(server)
        let first = sandbox.directory.appendingPathComponent("first.jpg").path
        let result = try await sandbox.crates(["cover", "r5134861", "-o", first])
        #expect(result.status == 0, "\(result)")
        let expected = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Tests/DiscogsServer/images/red-blue.jpg"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == expected)
        #expect(try await server.coverCounts().requests == 1)

        #expect(try await sandbox.crates(["add", "r5134861"]).status == 0)
        let second = sandbox.directory.appendingPathComponent("second.jpg").path
        let again = try await sandbox.crates(["cover", "1", "-o", second])
        #expect(again.status == 0, "\(again)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: second)) == expected)
        #expect(try await server.coverCounts().requests == 1, "the second run read the cache")
    }

    /// A pipe without -o gets the image's bytes, not a drawing.
    @Test func aPipeGetsTheBytes() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "png")
        let sandbox = try await signedIn(server)
        let result = try await sandbox.crates(["cover", "r5134861"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("PNG") && !result.stdout.contains("\u{1B}["))
    }

    @Test func saysWhyThereIsNoCover() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.setCover(release: 5_134_861, "404")
        let sandbox = try await signedIn(server)
        let gone = try await sandbox.crates(["cover", "r5134861"])
        #expect(gone.status == 2 && gone.stderr.contains("no cover on Discogs"), "\(gone)")
        let unknown = try await sandbox.crates(["cover", "99"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no record 99"), "\(unknown)")
        let wrong = try await sandbox.crates(["cover", "x12"])
        #expect(wrong.status == 64, "\(wrong)")

        var anonymous = try CommandSandbox()
        anonymous.api = server.base
        let notSignedIn = try await anonymous.crates(["cover", "r1"])
        #expect(notSignedIn.status == 3 && notSignedIn.stderr.contains("crates auth"), "\(notSignedIn)")
        #expect(try await server.coverCounts().requests == 1)
    }

    /// Today's budget spent (kept on disk by earlier runs): said, nothing fetched.
    @Test func saysWhenTheDaysBudgetIsSpent() async throws {
        let server = try await DiscogsTestServer.start()
        let sandbox = try await signedIn(server)
        let covers = sandbox.directory.appendingPathComponent("cache/crates/covers")
        try FileManager.default.createDirectory(at: covers, withIntermediateDirectories: true)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let today = formatter.string(from: Date())
        try "\(today) 1000\n".write(to: covers.appendingPathComponent("budget"), atomically: true, encoding: .utf8)
        let result = try await sandbox.crates(["cover", "r5134861"])
        #expect(result.status == 5 && result.stderr.contains("today's 1,000 covers fetched: more tomorrow"), "\(result)")
        #expect(try await server.coverCounts().requests == 0)
    }
}
