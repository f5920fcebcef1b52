import CratesCore
import Foundation

/// One HTTP request, as the Discogs client builds it.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: String
    /// Sent in this order. An `Authorization` value is a secret: never log it.
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// Response headers, looked up without regard to case (RFC 9110 section 5.1: field names are
/// case-insensitive; Discogs sends `x-discogs-ratelimit`, older servers `X-Discogs-Ratelimit`).
public struct HTTPHeaders: Sendable, Hashable {
    private var fields: [String: String] = [:]

    public init(_ pairs: [(String, String)] = []) {
        for (name, value) in pairs { add(name: name, value: value) }
    }

    /// Adds a field; a repeated name keeps both values joined by ", " (RFC 9110 section 5.3).
    public mutating func add(name: String, value: String) {
        let key = name.lowercased()
        if let old = fields[key] { fields[key] = old + ", " + value } else { fields[key] = value }
    }

    public subscript(name: String) -> String? { fields[name.lowercased()] }

    public var names: [String] { Array(fields.keys).sorted() }
}

/// One HTTP response.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data
    /// The URL the response came from (the transport follows no redirect, so it is the one
    /// asked for; the client checks its host all the same).
    public var effectiveURL: String

    public init(status: Int, headers: HTTPHeaders, body: Data, effectiveURL: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
    }

    /// The media type of `Content-Type`, lowercased, without parameters.
    public var mediaType: String? {
        headers["Content-Type"].map {
            String($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        }
    }
}

/// Sends HTTP requests. `CurlTransport` is the real one.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// Why a request got no HTTP response. Messages never carry a header value.
public enum TransportError: Error, Hashable, Sendable, LocalizedError, CustomStringConvertible {
    /// The URL cannot be parsed, or its scheme is neither http nor https.
    case invalidURL(String)
    /// Plain http to a host that is not loopback: refused, credentials would travel in clear.
    case insecureURL(host: String)
    /// DNS, refused connection, unreachable network: probably offline.
    case cannotConnect(String)
    /// The connection broke after the request went out: reset, closed without an answer,
    /// or an answer cut short. Transient: the same request may well succeed at once.
    case connectionLost(String)
    case timedOut(seconds: Double)
    /// The task sending the request was cancelled (Ctrl-C, a stopping worker): the transfer
    /// was abandoned. Not a failure of the request.
    case cancelled
    /// Certificate or TLS handshake failure.
    case tls(String)
    /// The answer was longer than crates reads (`CurlTransport.Configuration.maximumBodyBytes`).
    case tooLarge(limit: Int)
    /// Any other libcurl failure (code and curl's own text).
    case curl(code: Int, message: String)

    /// What happened, in crates' words; libcurl's own text is `detail` (`--verbose`).
    public var description: String {
        switch self {
        case .invalidURL(let url): "not an http(s) URL: \(ControlCharacters.clipped(url))"
        case .insecureURL(let host): "refusing plain http to \(host): use https (plain http is only for loopback)"
        case .cannotConnect: "no connection could be made (no network, a name that does not resolve, or nothing answering at the address)"
        case .connectionLost: "the connection broke before the answer was complete"
        case .timedOut(let seconds): "no answer within \(Self.format(seconds)) s"
        case .tls: "the secure connection failed (the certificate or the TLS handshake)"
        case .tooLarge(let limit): "the answer was longer than the \(limit) bytes crates reads"
        // -1: no transfer began (libcurl not loaded, or no handle): its own words say why.
        case .curl(-1, let message): "no transfer could begin: \(ControlCharacters.clipped(message))"
        case .curl(let code, _): "the transfer failed (libcurl error \(code))"
        case .cancelled: "cancelled"
        }
    }

    /// libcurl's own text, for `--verbose`; nil when there is nothing more to say.
    public var detail: String? {
        switch self {
        case .cannotConnect(let text), .connectionLost(let text), .tls(let text), .curl(_, let text): text
        case .invalidURL, .insecureURL, .timedOut, .tooLarge, .cancelled: nil
        }
    }

    public var errorDescription: String? { description }

    /// True when the network (or the server) is unreachable, rather than the request wrong.
    public var isOffline: Bool {
        switch self {
        case .cannotConnect, .timedOut: true
        default: false
        }
    }

    /// True when sending the same request again soon may well work: no connection, a broken
    /// one, no answer in time. Not a TLS failure (a certificate does not fix itself), nor a
    /// URL crates refuses.
    public var isTransient: Bool {
        switch self {
        case .cannotConnect, .connectionLost, .timedOut: true
        case .invalidURL, .insecureURL, .tls, .tooLarge, .curl, .cancelled: false
        }
    }

    private static func format(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(format: "%.1f", s)
    }
}
