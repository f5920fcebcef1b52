import CratesTestSupport
import Foundation
import Testing

/// The time left on an import's progress bar, in a terminal (tmux): it counts the wait for
/// Discogs' window, not only the pace of the lookups left.
@Suite("crates import: the time left (tmux)", .serialized, .processTimeLimit)
struct ImportTimeLeftTests {
    /// "· 57 s left" or "· 1 min left" on the bar, in seconds.
    static func secondsLeft(_ screen: [String]) -> Int? {
        for line in screen where line.contains("Looking up") {
            guard let range = line.range(of: #"· (\d+) (s|min) left"#, options: .regularExpression) else { continue }
            let parts = line[range].split(separator: " ")
            guard parts.count >= 3, let value = Int(parts[1]) else { continue }
            return parts[2] == "min" ? value * 60 : value
        }
        return nil
    }

    @Test("a full window: the bar says the minute the next lookup waits, never the few seconds of the lookups left")
    func timeLeftCountsTheRateWindow() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(["--generate"])
        sandbox.api = server.base
        try await sandbox.signIn(token: server.token)
        // 66 barcodes at 60 requests a minute: the sign-in and the first 59 lookups fill the
        // window at once, and the last 7 wait for it, most of a minute.
        let file = sandbox.directory.appendingPathComponent("shelf.txt").path
        try Data((1...66).map { Fixtures.gtin(950_000 + $0).canonical + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) import \(TmuxSession.quote(file))", environment: sandbox.environment,
            width: 160, height: 30)
        // Near the end of the list, while the window is full: before, the bar said the
        // seconds of the lookups left (under 16 s here) all through the wait.
        let screen = try await tmux.waitFor("the wait for the window on the bar", deadline: .seconds(120)) { lines in
            guard let line = lines.first(where: { $0.contains("Looking up") }),
                  let done = line.range(of: #"\] \d+/66"#, options: .regularExpression).flatMap({ Int(line[$0].dropFirst(2).prefix { $0 != "/" }) }),
                  done >= 50, let left = Self.secondsLeft(lines) else { return false }
            return left >= 30
        }
        #expect(Self.secondsLeft(screen).map { $0 <= 180 } == true, "\(screen.joined(separator: "\n"))")
        try await tmux.press("C-c")
        #expect(try await tmux.exitReport().status == 130)
        _ = server
    }
}
