import CratesCore
import Foundation
import Testing

@testable import CratesNet

/// The repository root, from this file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // file, Support, CratesNetTests, Tests
    return url.path
}()

/// Counters the loopback server keeps (GET /_control/stats).
struct ServerStats: Decodable {
    var requests: Int
    var throttled: Int
    var connections: Int
    var maxInWindow: Int
    var searches: [String]
    var releases: [String]
    var auth: [String: Int]
    var gzip: Int
    var badSignatures: Int
    var span: Double?

    enum CodingKeys: String, CodingKey {
        case requests, throttled, connections, searches, releases, auth, gzip, span
        case maxInWindow = "max_in_window"
        case badSignatures = "bad_signatures"
    }
}

enum TestServerError: Error, CustomStringConvertible {
    case didNotStart(String)
    var description: String {
        switch self { case .didNotStart(let why): "the loopback Discogs server did not start: \(why)" }
    }
}

/// Tests/DiscogsServer/server.py as a child process on 127.0.0.1, for the real libcurl
/// transport to talk to. It exits when its stdin closes, so a crashed test leaves nothing.
final class DiscogsTestServer: Sendable {
    static let token = "test-token-5f1c2a"
    static let consumerKey = "ck-crates-test"
    static let consumerSecret = "cs-crates-test-secret"
    static let verifier = "4Q7TZ2KM"

    let port: Int
    private let process: Process
    private let input: Pipe

    private init(port: Int, process: Process, input: Pipe) {
        self.port = port
        self.process = process
        self.input = input
    }

    /// Starts a server; `extra` is appended to its arguments (e.g. ["--limit", "5",
    /// "--window", "1"]). Waits for its port without blocking a thread of the cooperative
    /// pool, at most 15 s.
    static func start(_ extra: [String] = []) async throws -> DiscogsTestServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", packageRoot + "/Tests/DiscogsServer/server.py",
            "--fixtures", packageRoot + "/Fixtures/discogs",
            "--token", token, "--consumer", "\(consumerKey):\(consumerSecret)",
            "--verifier", verifier,
        ] + extra
        let input = Pipe()
        let output = Pipe()
        closeOnExec(input, output)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = LineReader(output.fileHandleForReading)
        for _ in 0..<750 {
            if let text = line.line {
                guard let port = Int(text.trimmingCharacters(in: .whitespaces)) else { break }
                return DiscogsTestServer(port: port, process: process, input: input)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw TestServerError.didNotStart("no port on stdout within 15 s")
    }

    deinit {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }

    var base: String { "http://127.0.0.1:\(port)" }
    var endpoints: DiscogsEndpoints { DiscogsEndpoints(api: base, web: base) }

    func stats() async throws -> ServerStats {
        let r = try await Self.control().send(HTTPRequest(url: base + "/_control/stats"))
        return try JSONDecoder().decode(ServerStats.self, from: r.body)
    }

    func reset() async throws {
        _ = try await Self.control().send(HTTPRequest(url: base + "/_control/reset"))
    }

    /// The next `count` requests whose path contains `match` get the fault `kind`.
    func inject(_ kind: String, count: Int = 1, match: String = "") async throws {
        let q = OAuthPercentEncoding.formString([("kind", kind), ("count", String(count)), ("match", match)])
        _ = try await Self.control().send(HTTPRequest(url: base + "/_control/fault?" + q))
    }

    /// A transport for control requests, apart from the one under test.
    private static func control() throws -> CurlTransport {
        try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 10))
    }
}

/// Reads a pipe's first line on a background thread, with a deadline.
private final class LineReader: @unchecked Sendable {
    // @unchecked Sendable: `text` is read and written only under `lock`.
    private let lock = NSLock()
    private var text: String?

    /// The first line, once it has come.
    var line: String? { lock.withLock { text } }

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var bytes: [UInt8] = []
            while true {
                let chunk = handle.readData(ofLength: 1)
                if chunk.isEmpty || chunk.first == UInt8(ascii: "\n") { break }
                bytes.append(contentsOf: chunk)
            }
            let read = String(decoding: bytes, as: UTF8.self)
            lock.withLock { text = read }
        }
    }
}

/// Marks both ends of each pipe close-on-exec in this process, so that no other child
/// spawned meanwhile (a server of another test, a tmux daemon) inherits them: an inherited
/// write end would keep a server's stdin open after its test is gone. The child itself still
/// gets them, as its stdin/stdout, through dup2, which clears the flag.
func closeOnExec(_ pipes: Pipe...) {
    for pipe in pipes {
        for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
    }
}

/// A transport under test, with short timeouts so that the slow fault trips it quickly.
func testTransport(timeout: Double = 10) throws -> CurlTransport {
    try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: "test"), connectTimeout: 5, totalTimeout: timeout))
}

/// A client of `server`, with the server's personal token unless told otherwise.
func testClient(
    _ server: DiscogsTestServer, credentials: DiscogsCredentials? = .personalToken(DiscogsTestServer.token),
    limiter: RateLimiter = RateLimiter(configuration: .init(limit: 60, window: 60)), timeout: Double = 10
) throws -> DiscogsClient {
    DiscogsClient(transport: try testTransport(timeout: timeout), endpoints: server.endpoints, credentials: credentials, rateLimiter: limiter)
}

/// A fixture under Fixtures/discogs.
func fixture(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Fixtures/discogs/" + path))
}

/// A GTIN from canonical digits known to be valid (test data, not outside input).
func gtin(_ digits: String) throws -> GTIN {
    try #require(GTIN(canonical: digits))
}

/// Polls `condition` until it holds or `timeout` seconds pass; true when it held in time.
func eventually(timeout: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
