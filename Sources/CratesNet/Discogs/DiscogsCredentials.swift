import CratesCore

/// The three kinds of credentials Discogs accepts (https://www.discogs.com/developers,
/// "Authentication"), as sent on each request.
public enum DiscogsCredentials: Sendable, Hashable {
    /// A personal access token from the user's developer settings.
    case personalToken(String)
    /// An application's consumer key and secret: enough for the database search.
    case consumer(key: String, secret: String)
    /// OAuth 1.0a token credentials, obtained by `crates auth`.
    case oauth(consumerKey: String, consumerSecret: String, token: String, tokenSecret: String)

    /// A name for status output; never the secret.
    public var kindDescription: String {
        switch self {
        case .personalToken: "personal access token"
        case .consumer: "consumer key and secret"
        case .oauth: "token from the OAuth 1.0a flow"
        }
    }

    /// The `Authorization` value for one request. A secret: never log it or put it in an
    /// error. OAuth signs the method, the URL with its query and a form body (RFC 5849).
    func authorization(method: String, url: String, formBody: [(name: String, value: String)], timestamp: Int, nonce: String) -> String? {
        switch self {
        case .personalToken(let token):
            return "Discogs token=\(token)"
        case .consumer(let key, let secret):
            return "Discogs key=\(key), secret=\(secret)"
        case .oauth(let consumerKey, let consumerSecret, let token, let tokenSecret):
            let signer = OAuthSigner(
                consumerKey: consumerKey, consumerSecret: consumerSecret, token: token, tokenSecret: tokenSecret,
                hmac: HMACSHA1.digest)
            return signer.authorizationHeader(method: method, url: url, formBody: formBody, timestamp: timestamp, nonce: nonce)
        }
    }
}

/// Where Discogs is: the API and the web site (for the OAuth authorize page). Configurable so
/// that tests run against a server on loopback.
public struct DiscogsEndpoints: Sendable, Hashable {
    public var api: String
    public var web: String

    public static let production = DiscogsEndpoints(api: "https://api.discogs.com", web: "https://www.discogs.com")

    public init(api: String, web: String) {
        self.api = Self.trimmed(api)
        self.web = Self.trimmed(web)
    }

    /// `CRATES_DISCOGS_API` and `CRATES_DISCOGS_WEB`, else production.
    public init(environment: [String: String]) {
        self.init(
            api: environment["CRATES_DISCOGS_API"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.production.api,
            web: environment["CRATES_DISCOGS_WEB"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.production.web)
    }

    private static func trimmed(_ s: String) -> String {
        var s = Substring(s)
        while s.hasSuffix("/") { s = s.dropLast() }
        return String(s)
    }
}

/// The `User-Agent` crates sends: Discogs refuses requests without one, and asks for a name,
/// a version and a way to reach the project.
public enum DiscogsUserAgent {
    public static func make(version: String) -> String {
        "crates/\(version) +https://github.com/crates-cataloguer/crates"
    }
}

/// Printing credentials (a log line, a test failure, string interpolation) shows their
/// kind and public parts only: tokens and secrets are redacted.
extension DiscogsCredentials: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        switch self {
        case .personalToken: "personal access token (redacted)"
        case .consumer(let key, _): "consumer key \(key) (secret redacted)"
        case .oauth(let key, _, _, _): "OAuth 1.0a for consumer key \(key) (token and secrets redacted)"
        }
    }

    public var debugDescription: String { description }
}
