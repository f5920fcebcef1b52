import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

extension DiscogsTestServer {
    /// A server with a barcode index of its own: barcode text to entry (see
    /// Fixtures/discogs/search/index.json and lookups.py's {"corpus": ID}).
    static func start(index: [String: [String: Any]], _ extra: [String] = []) async throws -> (DiscogsTestServer, TemporaryIndex) {
        let file = try TemporaryIndex(index)
        return (try await start(["--index", file.path] + extra), file)
    }
}

/// A barcode index written to a temporary file, removed with this object.
final class TemporaryIndex: Sendable {
    let path: String

    init(_ index: [String: [String: Any]]) throws {
        path = NSTemporaryDirectory() + "crates-index-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: index).write(to: URL(fileURLWithPath: path))
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A valid EAN-13 from `n` (`Fixtures.gtin`), past the fixture index's own barcodes
/// (5000000000012…, which carry faults). The server started with `--generate` answers each
/// with a release of its own.
func ean(_ n: Int) -> GTIN {
    Fixtures.gtin(7_000_000 + n)
}

/// An in-memory twin of the store's queue of releases without their details.
actor InMemoryDetailsQueue: ReleaseDetailsQueue {
    private(set) var missing: [Int]
    private(set) var stored: [Release] = []

    init(missing: [Int]) { self.missing = missing }

    func nextReleaseWithoutDetails(excluding: Set<Int>) async throws -> Int? {
        missing.first { !excluding.contains($0) }
    }

    func storeDetails(_ release: Release) async throws {
        missing.removeAll { $0 == release.id }
        stored.append(release)
    }
}

extension LookupWorker.Policy {
    /// The product's timings, without a second copy of a slow answer (`hedgeAfter`): a test
    /// that moves the clock on through pauses while an answer is on its way would otherwise
    /// make that answer slow, and the requests it counts would depend on when it came.
    static var noHedge: LookupWorker.Policy {
        var policy = LookupWorker.Policy()
        policy.hedgeAfter = nil
        return policy
    }
}

/// A client whose rate limiter, and so the worker on it, tells time by `clock`.
func virtualClient(
    _ server: DiscogsTestServer, clock: TestClock, configuration: RateLimiter.Configuration = .init(limit: 60, window: 60),
    credentials: DiscogsCredentials? = .personalToken(DiscogsTestServer.token), timeout: Double = 60
) throws -> DiscogsClient {
    try testClient(server, credentials: credentials, limiter: RateLimiter(configuration: configuration, clock: clock), timeout: timeout)
}

/// Moves `clock` on while `worker` runs, until `done`: whenever a record pauses between two
/// attempts, to the end of the first pause (the timers before it fire on the way); else,
/// while a request waits for the rate limiter's window, to the next deadline on the clock.
/// Nothing else moves it, so a request on its way is never made slow; only the looks at
/// `done` take real time.
func advancing(
    _ clock: TestClock, _ worker: LookupWorker, until what: String, lastSeen: (() async -> String)? = nil,
    progress: (() async throws -> Int)? = nil, _ done: () async throws -> Bool
) async throws {
    let limiter = worker.lookup.client.rateLimiter
    try await waitUntil(what, lastSeen: lastSeen, progress: progress) {
        if try await done() { return true }
        if let pause = await worker.pausesLeft.first {
            // A pause whose end has come is ending: the worker goes on by itself.
            if pause > .zero { clock.advance(by: pause) }
            return false
        }
        var waits = false
        for priority in RateLimiter.Priority.allCases where !waits { waits = await limiter.waiting(priority) > 0 }
        if waits, let next = clock.sleeping.first { clock.advance(by: next) }
        return false
    }
}

/// Stops `worker` and waits for its run to end: a lookup still in hand (after a failed
/// expectation) is cancelled at once and goes back to the queue, instead of waiting out the
/// stop's patience on a clock that does not move.
func finish(_ worker: LookupWorker, _ running: Task<LookupStatus, Never>) async {
    let stopping = Task { await worker.stop() }
    running.cancel()
    _ = await running.value
    await stopping.value
}
