import CratesCore
import CratesNet
import Foundation

/// Signing in to Discogs, as `crates auth` and the TUI's `A` do: a personal access token, or
/// OAuth 1.0a's three legs (RFC 5849 section 2) with an out-of-band verifier. Credentials
/// are checked with Discogs (`/oauth/identity`) before they are saved; secrets never go
/// through argv and are never printed.
public struct SignIn: Sendable {
    public let credentials: CredentialStore
    let environment: [String: String]
    let endpoints: DiscogsEndpoints
    let transport: CurlTransport
    let limiter = RateLimiter(configuration: .authenticated)

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SignInError) {
        self.environment = environment
        do {
            credentials = try CredentialStore(environment: environment)
            transport = try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: CratesVersion.current)))
        } catch {
            throw .unusable("\(error)")
        }
        endpoints = DiscogsEndpoints(environment: environment)
    }

    /// Checks the token with Discogs, saves it, and returns the username it belongs to.
    public func withToken(_ token: String) async throws(SignInError) -> String {
        try await checkAndSave(.personalToken(token))
    }

    /// Whether OAuth can be offered: the build or the configuration has an application's
    /// consumer key and secret.
    public var offersOAuth: Bool { consumer != nil }

    private var consumer: DiscogsConsumer? {
        DiscogsConsumer.resolve(environment: environment, configDirectory: credentials.directory)
    }

    /// OAuth, legs 1 and 2: the temporary credentials and the Discogs page where the person
    /// allows crates and is shown a code.
    public func startOAuth() async throws(SignInError) -> OAuthStart {
        guard let consumer else { throw .noConsumer }
        let client = self.client(nil)
        let requestToken = try await Self.call { () async throws(DiscogsError) in
            try await client.requestToken(consumerKey: consumer.key, consumerSecret: consumer.secret)
        }
        return OAuthStart(consumer: consumer, requestToken: requestToken, authorizeURL: client.authorizeURL(requestToken: requestToken))
    }

    /// OAuth, leg 3: trades the code the person pasted for token credentials, checks and
    /// saves them; returns the username.
    public func finishOAuth(_ start: OAuthStart, verifier: String) async throws(SignInError) -> String {
        let client = self.client(nil)
        let access = try await Self.call { () async throws(DiscogsError) in
            try await client.accessToken(
                consumerKey: start.consumer.key, consumerSecret: start.consumer.secret, requestToken: start.requestToken,
                verifier: verifier)
        }
        return try await checkAndSave(.oauth(
            consumerKey: start.consumer.key, consumerSecret: start.consumer.secret, token: access.token, tokenSecret: access.secret))
    }

    /// Who is signed in, checked with Discogs when it can be reached.
    public func status() async throws(SignInError) -> SignInStatus {
        let stored: StoredCredentials?
        do {
            stored = try credentials.load()
        } catch {
            throw .unusable("\(error)")
        }
        guard let stored else { return .signedOut }
        let who = stored.username.map(ControlCharacters.cleaned) ?? "an unknown user"
        let saved = "Signed in to Discogs as \(who) with a \(stored.credentials.kindDescription) (saved in \(credentials.path))"
        do {
            let identity = try await client(stored.credentials).identity()
            return .checked("\(saved); Discogs accepts them as \(ControlCharacters.cleaned(identity.username)).")
        } catch .unauthorized(let message) {
            return .refused(saved, DiscogsAccessError.refused(message: message).description)
        } catch {
            return .unchecked("\(saved); not checked: \(error)")
        }
    }

    /// Forgets the saved credentials. False when there were none.
    public func logout() throws(SignInError) -> Bool {
        do {
            return try credentials.delete()
        } catch {
            throw .unusable("\(error)")
        }
    }

    private func client(_ credentials: DiscogsCredentials?) -> DiscogsClient {
        DiscogsClient(transport: transport, endpoints: endpoints, credentials: credentials, rateLimiter: limiter)
    }

    private func checkAndSave(_ credentials: DiscogsCredentials) async throws(SignInError) -> String {
        let client = self.client(credentials)
        let identity = try await Self.call { () async throws(DiscogsError) in try await client.identity() }
        do {
            try self.credentials.save(StoredCredentials(credentials: credentials, username: identity.username))
        } catch {
            throw .unusable("\(error)")
        }
        return ControlCharacters.cleaned(identity.username)
    }

    /// Turns a refused credential into the message signing in owes its user.
    private static func call<T>(_ body: () async throws(DiscogsError) -> T) async throws(SignInError) -> T {
        do {
            return try await body()
        } catch .unauthorized(let message) {
            throw .refused(message)
        } catch {
            throw .discogs(error)
        }
    }
}

