import CratesTestSupport
import Foundation
import Testing

/// Progress that never goes quiet: when Discogs' rate limit holds the lookups back, the
/// import's bar says so and counts the seconds down, in a terminal (tmux). The loopback
/// server's rate headers give a window of 3 requests a minute, so that the wait comes at once.
@Suite("crates import: the rate wait counted down on the bar (tmux)", .serialized, .processTimeLimit)
struct RateWaitProgressTests {
    /// The N of "rate limit: resuming in N s" on the bar.
    static func resumingIn(_ screen: [String]) -> Int? {
        for line in screen where line.contains("Looking up") {
            guard let range = line.range(of: #"rate limit: resuming in \d+ s"#, options: .regularExpression) else { continue }
            return Int(line[range].split(separator: " ")[4])
        }
        return nil
    }

    @Test("a full window: 'rate limit: resuming in N s' on the bar, N counting down while the lookups wait")
    func countdownOnTheBar() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(["--generate", "--limit", "3"])
        sandbox.api = server.base
        try await sandbox.signIn(token: server.token)
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data((1...6).map { Fixtures.gtin(960_000 + $0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) import \(TmuxSession.quote(file))", environment: sandbox.environment,
            width: 120, height: 30)
        let first = try await tmux.waitFor("the rate wait on the bar", deadline: .seconds(120)) { Self.resumingIn($0) != nil }
        let seconds = try #require(Self.resumingIn(first))
        #expect(seconds > 2 && seconds <= 61, "\(first.joined(separator: "\n"))")
        // At 120 columns the wait and every count are wider than the line: the counts give
        // way, and the time left still ends it.
        #expect(first.contains { $0.contains("Looking up") && $0.range(of: #"· \d+ (s|min) left$"#, options: .regularExpression) != nil },
                "\(first.joined(separator: "\n"))")
        // The bar moves while nothing else does: the seconds count down.
        let later = try await tmux.waitFor("the countdown to move", deadline: .seconds(60)) { screen in
            Self.resumingIn(screen).map { $0 < seconds } ?? false
        }
        #expect(later.contains { $0.contains("Looking up") && $0.contains("/6") }, "\(later.joined(separator: "\n"))")
        try await tmux.press("C-c")
        #expect(try await tmux.exitReport().status == 130)
        _ = server
    }
}
