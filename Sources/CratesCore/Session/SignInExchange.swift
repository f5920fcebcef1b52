/// Signing in to Discogs from the collection UI (`A`): what the sign-in form asks of the
/// session (`SessionRequest.signIn`) and what it answers (`SessionEvent.signIn`). Every
/// credential is checked with Discogs before it is saved; nothing is saved on a failure.
public enum SignInRequest: Equatable, Sendable {
    /// Who is signed in now, and whether OAuth is offered (answered by `.account`).
    case account
    /// Check a personal access token with Discogs, then save it (`.signedIn` or `.failed`).
    case token(SecretText)
    /// OAuth's first two legs: the Discogs page to allow crates on (`.authorizePage`).
    case startOAuth
    /// OAuth's third leg: the code the Discogs page showed (`.signedIn` or `.failed`).
    case finishOAuth(verifier: String)
    /// Forget the saved credentials (`.signedOut`).
    case signOut
}

/// The session's answers to the sign-in form.
public enum SignInEvent: Equatable, Sendable {
    case account(SignInAccount)
    /// The page to open (`opened`: a browser was started on it).
    case authorizePage(url: String, opened: Bool)
    /// Discogs accepted the credentials and they are saved: the lookups start again with them.
    case signedIn(username: String)
    case signedOut
    /// Why not, in crates' words; nothing was saved.
    case failed(String)
    /// OAuth's code cannot be used (Discogs refused it, or no page was asked for): why, in
    /// crates' words; only a new page and code will do. Which key asks for one is the form's
    /// to say.
    case pageNeeded(String)
}

/// Who is signed in, as the credentials file says (the status line's account).
public struct SignInAccount: Equatable, Sendable {
    /// The Discogs user; nil when not signed in.
    public var username: String?
    /// "personal access token", "token from the OAuth 1.0a flow"; nil when not signed in.
    public var kind: String?
    /// Whether the build or the configuration has an application's consumer key, which
    /// OAuth needs.
    public var offersOAuth: Bool
    /// Why the saved credentials cannot be used (an unreadable file), if they cannot.
    public var problem: String?

    public init(username: String?, kind: String?, offersOAuth: Bool, problem: String? = nil) {
        self.username = username
        self.kind = kind
        self.offersOAuth = offersOAuth
        self.problem = problem
    }

    public var isSignedIn: Bool { kind != nil }
}

/// A secret typed by the person (a token): compared and carried like a string, never
/// printed, so that a request logged or shown in a test failure does not leak it.
public struct SecretText: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "(secret, \(value.count) characters)" }
    public var debugDescription: String { description }
}
