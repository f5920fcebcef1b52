import Foundation
import Testing

@testable import CratesNet

/// `crates auth` as a process: the built binary, stdin and stdout pipes, the loopback server.
@Suite struct AuthCommandTests {
    /// The `crates` executable built beside this test bundle.
    private var binary: String {
        get throws {
            let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for candidate in [dir, dir.deletingLastPathComponent()] {
                let path = candidate.appendingPathComponent("crates").path
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
            throw TestServerError.didNotStart("no crates binary next to \(dir.path): build it with `swift build`")
        }
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `crates ARGS` with `input` on stdin; `interact` sees stdout as it comes and may
    /// write more input. Killed after 30 s.
    private func crates(
        _ args: [String], environment: [String: String], input input_text: String = "",
        interact: (@Sendable (String, FileHandle) -> Bool)? = nil
    ) async throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try binary)
        p.arguments = args
        p.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        closeOnExec(stdin, stdout, stderr)
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stderr
        let collected = Collected()
        let stdoutDone = DispatchSemaphore(value: 0)
        let input = stdin.fileHandleForWriting
        // A plain thread reads stdout until EOF, so the test can answer a prompt.
        Thread.detachNewThread {
            let handle = stdout.fileHandleForReading
            var answered = false
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                let text = collected.append(data)
                if let interact, !answered, interact(text, input) {
                    answered = true
                    try? input.close()
                }
            }
            stdoutDone.signal()
        }
        let errors = Collected()
        let stderrDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = errors.append(stderr.fileHandleForReading.readDataToEndOfFile())
            stderrDone.signal()
        }
        try p.run()
        // The child has its own copies: close the parent's, or the pipes never reach EOF.
        try? stdout.fileHandleForWriting.close()
        try? stderr.fileHandleForWriting.close()
        try? stdin.fileHandleForReading.close()
        input.write(Data(input_text.utf8))
        if interact == nil { try input.close() }
        let deadline = Date().addingTimeInterval(30)
        while p.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // SIGKILL: a child of Process inherits the spawning thread's signal mask, in which
        // libdispatch blocks SIGTERM.
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        while p.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        try? input.close()
        // The pipes reach EOF once the process is gone; wait for the readers, bounded.
        for done in [stdoutDone, stderrDone] {
            var polls = 0
            while done.wait(timeout: .now()) != .success, polls < 250 {
                try await Task.sleep(for: .milliseconds(20))
                polls += 1
            }
        }
        let out = collected.append(Data())
        let err = errors.append(Data())
        return Run(status: p.terminationStatus, stdout: out, stderr: err)
    }

    private func environment(_ server: DiscogsTestServer, config: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": config,
            "XDG_CONFIG_HOME": config, "CRATES_DISCOGS_API": server.base, "CRATES_DISCOGS_WEB": server.base,
        ]
    }

    @Test func tokenFromStdinIsVerifiedAndSavedPrivately() async throws {
        let server = try await DiscogsTestServer.start()
        let config = NSTemporaryDirectory() + "crates-auth-\(UUID().uuidString)"
        let env = environment(server, config: config)
        let run = try await crates(["auth", "--token"], environment: env, input: DiscogsTestServer.token + "\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("Signed in to Discogs as DamIDhagor"))
        #expect(!run.stdout.contains(DiscogsTestServer.token) && !run.stderr.contains(DiscogsTestServer.token))
        let path = config + "/crates/credentials.json"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self).contains(DiscogsTestServer.token))

        let status = try await crates(["auth", "--status"], environment: env)
        #expect(status.stdout.contains("DamIDhagor") && status.stdout.contains("personal access token"))
        #expect(!status.stdout.contains(DiscogsTestServer.token))

        let logout = try await crates(["auth", "--logout"], environment: env)
        #expect(logout.status == 0 && !FileManager.default.fileExists(atPath: path))
        let after = try await crates(["auth", "--status"], environment: env)
        #expect(after.stdout.contains("Not signed in"))
    }

    @Test func aRefusedTokenIsNotSaved() async throws {
        let server = try await DiscogsTestServer.start()
        let config = NSTemporaryDirectory() + "crates-auth-\(UUID().uuidString)"
        let run = try await crates(["auth", "--token"], environment: environment(server, config: config), input: "not-a-valid-token\n")
        #expect(run.status != 0)
        #expect(run.stderr.contains("Discogs refused the credentials"))
        #expect(!run.stderr.contains("not-a-valid-token"))
        #expect(!FileManager.default.fileExists(atPath: config + "/crates/credentials.json"))
    }

    @Test func oauthWithoutAConsumerExplainsWhatToDo() async throws {
        let server = try await DiscogsTestServer.start()
        let run = try await crates(["auth"], environment: environment(server, config: NSTemporaryDirectory() + "crates-auth-\(UUID().uuidString)"))
        #expect(run.status != 0)
        #expect(run.stderr.contains("--token") && run.stderr.contains("CRATES_DISCOGS_CONSUMER_KEY"))
        #expect(try await server.stats().requests == 0)
    }

    /// The three legs as a user does them: crates prints the page, the "browser" opens it
    /// and reads the code, the user pastes it.
    @Test func oauthSignInAsAUser() async throws {
        let server = try await DiscogsTestServer.start()
        let config = NSTemporaryDirectory() + "crates-auth-\(UUID().uuidString)"
        var env = environment(server, config: config)
        env["CRATES_DISCOGS_CONSUMER_KEY"] = DiscogsTestServer.consumerKey
        env["CRATES_DISCOGS_CONSUMER_SECRET"] = DiscogsTestServer.consumerSecret
        let base = server.base
        let run = try await crates(["auth", "--no-browser"], environment: env) { text, stdin in
            guard let start = text.range(of: base + "/oauth/authorize?"),
                let end = text[start.lowerBound...].firstIndex(of: "\n")
            else { return false }
            let page = String(text[start.lowerBound..<end])
            // The browser: visiting the page authorises the token and shows the code.
            let html = (try? httpGet(page)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            guard let code = html.range(of: "<code id=\"verifier\">") .map({ html[$0.upperBound...].prefix { $0 != "<" } }) else { return true }
            stdin.write(Data((code + "\n").utf8))
            return true
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Signed in to Discogs as DamIDhagor"))
        let status = try await crates(["auth", "--status"], environment: env)
        #expect(status.stdout.contains("OAuth"))
        #expect(!status.stdout.contains(DiscogsTestServer.consumerSecret))
        #expect(try await server.stats().badSignatures == 0)
    }
}

/// Output gathered from a readability handler.
private final class Collected: @unchecked Sendable {
    // @unchecked Sendable: `data` is read and written only under `lock`.
    private let lock = NSLock()
    private var data = Data()
    func append(_ more: Data) -> String {
        lock.withLock {
            data.append(more)
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// A GET through the real transport, from synchronous code (a thread that is not one of
/// the cooperative pool's), with a 15 s deadline.
func httpGet(_ url: String) throws -> Data {
    let done = DispatchSemaphore(value: 0)
    let box = Collected()
    let failed = Collected()
    Task {
        do {
            _ = box.append(try await testTransport().send(HTTPRequest(url: url)).body)
        } catch {
            _ = failed.append(Data("\(error)".utf8))
        }
        done.signal()
    }
    guard done.wait(timeout: .now() + 15) == .success else { throw TestServerError.didNotStart("GET \(url) timed out") }
    let problem = failed.append(Data())
    if !problem.isEmpty { throw TestServerError.didNotStart(problem) }
    return Data(box.append(Data()).utf8)
}
