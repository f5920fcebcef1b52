import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A store, the loopback Discogs server with its collection controls, and a sync between
/// them through the real libcurl transport.
struct SyncBench {
    static let owner = CollectionServerControl.owner
    let temporary: TemporaryStore
    let server: DiscogsTestServer
    var store: CollectionStore { temporary.store }
    var collection: CollectionServerControl { server.collection }

    /// `serverArguments`: the loopback server's own (e.g. `["--stall", "30"]`).
    static func start(_ serverArguments: [String] = []) async throws -> SyncBench {
        let temporary = try TemporaryStore()
        return SyncBench(temporary: temporary, server: try await DiscogsTestServer.start(serverArguments))
    }

    /// A client signed in with the server's token (`timeout`: seconds before a held answer
    /// counts as lost).
    func client(timeout: Double = 10) throws -> DiscogsClient {
        let transport = try CurlTransport(configuration: .init(userAgent: "crates-tests", connectTimeout: 5, totalTimeout: timeout))
        return DiscogsClient(
            transport: transport, endpoints: server.endpoints, credentials: .personalToken(server.token),
            rateLimiter: RateLimiter(configuration: .init(limit: 60, window: 60)))
    }

    func access(username: String? = owner, signedIn: Bool = true, timeout: Double = 10) throws -> DiscogsAccess {
        DiscogsAccess(client: try client(timeout: timeout), username: username, signedIn: signedIn)
    }

    /// Runs one sync (`retryPauses`: the pauses before a failed request is sent again).
    func sync(
        _ options: DiscogsSync.Options = .init(), timeout: Double = 10, retryPauses: [Double] = RequestRetry.shortPauses
    ) async throws -> SyncReport {
        await DiscogsSync(store: store, access: try access(timeout: timeout), retryPauses: retryPauses).run(options)
    }

    /// Adds a copy matched to `release` (by its barcode when it has one, else a test one).
    @discardableResult
    func addCopy(_ release: Release, at addedAt: Date, grading: CopyGrading = .none, note: String? = nil) async throws -> Int64 {
        let gtin = try ReleaseBarcodes.gtin(in: release) ?? #require(GTIN(canonical: "5099750442227"))
        return try await store.add(NewRecord(gtin: gtin, addedAt: addedAt, addMethod: .typed, note: note, release: release, grading: grading)).id
    }

    /// Everything the store holds of the collection, as JSON (to compare before and after).
    func exported() async throws -> String {
        let text = LockBox<[String]>()
        try await store.forEachPage(detail: .full) { page in
            let encoder = ExportedRecord.makeJSONEncoder()
            for entry in page { text.append(try entry.jsonLine(includeDiscogs: true, encoder: encoder)) }
        }
        return text.all.joined(separator: "\n")
    }

    func instances() async throws -> [CollectionServerControl.DumpedInstance] {
        try await collection.dump().instances
    }
}

/// Releases of the server's fixtures (Fixtures/discogs/releases): their `basic_information`
/// is what the server lists.
enum SyncReleases {
    /// The Persuader — Stockholm (Electronic), no barcode.
    static let stockholm = Release(id: 1, artist: "The Persuader", title: "Stockholm", genres: ["Electronic"])
    /// HammerFall — Glory To The Brave (Rock), barcode 727361626525.
    static let hammerfall = Release(
        id: 5_134_861, artist: "HammerFall", title: "Glory To The Brave", genres: ["Rock"],
        rawJSON: #"{"id": 5134861, "identifiers": [{"type": "Barcode", "value": "7 27361 62652 5"}]}"#)
    /// Various — Likemind 05 (Electronic).
    static let likemind = Release(id: 10_507_194, artist: "Various", title: "Likemind 05", genres: ["Electronic"])

    /// A moment `minutes` after 2020-01-01 UTC, for the order copies were added in.
    static func day(_ minutes: Int) -> Date { Date(timeIntervalSince1970: 1_577_836_800 + Double(minutes) * 60) }
}
