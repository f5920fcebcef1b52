import CratesCore
import CratesNet
import Foundation

/// Tests/DiscogsServer/data_site.py as a child process on 127.0.0.1: a stand-in for Discogs'
/// data site (Range ignored unless told, 429 after a number of requests, connections dropped
/// mid-body, a month without its checksum file), counting the requests it gets. It exits
/// when its stdin closes; `stop()` ends it at once.
public final class DataSiteTestServer: Sendable {
    /// One request the site got (control requests are not counted).
    public struct Request: Decodable, Sendable, CustomStringConvertible {
        public var name: String?
        public var status: Int?
        /// The `Range` header asked with, if any.
        public var range: String?
        /// Body bytes sent.
        public var sent: Int
        public var head: Bool

        public var description: String {
            "\(head ? "HEAD" : "GET") \(name ?? "?") → \(status.map(String.init) ?? "…")\(range.map { " (Range: \($0))" } ?? "") sent \(sent)"
        }
    }

    public struct Stats: Decodable, Sendable {
        public var requests: Int
        public var log: [Request]
        public var held: Int
        /// The generated releases file's size and SHA-256.
        public var size: Int
        public var sha256: String
    }

    public let port: Int
    private let process: ChildProcess

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
    }

    /// Starts a site whose releases file holds `releases` generated releases (3,000: about
    /// 170 kB gzipped).
    public static func start(releases: Int = 3000) async throws -> DataSiteTestServer {
        let (process, port) = try await startLoopbackServer(
            [packageRoot + "/Tests/DiscogsServer/data_site.py", "--releases", String(releases)], named: "the loopback data site")
        return DataSiteTestServer(port: port, process: process)
    }

    deinit {
        process.closeStdin()
        process.signal(SIGKILL)
    }

    public func stop() async {
        process.signal(SIGKILL)
        _ = await process.result()
    }

    public var base: String { "http://127.0.0.1:\(port)" }

    public func stats() async throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try await control("stats"))
    }

    /// Answers a `Range` with 206 from its start (the real site ignores it: 200, whole file).
    public func honourRange(_ honour: Bool = true) async throws {
        try await control("range?honour=\(honour ? 1 : 0)")
    }

    /// The next `count` downloads of the releases file break off after `after` bytes.
    public func drop(after: Int, count: Int = 1) async throws {
        try await control("drop?after=\(after)&count=\(count)")
    }

    /// The next download of the releases file sends `after` bytes, then waits for `release()`.
    public func hold(after: Int) async throws {
        try await control("hold?after=\(after)")
    }

    public func release() async throws {
        try await control("release")
    }

    /// After `after` more requests, every request gets 429 with `Retry-After: retry`.
    public func throttle(after: Int, retry: String = "3600") async throws {
        try await control("throttle?after=\(after)&retry=\(retry)")
    }

    /// No checksum file for the current month (UTC): its dump is not complete yet.
    public func currentMonthMissing() async throws {
        try await control("missing?month=current")
    }

    /// No checksum file for the dump of `date` (YYYYMMDD).
    public func missing(date: String) async throws {
        try await control("missing?date=\(date)")
    }

    /// The checksum file names a wrong digest for the releases file.
    public func wrongChecksum() async throws {
        try await control("checksum?wrong=1")
    }

    /// Whether downloads carry `Content-Length`.
    public func sendLength(_ send: Bool) async throws {
        try await control("length?send=\(send ? 1 : 0)")
    }

    /// Waits until a download is held (`hold(after:)`).
    public func waitUntilHeld(within deadline: Duration = defaultWaitDeadline) async throws {
        try await waitUntil("a download held by the data site", within: deadline, lastSeen: {
            (try? await self.stats()).map { "\($0.log)" } ?? "no stats"
        }) {
            try await stats().held >= 1
        }
    }

    @discardableResult
    private func control(_ pathAndQuery: String) async throws -> Data {
        let transport = try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 60))
        let response = try await transport.send(HTTPRequest(url: base + "/_control/" + pathAndQuery))
        guard response.status == 200 else {
            throw TestServerError.control("\(pathAndQuery): HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return response.body
    }
}
