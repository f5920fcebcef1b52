import CratesCore
import CratesNet
import Foundation

/// The repository root, from this file's path.
public let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }  // file, CratesTestSupport, Tests
    return url.path
}()

/// Counters the loopback server keeps (GET /_control/stats).
public struct ServerStats: Decodable, Sendable {
    public var requests: Int
    public var throttled: Int
    public var connections: Int
    public var maxInWindow: Int
    public var searches: [String]
    public var releases: [String]
    public var auth: [String: Int]
    public var gzip: Int
    public var badSignatures: Int
    public var span: Double?
    /// Requests waiting now on a hold (`hold(match:)`).
    public var held: Int

    enum CodingKeys: String, CodingKey {
        case requests, throttled, connections, searches, releases, auth, gzip, span, held
        case maxInWindow = "max_in_window"
        case badSignatures = "bad_signatures"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requests = try c.decode(Int.self, forKey: .requests)
        throttled = try c.decode(Int.self, forKey: .throttled)
        connections = try c.decode(Int.self, forKey: .connections)
        maxInWindow = try c.decode(Int.self, forKey: .maxInWindow)
        searches = try c.decode([String].self, forKey: .searches)
        releases = try c.decode([String].self, forKey: .releases)
        auth = try c.decode([String: Int].self, forKey: .auth)
        gzip = try c.decode(Int.self, forKey: .gzip)
        badSignatures = try c.decode(Int.self, forKey: .badSignatures)
        span = try c.decodeIfPresent(Double.self, forKey: .span)
        held = try c.decodeIfPresent(Int.self, forKey: .held) ?? 0
    }
}

/// What the lookup tests read from the loopback server (GET /_control/stats), beyond
/// `ServerStats`: the in-flight counters, holds, the fault mix's strikes, and the order
/// requests arrived in (Tests/DiscogsServer/lookups.py).
public struct LookupServerStats: Decodable, Sendable {
    public var requests: Int
    public var throttled: Int
    public var maxInWindow: Int
    public var maxInFlight: Int
    public var held: Int
    public var searches: [String]
    public var releases: [String]
    /// API request paths (with their queries), as they arrived.
    public var order: [String]
    /// How many times each kind of the `--fault-mix` struck.
    public var mixedFaults: [String: Int]

    enum CodingKeys: String, CodingKey {
        case requests, throttled, held, searches, releases, order
        case maxInWindow = "max_in_window"
        case maxInFlight = "max_in_flight"
        case mixedFaults = "mixed_faults"
    }

    /// Requests whose path contains `text`.
    public func count(_ text: String) -> Int { order.count { $0.contains(text) } }

    /// Where the first request whose path contains `text` came, if any came.
    public func position(_ text: String) -> Int? { order.firstIndex { $0.contains(text) } }
}

public enum TestServerError: Error, CustomStringConvertible {
    case didNotStart(String)
    case control(String)

    public var description: String {
        switch self {
        case .didNotStart(let why): "the loopback Discogs server did not start: \(why)"
        case .control(let why): "the loopback Discogs server's control request failed: \(why)"
        }
    }
}

