import CratesCore
import Foundation

/// The Discogs API calls crates makes, over any `HTTPTransport`, paced by a `RateLimiter`,
/// with every response checked: the host asked, the status, the content type, the body.
public struct DiscogsClient: Sendable {
    public let transport: any HTTPTransport
    public let endpoints: DiscogsEndpoints
    public let credentials: DiscogsCredentials?
    public let rateLimiter: RateLimiter
    /// How many times one request is sent again after a 429 before giving up (the lookup is
    /// then retried later, never lost).
    public var maximumThrottledAttempts = 5
    /// Seconds since 1970, for `oauth_timestamp`; injectable for tests.
    public var timestamp: @Sendable () -> Int = { Int(Date().timeIntervalSince1970) }
    /// For `oauth_nonce`; injectable for tests.
    public var nonce: @Sendable () -> String = { HMACSHA1.nonce() }

    public init(transport: any HTTPTransport, endpoints: DiscogsEndpoints, credentials: DiscogsCredentials?, rateLimiter: RateLimiter) {
        self.transport = transport
        self.endpoints = endpoints
        self.credentials = credentials
        self.rateLimiter = rateLimiter
    }

    /// `GET /database/search?type=release&barcode=FORM&per_page=100`: the pressings whose
    /// barcode text matches `barcode`. 100 is the largest page Discogs serves; more pressings
    /// than that under one barcode do not occur in practice, and the first page is enough to
    /// tell "one" from "several".
    public func searchReleases(barcode: String) async throws(DiscogsError) -> DiscogsSearchPage {
        let query = OAuthPercentEncoding.formString([("type", "release"), ("barcode", barcode), ("per_page", "100")])
        let response = try await send(method: "GET", path: "/database/search?" + query, accept: .json)
        return try decode(DiscogsSearchPage.self, from: response.body)
    }

    /// `GET /releases/{id}`: the release in full, and the JSON it came as.
    public func release(id: Int) async throws(DiscogsError) -> Release {
        let response = try await send(method: "GET", path: "/releases/\(id)", accept: .json)
        let decoded = try decode(DiscogsRelease.self, from: response.body)
        return decoded.release(rawJSON: String(decoding: response.body, as: UTF8.self), webBase: endpoints.web)
    }

    /// `GET /oauth/identity`: whose credentials these are.
    public func identity() async throws(DiscogsError) -> DiscogsIdentity {
        let response = try await send(method: "GET", path: "/oauth/identity", accept: .json)
        return try decode(DiscogsIdentity.self, from: response.body)
    }

    // MARK: - Requests

    /// What a response body must be.
    enum Expected {
        case json
        /// `application/x-www-form-urlencoded` (the OAuth token endpoints).
        case form
        /// No body to read: a 204 No Content (Discogs' collection edits and deletes), which
        /// has neither body nor content type (RFC 9110 section 15.3.5).
        case nothing
    }

    /// Sends one request to the API (paced, signed anew on each attempt, a 429 honoured and
    /// sent again) and checks the response. Returns only a 2xx. A `jsonBody` goes as
    /// `application/json`, which OAuth does not sign (RFC 5849 section 3.4.1.3.1 signs only
    /// form bodies); the query and a `formBody` are signed.
    func send(
        method: String, path: String, formBody: [(name: String, value: String)] = [], jsonBody: Data? = nil, accept: Expected,
        authorization: (@Sendable (_ method: String, _ url: String, _ body: [(name: String, value: String)]) -> String?)? = nil
    ) async throws(DiscogsError) -> HTTPResponse {
        let url = endpoints.api + path
        guard let expectedHost = URLComponents(string: url)?.host?.lowercased() else { throw .invalidURL(url) }
        var attempt = 0
        while true {
            attempt += 1
            // A cancelled task (Ctrl-C, a time limit) sends nothing more: the lookup in hand
            // then ends at its next request and goes back to the queue.
            if Task.isCancelled { throw .transport(.cancelled) }
            var headers: [(name: String, value: String)] = [("Accept", "application/json")]
            let auth = authorization.map { $0(method, url, formBody) }
                ?? credentials?.authorization(method: method, url: url, formBody: formBody, timestamp: timestamp(), nonce: nonce())
            if let auth { headers.append(("Authorization", auth)) }
            var body: Data? = nil
            if let jsonBody {
                headers.append(("Content-Type", "application/json"))
                body = jsonBody
            } else if !formBody.isEmpty || method == "POST" {
                headers.append(("Content-Type", "application/x-www-form-urlencoded"))
                body = Data(OAuthPercentEncoding.formString(formBody).utf8)
            }
            let ticket: RateLimiter.Ticket
            do { ticket = try await rateLimiter.acquire(priority: RequestPriority.current) } catch { throw .transport(.cancelled) }
            SentRequests.current?.add()
            let response: HTTPResponse
            do {
                response = try await transport.send(HTTPRequest(method: method, url: url, headers: headers, body: body))
            } catch {
                await rateLimiter.abandon(ticket)
                if error != .cancelled { Diagnostics.note("\(method) \(Self.shown(url)): \(error.detail ?? error.description)") }
                throw .transport(error)
            }
            await rateLimiter.complete(ticket, status: response.status, headers: response.headers)
            if response.status == 429, attempt < maximumThrottledAttempts { continue }
            try Self.check(response, expectedHost: expectedHost, accept: accept)
            return response
        }
    }