/// OAuth between its second and third leg.
public struct OAuthStart: Sendable {
    let consumer: DiscogsConsumer
    let requestToken: OAuthTokenPair
    /// The page to open.
    public let authorizeURL: String
}

/// What `crates auth --status` says.
public enum SignInStatus: Sendable, Equatable {
    case signedOut
    /// Discogs accepts the saved credentials.
    case checked(String)
    /// Discogs could not be asked.
    case unchecked(String)
    /// Discogs refuses them: the saved line, then why.
    case refused(String, String)
}

/// Why signing in did not work.
public enum SignInError: Error, CustomStringConvertible {
    case noConsumer
    case noToken
    case malformedToken
    /// Far longer than a Discogs token (40 characters): not one, and sent as a header it
    /// would only make Discogs answer with an error page.
    case tokenTooLong(characters: Int)
    case noVerifier
    case refused(String)
    case discogs(DiscogsError)
    case unusable(String)

    public var description: String {
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
        case .tokenTooLong(let characters):
            "that is not a Discogs token: it has \(characters) characters, and a token has 40; paste the personal access token from https://www.discogs.com/settings/developers"
        case .noVerifier: "no code was entered: run `crates auth` again and paste the code Discogs shows"
        case .refused(let message): DiscogsError.refusal(message) ?? "Discogs refused the credentials: \(message)"
        case .discogs(let error): error.description
        case .unusable(let reason): reason
        }
    }

    /// The reason in the sign-in form's words (the collection UI's `A`): what to do there,
    /// not which command to run. `token`: the person tried a personal access token.
    public func inForm(token: Bool) -> String {
        switch self {
        case .noConsumer:
            "OAuth needs a Discogs application's consumer key and secret (discogs_consumer_key and discogs_consumer_secret in config.json): paste a personal access token instead"
        case .noToken: "Paste your personal access token first: make one at https://www.discogs.com/settings/developers"
        case .noVerifier: "Paste the code the Discogs page shows first"
        case .refused(let message) where token:
            DiscogsError.refusal(message) != nil || message.isEmpty
                ? "Discogs refused this token: it is wrong or was revoked. Make a new one at https://www.discogs.com/settings/developers (\"Generate new token\") and paste it here"
                : "Discogs refused this token (\(message)): check it at https://www.discogs.com/settings/developers and paste it again"
        case .refused(let message):
            "Discogs refused the code\(message.isEmpty ? "" : " (\(message))")"
        case .malformedToken, .tokenTooLong, .discogs, .unusable: description.prefix(1).uppercased() + description.dropFirst()
        }
    }

    /// The token as typed or piped: trimmed, and refused when empty, not plain printable
    /// ASCII, or far longer than a token (a token is never anything else).
    public static func token(from line: String?) throws(SignInError) -> String {
        let token = (line ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .noToken }
        guard token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { throw .malformedToken }
        guard token.utf8.count <= maximumTokenLength else { throw .tokenTooLong(characters: token.utf8.count) }
        return token
    }

    /// Discogs' personal access tokens have 40 characters; room for a longer kind, never
    /// for a pasted file.
    public static let maximumTokenLength = 256
}
