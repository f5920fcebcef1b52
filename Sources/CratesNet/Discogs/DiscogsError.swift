import CratesCore
import Foundation

/// Why a Discogs request failed, with a message the user can act on. Messages show what
/// Discogs said (its `message`), never a credential nor a raw body (see `description`).
public enum DiscogsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No HTTP answer: offline, DNS, timeout, TLS…
    case transport(TransportError)
    /// 401: the credentials are missing, wrong or revoked. Stops the lookup worker.
    case unauthorized(message: String)
    /// 403: signed in, but not as someone allowed to see or change this: another user's
    /// collection (or a private one, asked without credentials).
    case forbidden(message: String)
    /// 404, e.g. a release deleted since the search found it.
    case notFound(message: String)
    /// 422: Discogs understood the request but does not take the value (e.g. a condition that
    /// is not among the user's dropdown options, or adding to folder 0).
    case unprocessable(message: String)
    /// 429 again and again: Discogs kept refusing after the pauses.
    case rateLimited(message: String)
    /// 5xx: Discogs' own trouble.
    case server(status: Int, message: String)
    /// Any other status of 400 or more.
    case http(status: Int, message: String)
    /// A 3xx: the transport follows none (a redirect to another host could leak a token).
    /// `location` is the host it points to (the whole address when it names none).
    case redirected(status: Int, location: String)
    /// The answer came from another host than the one asked.
    case wrongHost(expected: String, actual: String)
    /// The content type is not the one expected (e.g. an HTML error page from a proxy).
    case unexpectedContentType(String, preview: String)
    /// The body does not parse: the first bytes, cleaned, are shown.
    case malformedBody(preview: String)
    /// A base URL from the configuration is not usable.
    case invalidURL(String)

    /// What happened, in crates' words. Discogs' own `message` (from its JSON) is quoted;
    /// a raw body (an HTML error page, an answer cut short), a redirect's full address and
    /// libcurl's text never are: they go to `Diagnostics` (`--verbose`).
    public var description: String {
        switch self {
        case .transport(let e):
            switch e {
            case .connectionLost, .timedOut: "Discogs did not answer: \(e)"
            // Discogs answered: with more than crates reads, which is no sign of a network down.
            case .tooLarge: "Discogs' answer was too large: \(e)"
            default: "Discogs is unreachable: \(e)"
            }
        case .unauthorized(let m): Self.refusal(m) ?? "Discogs refused the credentials\(Self.said(m)): run `crates auth`"
        case .forbidden(let m):
            "Discogs refused access\(Self.said(m)): the collection belongs to another Discogs user, or crates is not signed in as its owner: run `crates auth` as the owner"
        case .unprocessable(let m):
            "Discogs did not accept the value\(Self.said(m)): check it against your Discogs collection fields' options"
        case .notFound(let m): m.isEmpty ? "Discogs has no such resource" : "Discogs has no such resource: \(m)"
        case .rateLimited(let m): m.isEmpty ? "Discogs is limiting requests" : "Discogs is limiting requests: \(m)"
        case .server(let s, let m): "Discogs had a problem (HTTP \(s))\(m.isEmpty ? "" : ": \(m)")"
        case .http(let s, let m): "Discogs refused the request (HTTP \(s))\(m.isEmpty ? "" : ": \(m)")"
        case .redirected(_, let l): "Discogs' address answered with a redirect to \(l): a network login page?"
        case .wrongHost(let e, let a): "the answer came from \(a), not \(e): refused"
        case .unexpectedContentType(let t, _):
            t == "text/html"
                ? "Discogs answered with a web page instead of data: something between crates and Discogs (a proxy, a network login page) answered for it?"
                : "Discogs answered with \(t) instead of data"
        case .malformedBody: "Discogs' answer was cut short or is not one crates can read"
        case .invalidURL(let u): "not a usable Discogs URL: \(u) (check CRATES_DISCOGS_API / CRATES_DISCOGS_WEB)"
        }
    }

    /// What a 401 means for the collector, when Discogs' own words would mislead: it answers
    /// "Invalid consumer token. Please register an app before making requests." to a personal
    /// access token it does not know (it sends that text only for `Discogs token=`), and a
    /// token user has no app to register. Nil for other messages, which are quoted as sent.
    public static func refusal(_ message: String) -> String? {
        guard message.lowercased().hasPrefix("invalid consumer token") else { return nil }
        return """
            Discogs refused the credentials: the personal access token is wrong or was revoked. \
            Make a new one at https://www.discogs.com/settings/developers ("Generate new token") \
            and run `crates auth --token`
            """
    }

    /// " (Discogs' message)", or nothing when it sent none.
    private static func said(_ message: String) -> String {
        message.isEmpty ? "" : " (\(message))"
    }

    /// True when the same request may well succeed later (the lookup is retried with backoff).
    public var isRetryable: Bool {
        switch self {
        case .transport, .notFound, .rateLimited, .server, .malformedBody, .unexpectedContentType, .redirected: true
        case .unauthorized, .forbidden, .unprocessable, .http, .wrongHost, .invalidURL: false
        }
    }

    /// True when sending the same request again in a moment may well work, so a lookup tries
    /// again within the run (after 1 s, 2 s, 4 s…) instead of failing the record: a 5xx, an
    /// answer that does not parse or is not JSON (a proxy's error page), a redirect (a
    /// captive portal or a misconfigured proxy answering for Discogs: crates follows none),
    /// no connection, a broken one, a timeout, and 429s that outlasted the client's own
    /// pauses. Not a 404: a release that is gone stays gone.
    public var isTransient: Bool {
        switch self {
        case .transport(let e): e.isTransient
        case .server, .malformedBody, .unexpectedContentType, .rateLimited, .redirected: true
        case .unauthorized, .forbidden, .notFound, .unprocessable, .http, .wrongHost, .invalidURL: false
        }
    }

    /// True when the request got no answer because its task was cancelled.
    public var isCancellation: Bool {
        self == .transport(.cancelled)
    }

    /// True when the network or Discogs cannot be reached at all.
    public var isOffline: Bool {
        if case .transport(let e) = self { return e.isOffline }
        return false
    }
}

extension DiscogsError: LocalizedError {
    public var errorDescription: String? { description }
}