    /// An address for `Diagnostics`: without its query (which may carry a value the person
    /// typed, or an OAuth token).
    static func shown(_ url: String) -> String {
        String(url.prefix { $0 != "?" })
    }

    /// The checks every answer passes before its body is read; what the answer held
    /// instead goes to `Diagnostics`.
    static func check(_ response: HTTPResponse, expectedHost: String, accept: Expected) throws(DiscogsError) {
        do {
            try checked(response, expectedHost: expectedHost, accept: accept)
        } catch {
            if Diagnostics.isEnabled { Diagnostics.note(detail(of: response, accept: accept)) }
            throw error
        }
    }

    /// What `response` was, for `Diagnostics`: its status, where it came from, and the
    /// first bytes of its body (not of a token answer, which may hold a secret).
    static func detail(of response: HTTPResponse, accept: Expected) -> String {
        var parts = ["HTTP \(response.status) from \(shown(response.effectiveURL))"]
        if let location = response.headers["Location"] { parts.append("Location: \(location)") }
        if let type = response.headers["Content-Type"] { parts.append("Content-Type: \(type)") }
        if accept != .form, !response.body.isEmpty { parts.append("body: \(DiscogsText.preview(response.body, limit: 400))") }
        return parts.joined(separator: "; ")
    }

    private static func checked(_ response: HTTPResponse, expectedHost: String, accept: Expected) throws(DiscogsError) {
        let actualHost = URLComponents(string: response.effectiveURL)?.host?.lowercased() ?? ""
        guard actualHost == expectedHost else {
            throw .wrongHost(expected: expectedHost, actual: ControlCharacters.clipped(actualHost.isEmpty ? response.effectiveURL : actualHost))
        }
        switch response.status {
        case 200..<300:
            break
        case 300..<400:
            let location = response.headers["Location"].map { URLComponents(string: $0)?.host ?? $0 } ?? "nowhere"
            throw .redirected(status: response.status, location: ControlCharacters.clipped(location))
        default:
            let message = Self.message(in: response)
            switch response.status {
            case 401: throw .unauthorized(message: message)
            case 403: throw .forbidden(message: message)
            case 404: throw .notFound(message: message)
            case 422: throw .unprocessable(message: message)
            case 429: throw .rateLimited(message: message)
            case 500...: throw .server(status: response.status, message: message)
            default: throw .http(status: response.status, message: message)
            }
        }
        let type = response.mediaType ?? ""
        switch accept {
        case .json:
            guard type == "application/json" || type.hasSuffix("+json") else {
                throw .unexpectedContentType(type.isEmpty ? "no content type" : ControlCharacters.clipped(type), preview: DiscogsText.preview(response.body))
            }
        case .form:
            // Discogs documents the token answers as form-encoded; accept text/plain too,
            // which some OAuth servers send, and let the parser judge the content.
            guard type.isEmpty || type == "application/x-www-form-urlencoded" || type == "text/plain" else {
                throw .unexpectedContentType(ControlCharacters.clipped(type), preview: DiscogsText.preview(response.body))
            }
        case .nothing:
            break  // whatever came with it is not read
        }
    }

    /// Discogs' `{"message": …}`, or empty when it sent none (an HTML error page from a
    /// proxy is not quoted: `Diagnostics` has it).
    static func message(in response: HTTPResponse) -> String {
        if let body = try? JSONDecoder().decode(DiscogsMessage.self, from: response.body) {
            return ControlCharacters.clipped(body.message, limit: 200)
        }
        return ""
    }

    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(DiscogsError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            Diagnostics.note("an answer that does not parse as \(T.self) (\(error)): \(DiscogsText.preview(body, limit: 400))")
            throw .malformedBody(preview: DiscogsText.preview(body))
        }
    }
}
