import ArgumentParser
import CratesCore
import CratesNet
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `crates auth`: signs in to Discogs (OAuth 1.0a, or a personal access token), shows who is
/// signed in, or signs out. Secrets never go through argv, and are never printed.
struct AuthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Sign in to Discogs, show who is signed in, or sign out.",
        discussion: """
            Without options, signs in with OAuth: crates prints a Discogs page to open, you \
            allow crates there, and paste the code Discogs shows. This needs the consumer key \
            and secret of a registered Discogs application (CRATES_DISCOGS_CONSUMER_KEY and \
            CRATES_DISCOGS_CONSUMER_SECRET, or discogs_consumer_key/discogs_consumer_secret in \
            config.json). A personal access token works without one: create it at \
            https://www.discogs.com/settings/developers and run `crates auth --token`.

            Credentials are saved in $XDG_CONFIG_HOME/crates/credentials.json (default \
            ~/.config/crates/), readable by you only.

            Examples:
              crates auth
              crates auth --token < token.txt
              crates auth --status
              crates auth --logout
            """)

    @Flag(help: "Sign in with a personal access token, read from standard input (or typed at a hidden prompt).")
    var token = false

    @Flag(help: "Show who is signed in and with which kind of credentials.")
    var status = false

    @Flag(help: "Forget the saved Discogs credentials.")
    var logout = false

    @Flag(help: "Do not open the Discogs authorize page in a browser; only print it.")
    var noBrowser = false

    func validate() throws {
        if [token, status, logout].filter({ $0 }).count > 1 {
            throw ValidationError("use one of --token, --status and --logout at a time")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let store = try CredentialStore(environment: environment)
        if status { return try showStatus(store) }
        if logout { return try signOut(store) }
        let endpoints = DiscogsEndpoints(environment: environment)
        let transport = try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: Crates.version)))
        let limiter = RateLimiter(configuration: .authenticated)
        if token {
            let secret = try readToken()
            let client = DiscogsClient(transport: transport, endpoints: endpoints, credentials: .personalToken(secret), rateLimiter: limiter)
            let identity = try blocking { try await Self.identity(client) }
            try store.save(StoredCredentials(credentials: .personalToken(secret), username: identity.username))
            print("Signed in to Discogs as \(DiscogsText.clean(identity.username))")
            return
        }
        guard let consumer = DiscogsConsumer.resolve(environment: environment, configDirectory: store.directory) else {
            throw AuthError.noConsumer
        }
        let anonymous = DiscogsClient(transport: transport, endpoints: endpoints, credentials: nil, rateLimiter: limiter)
        let requestToken = try blocking { try await Self.call { () async throws(DiscogsError) in
            try await anonymous.requestToken(consumerKey: consumer.key, consumerSecret: consumer.secret)
        } }
        let url = anonymous.authorizeURL(requestToken: requestToken)
        // Written at once, not through stdout's buffer: the user (or a script) needs the page
        // before crates waits for the code.
        FileHandle.standardOutput.write(Data("Open this page, sign in to Discogs and allow crates:\n\n  \(url)\n\n".utf8))
        if !noBrowser { openInBrowser(url, environment: environment) }
        FileHandle.standardError.write(Data("Paste the code Discogs shows, then Enter: ".utf8))
        guard let line = readLine(strippingNewline: true), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw AuthError.noVerifier
        }
        let verifier = line.trimmingCharacters(in: .whitespaces)
        let access = try blocking { try await Self.call { () async throws(DiscogsError) in
            try await anonymous.accessToken(consumerKey: consumer.key, consumerSecret: consumer.secret, requestToken: requestToken, verifier: verifier)
        } }
        let credentials = DiscogsCredentials.oauth(consumerKey: consumer.key, consumerSecret: consumer.secret, token: access.token, tokenSecret: access.secret)
        let client = DiscogsClient(transport: transport, endpoints: endpoints, credentials: credentials, rateLimiter: limiter)
        let identity = try blocking { try await Self.identity(client) }
        try store.save(StoredCredentials(credentials: credentials, username: identity.username))
        print("Signed in to Discogs as \(DiscogsText.clean(identity.username))")
    }

    private func showStatus(_ store: CredentialStore) throws {
        guard let stored = try store.load() else {
            print("Not signed in to Discogs: run `crates auth` (or `crates auth --token`).")
            return
        }
        let who = stored.username.map { DiscogsText.clean($0) } ?? "an unknown user"
        print("Signed in to Discogs as \(who) with a \(stored.credentials.kindDescription) (saved in \(store.path))")
    }

    private func signOut(_ store: CredentialStore) throws {
        if try store.delete() {
            print("Signed out of Discogs: removed \(store.path)")
        } else {
            print("Not signed in to Discogs: nothing to remove.")
        }
    }

    /// The token from standard input: at a terminal, a prompt with echo off; otherwise the
    /// first line of the input (a pipe or a file).
    private func readToken() throws -> String {
        var line: String?
        if isatty(STDIN_FILENO) == 1 {
            FileHandle.standardError.write(Data("Discogs personal access token (https://www.discogs.com/settings/developers): ".utf8))
            line = withEchoOff { readLine(strippingNewline: true) }
            FileHandle.standardError.write(Data("\n".utf8))
        } else {
            line = readLine(strippingNewline: true)
        }
        let token = (line ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw AuthError.noToken }
        guard token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { throw AuthError.malformedToken }
        return token
    }

    private func withEchoOff<T>(_ body: () -> T) -> T {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return body() }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        return body()
    }

    /// xdg-open when there is a display; the URL carries only the temporary token.
    private func openInBrowser(_ url: String, environment: [String: String]) {
        guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    private static func identity(_ client: DiscogsClient) async throws -> DiscogsIdentity {
        try await call { () async throws(DiscogsError) in try await client.identity() }
    }

    /// Turns a refused credential into the message `crates auth` owes its user.
    private static func call<T>(_ body: () async throws(DiscogsError) -> T) async throws -> T {
        do {
            return try await body()
        } catch .unauthorized(let message) {
            throw AuthError.refused(message)
        }
    }
}

/// Why `crates auth` could not sign in.
enum AuthError: Error, CustomStringConvertible {
    case noConsumer
    case noToken
    case malformedToken
    case noVerifier
    case refused(String)

    var description: String {
        switch self {
        case .noConsumer:
            """
            OAuth sign-in needs the consumer key and secret of a Discogs application, and crates \
            has none built in yet. Either register one at https://www.discogs.com/settings/developers \
            and set CRATES_DISCOGS_CONSUMER_KEY and CRATES_DISCOGS_CONSUMER_SECRET, or create a \
            personal access token there and run `crates auth --token`.
            """
        case .noToken: "no token on standard input: paste the personal access token from https://www.discogs.com/settings/developers"
        case .malformedToken: "that does not look like a Discogs token (it has spaces or control characters)"
        case .noVerifier: "no code was entered: run `crates auth` again and paste the code Discogs shows"
        case .refused(let message): "Discogs refused the credentials: \(message)"
        }
    }
}

/// Runs async work from a synchronous command (the root command stays synchronous so that
/// the TUI runs on the main thread): the work runs on the cooperative pool while this
/// thread, which is not one of the pool's, waits.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
        done.signal()
    }
    done.wait()
    return try box.get()
}

/// The result handed from the task to the waiting thread.
private final class BlockingResult<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` is read and written only under `lock`.
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ r: Result<T, any Error>) { lock.withLock { result = r } }

    func get() throws -> T {
        guard let r = lock.withLock({ result }) else { throw CancellationError() }
        return try r.get()
    }
}