/// Starts `python3 SCRIPT…` (a loopback server that prints its port as its first line and
/// exits when its stdin closes) and waits for its port without blocking a thread, at most
/// 30 s.
func startLoopbackServer(_ arguments: [String], named what: String) async throws -> (ChildProcess, Int) {
    let process = try ChildProcess.start(
        URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3"] + arguments, keepStdinOpen: true, deadline: nil)
    do {
        let port = try await waitFor("\(what)'s port on its first line", lastSeen: {
            "stdout: \(process.stdoutSoFar)\nstderr: \(process.stderrSoFar)"
        }) { () -> Int? in
            let out = process.stdoutSoFar
            if process.hasExited && !out.contains("\n") { throw TestServerError.didNotStart(process.stderrSoFar) }
            guard let line = out.split(separator: "\n", omittingEmptySubsequences: false).first, out.contains("\n") else {
                return nil
            }
            guard let port = Int(line.trimmingCharacters(in: .whitespaces)) else {
                throw TestServerError.didNotStart("its first line is not a port: \(line)")
            }
            return port
        }
        return (process, port)
    } catch {
        process.signal(SIGKILL)
        throw error
    }
}

/// Tests/DiscogsServer/server.py as a child process on 127.0.0.1, for the real libcurl
/// transport (in process, or in the `crates` binary) to talk to. It exits when its stdin
/// closes, so a crashed test leaves nothing; `stop()` ends it at once.
public final class DiscogsTestServer: Sendable {
    public static let token = "test-token-5f1c2a"
    public static let consumerKey = "ck-crates-test"
    public static let consumerSecret = "cs-crates-test-secret"
    public static let verifier = "4Q7TZ2KM"

    public let port: Int
    /// The personal token the server accepts.
    public let token: String
    private let process: ChildProcess

    private init(port: Int, token: String, process: ChildProcess) {
        self.port = port
        self.token = token
        self.process = process
    }

    /// Starts a server accepting `token` (and the test consumer key); `extra` is appended to
    /// its arguments (e.g. ["--limit", "5", "--window", "1"]). Waits for its port without
    /// blocking a thread, at most 30 s.
    public static func start(_ extra: [String] = [], token: String = DiscogsTestServer.token) async throws -> DiscogsTestServer {
        let (process, port) = try await startLoopbackServer(
            [
                packageRoot + "/Tests/DiscogsServer/server.py",
                "--fixtures", packageRoot + "/Fixtures/discogs",
                "--token", token, "--consumer", "\(consumerKey):\(consumerSecret)",
                "--verifier", verifier,
            ] + extra,
            named: "the loopback Discogs server")
        return DiscogsTestServer(port: port, token: token, process: process)
    }

    deinit {
        process.closeStdin()
        process.signal(SIGKILL)
    }

    /// Ends the server and waits until it is gone: its port refuses connections after this.
    public func stop() async {
        process.signal(SIGKILL)
        _ = await process.result()
    }

    public var base: String { "http://127.0.0.1:\(port)" }
    public var endpoints: DiscogsEndpoints { DiscogsEndpoints(api: base, web: base) }

    public func stats() async throws -> ServerStats {
        try JSONDecoder().decode(ServerStats.self, from: try await control("stats"))
    }

    /// The counters of lookups.py: the order requests came in, in flight, the fault mix.
    public func lookupStats() async throws -> LookupServerStats {
        try JSONDecoder().decode(LookupServerStats.self, from: try await control("stats"))
    }

    /// Clears the counters, the window, the faults, the nonces, and releases every hold.
    public func reset() async throws {
        try await control("reset")
    }

    /// The next `count` requests whose path contains `match` get the fault `kind`.
    public func inject(_ kind: String, count: Int = 1, match: String = "") async throws {
        try await control("fault", [("kind", kind), ("count", String(count)), ("match", match)])
    }

    /// Every request whose path (with its query) contains `match` is held, unanswered,
    /// until `release` (or `reset`): the work under test waits for the test. `stats().held`
    /// counts the requests waiting.
    ///
    /// With `count`, only the next `count` such requests are held, once the window has
    /// admitted them (they count in it): a slow answer, as Discogs' own can be.
    public func hold(match: String, count: Int? = nil) async throws {
        try await control("hold", [("match", match)] + (count.map { [("count", String($0))] } ?? []))
    }

    /// Lets the requests held for `match` (every hold when nil) go on, and holds no more.
    public func release(match: String? = nil) async throws {
        try await control("release", match.map { [("match", $0)] } ?? [])
    }

    /// Waits until at least `count` requests are held.
    public func waitUntilHeld(_ count: Int = 1, within deadline: Duration = defaultWaitDeadline) async throws {
        try await waitUntil("\(count) request(s) held by the loopback server", within: deadline, lastSeen: {
            (try? await self.stats()).map { "held \($0.held), releases \($0.releases), searches \($0.searches)" } ?? "no stats"
        }) {
            try await stats().held >= count
        }
    }

    /// The body of a page of the server (`url` whole), as a browser would show it: a test
    /// that signs in as a user visits the authorisation page this way.
    public func page(_ url: String) async throws -> String {
        let transport = try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 60))
        return String(decoding: try await transport.send(HTTPRequest(url: url)).body, as: UTF8.self)
    }

    /// The requests the marketplace endpoints answered (marketplace.py).
    public struct MarketplaceCounts: Decodable, Hashable, Sendable {
        /// The user's profile (`GET /users/{u}`), which carries the account's currency.
        public var profile: Int
        public var value: Int
        public var stats: Int
        public var suggestions: Int
    }

    public func marketplaceCounts() async throws -> MarketplaceCounts {
        struct Stats: Decodable { var marketplace: MarketplaceCounts }
        return try JSONDecoder().decode(Stats.self, from: try await control("stats")).marketplace
    }

    /// Whether the account has seller settings: "yes" (a price per grade), "no" (`{}`), or
    /// "forbidden" (403).
    public func sellerSettings(_ answer: String) async throws {
        try await control("marketplace", [("seller", answer)])
    }

    /// The account's currency (`curr_abbr`, "USD" until set): its profile says it, and the
    /// marketplace answers in it when asked in none.
    public func accountCurrency(_ code: String) async throws {
        try await control("marketplace", [("currency", code)])
    }

    /// The body `GET /marketplace/stats/RELEASE` answers from now on, as given.
    public func marketplaceStats(release: Int, body: String) async throws {
        try await control("marketplace", [("release", String(release)), ("stats", body)])
    }

    /// The collection's value the server answers from now on, as Discogs writes it.
    public func collectionValue(minimum: String, median: String, maximum: String) async throws {
        let value = try JSONSerialization.data(withJSONObject: ["minimum": minimum, "median": median, "maximum": maximum])
        try await control("marketplace", [("value", String(decoding: value, as: UTF8.self))])
    }

    /// What covers.py counted: every image request, and each image's path.
    public struct CoverCounts: Decodable, Hashable, Sendable {
        public var requests: Int
        public var paths: [String: Int]
    }

    public func coverCounts() async throws -> CoverCounts {
        try JSONDecoder().decode(CoverCounts.self, from: try await control("covers"))
    }

    /// The image a release's addresses serve: "jpeg" or "png" (64×64, the left half red, the
    /// right half blue), "404", "corrupt" (a JPEG's header and no image), "webp"; "gif",
    /// "svg", "html" (a 200 page) and "huge" (17 MB that begin as a JPEG).
    public func setCover(release: Int, _ kind: String) async throws {
        try await control("covers/set", [("release", String(release)), ("kind", kind)])
    }

    /// GET /_control/NAME?QUERY through a transport of its own, apart from the one under test.
    @discardableResult
    private func control(_ name: String, _ query: [(name: String, value: String)] = []) async throws -> Data {
        let transport = try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 60))
        let url = base + "/_control/" + name + (query.isEmpty ? "" : "?" + OAuthPercentEncoding.formString(query))
        let response = try await transport.send(HTTPRequest(url: url))
        guard response.status == 200 else {
            throw TestServerError.control("\(name): HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return response.body
    }
}
