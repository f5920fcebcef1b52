import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A scan turning into "Artist — Title" in place, looked up by the real binary through
/// libcurl against the loopback Discogs server (Tests/DiscogsServer/server.py).
@Suite("TUI lookup end to end", .serialized)
struct TUILookupEndToEndTests {
    /// The loopback server: started with a pipe as its stdin (it exits when that closes) and
    /// stopped with SIGKILL at the end.
    final class DiscogsServer: @unchecked Sendable {
        // `@unchecked Sendable`: every stored property is a constant.
        let process: Process
        let stdin: Pipe
        let port: Int

        /// `arguments` go to server.py after the token (e.g. ["--generate"]).
        init(token: String, arguments: [String] = []) throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", root.appendingPathComponent("Tests/DiscogsServer/server.py").path, "--token", token] + arguments
            stdin = Pipe()
            let stdout = Pipe()
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first line is the port; poll(2) so a silent server cannot hang the test.
            let fd = stdout.fileHandleForReading.fileDescriptor
            var line = ""
            let deadline = Date().addingTimeInterval(15)
            while !line.contains("\n"), Date() < deadline {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                var byte: UInt8 = 0
                guard read(fd, &byte, 1) == 1 else { break }
                line.append(Character(Unicode.Scalar(byte)))
            }
            guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                process.terminate()
                throw TmuxError.failed("loopback Discogs server", "no port printed: \(line)")
            }
            self.port = port
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            try? stdin.fileHandleForWriting.close()
        }
    }

    @Test("a scanned record turns into Artist — Title in place, in its genre section")
    func lookupTurnsARowIntoArtistAndTitle() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try DiscogsServer(token: "e2e-token")
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = "http://127.0.0.1:\(server.port)"
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
        let screen = try await tmux.waitFor(text: "HammerFall — Glory To The Brave", deadline: .seconds(30))
        #expect(screen.contains { $0.hasPrefix(" Rock (1)") })
        #expect(!screen.contains { $0.contains("looking up…") })
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
