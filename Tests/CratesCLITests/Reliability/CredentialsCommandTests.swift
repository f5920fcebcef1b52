import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12, item 11: what `crates auth --status` says of saved credentials, checked with the
/// loopback Discogs server; and a credentials file that is a symbolic link, which neither
/// `auth --status` nor `lookup` follows or chmods.
@Suite("crates auth --status and the credentials file (process)", .processTimeLimit)
struct CredentialsCommandTests {
    /// Signed in with `token` at a server that accepts it; the sandbox and that server.
    private func signedIn(token: String) async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: token)
        sandbox.api = server.base
        try await sandbox.signIn(token: token)
        return (sandbox, server)
    }

    @Test("a token Discogs accepts: 'accepts them as', exit 0; one it refuses: said so on stderr, exit 3; no answer: 'not checked', exit 0")
    func statusChecksTheToken() async throws {
        var (sandbox, server) = try await signedIn(token: "status-token")
        let accepted = try await sandbox.crates(["auth", "--status"])
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stdout.contains("Signed in to Discogs as DamIDhagor with a personal access token"), "\(accepted)")
        #expect(accepted.stdout.contains("Discogs accepts them as DamIDhagor."), "\(accepted)")
        #expect(try await server.stats().requests == 2, "the sign-in's check and the status's")

        // The same saved token at a server that knows another one: Discogs refuses it now
        // (revoked on the developers page, say). "Signed in", alone, would be a lie.
        let other = try await DiscogsTestServer.start(token: "another-token")
        sandbox.api = other.base
        let refused = try await sandbox.crates(["auth", "--status"])
        #expect(refused.status == 3, "\(refused)")
        #expect(!refused.stdout.contains("accepts"), "\(refused)")
        #expect(refused.stderr.contains("crates auth: Discogs refused the credentials"), "\(refused)")
        #expect(try await other.stats().requests == 1, "checked with one request")

        // Nothing listening: the status is given, and said not to be checked.
        sandbox.api = "http://127.0.0.1:9"
        let unchecked = try await sandbox.crates(["auth", "--status"])
        #expect(unchecked.status == 0, "\(unchecked)")
        #expect(unchecked.stdout.contains("Signed in to Discogs as DamIDhagor") && unchecked.stdout.contains("; not checked: "), "\(unchecked)")
        for result in [accepted, refused, unchecked] {
            #expect(!result.stdout.contains("status-token") && !result.stderr.contains("status-token"), "never the secret")
        }
    }

    /// The credentials file replaced by a link to a file of the user's (readable by all):
    /// before issue 12, `auth --status` and `lookup` chmod-ed the link's target to 0600.
    @Test("credentials.json a symbolic link: auth --status and lookup refuse it, and its target keeps its mode and text")
    func aLinkedCredentialsFileIsNotFollowed() async throws {
        let (sandbox, server) = try await signedIn(token: "link-token")
        let credentials = sandbox.directory.appendingPathComponent("config/crates/credentials.json").path
        let target = sandbox.directory.appendingPathComponent("notes.txt").path
        #expect(FileManager.default.createFile(atPath: target, contents: Data("my notes\n".utf8)))
        #expect(chmod(target, 0o644) == 0)
        #expect(unlink(credentials) == 0 && symlink(target, credentials) == 0)
        let before = try await server.stats().requests
        for arguments in [["auth", "--status"], ["lookup", "5099750442227"]] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status != 0 && !result.signalled, "\(arguments): \(result)")
            #expect(result.stderr.contains(credentials) && result.stderr.contains("symbolic link"), "\(arguments): \(result)")
            Reliability.expectPlainText(result)
            #expect(fileMode(target) == 0o644, "\(arguments): the target's mode is left alone")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "my notes\n")
        }
        #expect(try await server.stats().requests == before, "nothing sent with credentials it did not read")
    }

    @Test("the credentials directory is made 0700; one crates made that was opened up is tightened again by the next command")
    func credentialsDirectoryIsPrivate() async throws {
        let (sandbox, server) = try await signedIn(token: "mode-token")
        let directory = sandbox.directory.appendingPathComponent("config/crates").path
        #expect(fileMode(directory) == 0o700, "made private: \(String(describing: fileMode(directory)))")
        #expect(chmod(directory, 0o755) == 0)
        let status = try await sandbox.crates(["auth", "--status"])
        #expect(status.status == 0, "\(status)")
        #expect(fileMode(directory) == 0o700, "tightened: \(String(describing: fileMode(directory)))")
        _ = server
    }

    @Test("a 100 KB token is refused before anything is sent, never with Discogs' error page")
    func hugeToken() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "small-token")
        sandbox.api = server.base
        let result = try await sandbox.crates(["auth", "--token"], stdin: Data((String(repeating: "a", count: 102_400) + "\n").utf8))
        #expect(result.status == 1 && !result.signalled, "\(result)")
        #expect(result.stderr.contains("that is not a Discogs token: it has 102400 characters, and a token has 40"), "\(result)")
        #expect(!result.stderr.contains("<"), "no HTML quoted: \(result)")
        #expect(try await server.stats().requests == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("config/crates/credentials.json").path))
    }
}
