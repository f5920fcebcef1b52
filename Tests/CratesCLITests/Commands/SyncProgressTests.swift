import CratesTestSupport
import Foundation
import Testing

/// `crates sync` in a terminal (tmux): a bar with the time left, like the import's, and
/// Discogs' rate waits counted down on it. The loopback server's rate headers give a window
/// of 6 requests a minute, so that the sync waits for it part-way.
@Suite("crates sync: a bar with the time left and the rate wait counted down (tmux)", .serialized, .processTimeLimit)
struct SyncProgressTests {
    /// The N of "rate limit: resuming in N s" on the sync's line (or on the line that
    /// starts with `prefix`: `crates value --refresh`'s "value: ").
    static func resumingIn(_ screen: [String], prefix: String = "sync: ") -> Int? {
        for line in screen where line.hasPrefix(prefix) {
            guard let range = line.range(of: #"rate limit: resuming in \d+ s"#, options: .regularExpression) else { continue }
            return Int(line[range].split(separator: " ")[4])
        }
        return nil
    }

    @Test("pushing at a full window: 'sync: pushing [##--] n/3 · rate limit: resuming in N s · … left', N counting down")
    func barAndCountdown() async throws {
        var sandbox = try CommandSandbox()
        // Four requests an hour: the sign-in and the sync's first requests fill the window
        // before its pushes, however slowly the machine sends them (with Discogs' 60 s
        // window, six requests spread over a minute on a loaded machine never filled it).
        let server = try await DiscogsTestServer.start(["--limit", "4", "--window", "3600"], token: "sync-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "sync-token")
        _ = try await SyncCommandTests.seedCopies(sandbox)
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) sync", environment: sandbox.environment, width: 160, height: 30)
        let first = try await tmux.waitFor("the rate wait on the sync's bar", deadline: .seconds(120)) { Self.resumingIn($0) != nil }
        let line = try #require(first.first { $0.hasPrefix("sync: ") })
        #expect(line.range(of: #"^sync: pushing \[[#-]{16}\] \d+/3 · rate limit: resuming in \d+ s · \d+ (s|min) left"#, options: .regularExpression) != nil, "\(line)")
        let seconds = try #require(Self.resumingIn(first))
        let later = try await tmux.waitFor("the countdown to move", deadline: .seconds(60)) { screen in
            Self.resumingIn(screen).map { $0 < seconds } ?? false
        }
        #expect(later.contains { $0.hasPrefix("sync: ") }, "\(later.joined(separator: "\n"))")
        try await tmux.press("C-c")
        try await tmux.waitFor(text: TmuxSession.exitMarker)
        _ = server
    }
}
