import CratesTestSupport
import Foundation
import Testing

/// Signing in from the collection UI (`A`), with the real binary started by name from a
/// `PATH` (as a person starts it), in a working directory of its own, against the loopback
/// Discogs server: the token form, a refused token, who is signed in, OAuth.
@Suite("TUI sign-in end to end", .serialized, .processTimeLimit)
struct TUISignInEndToEndTests {
    static let username = "DamIDhagor"  // Fixtures/discogs/identity.json

    /// What each test starts from: a sandbox, the loopback Discogs server (which takes
    /// `e2e-token`), and the sandbox's environment naming the server as Discogs' API (and,
    /// with `web`, as its authorize pages too).
    struct Fixture {
        let sandbox: TUIEndToEndTests.Sandbox
        let server: DiscogsTestServer
        let environment: [String: String]

        init(web: Bool = false) async throws {
            sandbox = try TUIEndToEndTests.Sandbox()
            server = try await DiscogsTestServer.start(token: "e2e-token")
            var environment = sandbox.environment
            environment["CRATES_DISCOGS_API"] = server.base
            if web { environment["CRATES_DISCOGS_WEB"] = server.base }
            self.environment = environment
        }

        /// `crates` found through `PATH` (its build directory), started in a directory that
        /// holds no `crates`, so that nothing can find it relative to the working directory.
        func start(width: Int = 80) async throws -> TmuxSession {
            let binary = try ProcessRunner.cratesBinary()
            let elsewhere = sandbox.directory.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            var environment = environment
            environment["PATH"] = binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
            let command = "cd \(TmuxSession.quote(elsewhere.path)) && exec crates --db \(TmuxSession.quote(sandbox.database))"
            return try await TmuxSession(
                command: "/bin/sh -c \(TmuxSession.quote(command))", environment: environment, width: width)
        }

        /// Where `crates auth` keeps the credentials.
        var credentials: String {
            sandbox.directory.appendingPathComponent("config/crates/credentials.json").path
        }
    }

    @Test("A opens the token form; a pasted token signs in and the waiting scan is matched")
    func pastedTokenSignsInAndLookupsStart() async throws {
        let fixture = try await Fixture()
        let tmux = try await fixture.start()
        try await tmux.waitFor(text: "No records yet.")
        // Scanned before signing in: it waits for an account.
        try await tmux.type("727361626525\r")
        try await tmux.waitFor(text: "0727361626525")
        try await tmux.type("A")
        try await tmux.waitFor(text: "Paste a personal access token")
        try await tmux.waitFor(text: "Not signed in to Discogs")
        // Pasted: every character at once, commands of the list among them (d, e, o, k).
        try await tmux.type("e2e-token")
        let typed = try await tmux.waitFor(text: "(9 characters)")
        #expect(!typed.joined().contains("e2e-token"), "the token is never shown")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Signed in to Discogs as \(Self.username)")
        try await tmux.waitFor(text: "HammerFall — Glory To The Brave", deadline: .seconds(120))
        #expect(FileManager.default.fileExists(atPath: fixture.credentials))
        let status = try await ProcessRunner.crates(["auth", "--status"], environment: fixture.environment)
        #expect(status.stdout.contains("Signed in to Discogs as \(Self.username) with a personal access token"), "\(status)")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("a refused token: the reason in the form, nothing saved")
    func refusedTokenSaysWhyAndSavesNothing() async throws {
        let fixture = try await Fixture()
        let tmux = try await fixture.start()
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type("A")
        try await tmux.waitFor(text: "Paste a personal access token")
        try await tmux.type("not-the-token")
        try await tmux.press("Enter")
        let screen = try await tmux.waitFor(text: "Discogs refused this token")
        let text = screen.joined(separator: " ")
        #expect(text.contains("wrong or was revoked"), "\(screen)")
        #expect(!text.contains("Please register an app"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: fixture.credentials))
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        #expect(!FileManager.default.fileExists(atPath: fixture.credentials))
    }

    @Test("signed in already: the form says who, and signs out")
    func signedInFormSaysWho() async throws {
        let fixture = try await Fixture()
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: fixture.environment, stdin: Data("e2e-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")
        let tmux = try await fixture.start()
        try await tmux.waitFor(text: "Discogs: \(Self.username)")
        try await tmux.type("A")
        let screen = try await tmux.waitFor(text: "Signed in to Discogs as \(Self.username) (personal access token)")
        #expect(!screen.contains { $0.contains("Not signed in") }, "\(screen)")
        try await tmux.press("C-x")
        try await tmux.waitFor(text: "Not signed in to Discogs")
        #expect(!FileManager.default.fileExists(atPath: fixture.credentials))
        try await tmux.press("Escape")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("with an application's key in config.json: OAuth, the page visited, its code pasted")
    func oauthWithAConsumerKey() async throws {
        let fixture = try await Fixture(web: true)
        let config = fixture.sandbox.directory.appendingPathComponent("config/crates")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(
            #"{"discogs_consumer_key": "\#(DiscogsTestServer.consumerKey)", "discogs_consumer_secret": "\#(DiscogsTestServer.consumerSecret)"}"#.utf8
        ).write(to: config.appendingPathComponent("config.json"))
        let tmux = try await fixture.start(width: 160)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type("A")
        try await tmux.waitFor(text: "Tab: OAuth in a browser")
        try await tmux.press("Tab")
        let screen = try await tmux.waitFor(text: "/oauth/authorize?oauth_token=")
        let url = try #require(screen.first { $0.contains("/oauth/authorize?oauth_token=") }).trimmingCharacters(in: .whitespaces)
        // Signing in as a user: the page shows the code to paste.
        let page = try await fixture.server.page(url)
        #expect(page.contains(DiscogsTestServer.verifier), "\(page)")
        try await tmux.type(DiscogsTestServer.verifier)
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Signed in to Discogs as \(Self.username)")
        let status = try await ProcessRunner.crates(["auth", "--status"], environment: fixture.environment)
        #expect(status.stdout.contains("Signed in to Discogs as \(Self.username) with a token from the OAuth 1.0a flow"), "\(status)")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
