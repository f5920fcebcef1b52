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

/// A valid EAN-13 from `n` (`sampleGTIN`), past the fixture index's own barcodes
/// (5000000000012…, which carry faults). The server started with `--generate` answers each
/// with a release of its own.
func ean(_ n: Int) -> GTIN {
    sampleGTIN(7_000_000 + n)
}

extension LookupWorker.Policy {
    /// Pauses short enough for a test: in-run retries after 20, 40, 80 ms…
    static func fast(pauses: Int = 4) -> LookupWorker.Policy {
        var p = LookupWorker.Policy()
        p.recheckInterval = 0.2
        p.offlineBase = 0.1
        p.offlineMaximum = 0.5
        p.retryPauses = (0..<pauses).map { 0.02 * pow(2, Double($0)) }
        p.unreachableAfterSeconds = 0.1
        p.hedgeAfter = nil  // a test that holds an answer back decides when it comes
        // One record until Discogs first answers, however slow that answer is on a loaded
        // machine: the tests that count requests do not depend on its speed.
        p.warmUp = 600
        return p
    }
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
