import CratesCore

/// The sign-in form (`A`): who is signed in, and a field for a personal access token, or, by
/// OAuth when the build or the configuration has an application's key, the Discogs page to
/// allow crates on and a field for the code it shows. What is sent is checked with Discogs
/// by the session before it is saved.
public struct SignInState: Equatable, Sendable {
    public enum Route: Equatable, Sendable {
        /// A personal access token, pasted.
        case token
        /// OAuth: the page, then the code it shows.
        case oauth
    }

    /// The Discogs page to open for OAuth.
    public struct Page: Equatable, Sendable {
        public var url: String
        /// A browser was started on it.
        public var opened: Bool
    }

    /// Who is signed in; nil until the session says.
    public var account: SignInAccount?
    public var route: Route = .token
    /// OAuth's page, once Discogs has given one.
    public var page: Page?
    /// The token or the code as typed (a token is drawn masked).
    public var text = ""
    /// What the form waits for ("Checking the token with Discogs…"); keys wait meanwhile.
    public var waiting: String?
    /// Why the last send did not sign in.
    public var error: String?
    public var back: AppState.Back = .list

    public init(back: AppState.Back = .list) {
        self.back = back
    }

    /// Room for a token (40 characters) or a code many times over: a paste gone wrong is
    /// refused with its length by the session, and cannot fill the memory.
    static let maximumTyped = 1000

    /// The keys that ask Discogs for a new page and code, from `route`: Tab leaves OAuth for
    /// the token, and Tab from the token asks for a page.
    static func newPageKeys(route: Route) -> String {
        route == .oauth ? "Tab twice asks Discogs for a new page and code" : "Tab asks Discogs for a page and code"
    }

    /// Whether the field takes keys now.
    var editing: Bool {
        guard account != nil, waiting == nil else { return false }
        return route == .token || page != nil
    }
}
