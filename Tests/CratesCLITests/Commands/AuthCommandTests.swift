import CratesTestSupport
import Foundation
import Testing

/// `crates auth` as a process: the built binary, stdin and stdout pipes, the loopback server.
@Suite("crates auth (process)", .processTimeLimit) struct AuthCommandTests {
    /// Runs `crates ARGS` with `input` on stdin (its environment is `environment` alone);
    /// `answer`, when given, reads stdout as it comes and returns what to type next once it
    /// has seen the prompt it waits for. Stopped after 30 s.
    private func crates(
        _ args: [String], environment: [String: String], input: String = "",
        answer: (@Sendable (String) async -> String?)? = nil
    ) async throws -> ProcessResult {
        let child = try ChildProcess.start(
            try ProcessRunner.cratesBinary(), arguments: args, environment: environment, inheritEnvironment: false,
            stdin: Data(input.utf8), keepStdinOpen: answer != nil, deadline: .seconds(120))
        if let answer {
            let typed = try await waitFor("the prompt on stdout", lastSeen: { child.stdoutSoFar + child.stderrSoFar }) {
                () async -> String? in
                if child.hasExited { return "" }
                return await answer(child.stdoutSoFar)
            }
            child.write(Data(typed.utf8))
            child.closeStdin()
        }
        return await child.result()
    }

    private func environment(_ server: DiscogsTestServer, config: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": config,
            "XDG_CONFIG_HOME": config, "CRATES_DISCOGS_API": server.base, "CRATES_DISCOGS_WEB": server.base,
        ]
    }

    @Test func tokenFromStdinIsVerifiedAndSavedPrivately() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = try TemporaryDirectory()
        let config = directory.path
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
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("DamIDhagor") && status.stdout.contains("personal access token"))
        #expect(!status.stdout.contains(DiscogsTestServer.token))

        let logout = try await crates(["auth", "--logout"], environment: env)
        #expect(logout.status == 0 && !FileManager.default.fileExists(atPath: path))
        let after = try await crates(["auth", "--status"], environment: env)
        #expect(after.status == 0, "\(after)")
        #expect(after.stdout.contains("Not signed in"))
    }

    @Test func aRefusedTokenIsNotSaved() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = try TemporaryDirectory()
        let config = directory.path
        let run = try await crates(["auth", "--token"], environment: environment(server, config: config), input: "not-a-valid-token\n")
        #expect(run.status != 0)
        #expect(run.stderr.contains("Discogs refused the credentials"))
        #expect(!run.stderr.contains("not-a-valid-token"))
        #expect(!FileManager.default.fileExists(atPath: config + "/crates/credentials.json"))
    }

    @Test func oauthWithoutAConsumerExplainsWhatToDo() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = try TemporaryDirectory()
        let run = try await crates(["auth"], environment: environment(server, config: directory.path))
        #expect(run.status != 0)
        #expect(run.stderr.contains("--token") && run.stderr.contains("CRATES_DISCOGS_CONSUMER_KEY"))
        #expect(try await server.stats().requests == 0)
    }

    /// The three legs as a user does them: crates prints the page, the "browser" opens it
    /// and reads the code, the user pastes it.
    @Test func oauthSignInAsAUser() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = try TemporaryDirectory()
        var env = environment(server, config: directory.path)
        env["CRATES_DISCOGS_CONSUMER_KEY"] = DiscogsTestServer.consumerKey
        env["CRATES_DISCOGS_CONSUMER_SECRET"] = DiscogsTestServer.consumerSecret
        let base = server.base
        let run = try await crates(["auth", "--no-browser"], environment: env) { text in
            guard let start = text.range(of: base + "/oauth/authorize?"),
                let end = text[start.lowerBound...].firstIndex(of: "\n")
            else { return nil }
            let page = String(text[start.lowerBound..<end])
            // The browser: visiting the page authorises the token and shows the code.
            let html = (try? await server.page(page)) ?? ""
            guard let code = html.range(of: "<code id=\"verifier\">").map({ html[$0.upperBound...].prefix { $0 != "<" } }) else { return "" }
            return code + "\n"
        }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Signed in to Discogs as DamIDhagor"))
        let status = try await crates(["auth", "--status"], environment: env)
        #expect(status.status == 0, "\(status)")
        #expect(status.stdout.contains("OAuth"))
        #expect(!status.stdout.contains(DiscogsTestServer.consumerSecret))
        #expect(try await server.stats().badSignatures == 0)
    }
}
