import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation

/// A store in a fresh temporary file, removed when the value goes.
final class TemporaryStore: Sendable {
    let directory: TemporaryDirectory
    let store: CollectionStore

    init() throws {
        directory = try TemporaryDirectory(prefix: "crates-app")
        store = try CollectionStore(path: directory.file("crates.sqlite"))
    }
}


/// The events a session posted, in order.
final class EventLog: Sendable {
    private let events = LockBox<[SessionEvent]>()

    func post(_ event: SessionEvent) { events.append(event) }

    /// Every event so far, oldest first.
    var all: [SessionEvent] { events.all }

    /// How many events so far `match` holds for.
    func count(_ match: (SessionEvent) -> Bool) -> Int { events.all.filter(match).count }

    /// The first event that `match` maps to a value, waited for with a deadline.
    func first<T>(_ what: String, _ match: @escaping (SessionEvent) -> T?) async throws -> T {
        try await waitFor(what, lastSeen: { "\(self.events.all.count) events" }) {
            self.events.all.lazy.compactMap(match).first
        }
    }
}

/// Discogs as the use cases see it, at the loopback `server`: signed in with its token
/// (or `token`), paced at Discogs' authenticated rate.
func access(_ server: DiscogsTestServer, token: String? = DiscogsTestServer.token) throws -> DiscogsAccess {
    let transport = try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: "test"), connectTimeout: 5, totalTimeout: 20))
    let client = DiscogsClient(
        transport: transport, endpoints: server.endpoints, credentials: token.map { .personalToken($0) },
        rateLimiter: RateLimiter(configuration: .authenticated))
    return DiscogsAccess(client: client, username: token == nil ? nil : "DamIDhagor", signedIn: token != nil)
}

/// A worker over `store` with that access's client.
func worker(_ store: CollectionStore, _ access: DiscogsAccess) -> LookupWorker {
    LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: access.client))
}

/// Adds a pending record of `digits`.
@discardableResult
func addPending(_ store: CollectionStore, _ digits: String) async throws -> CollectionRecord {
    try await store.add(NewRecord(gtin: Fixtures.gtin(digits), addMethod: .typed))
}

/// Starts `session`, runs `body`, and stops the session however `body` ends (a failed wait
/// throws), awaiting the stop: a `defer` cannot await, and the blocking `stop()` would hold a
/// thread of the pool that the stop's own tasks need.
func running<T>(_ session: CollectionSession, _ body: () async throws -> T) async throws -> T {
    session.start()
    do {
        let value = try await body()
        await session.stopped()
        return value
    } catch {
        await session.stopped()
        throw error
    }
}

/// An import's progress, heard and not shown: the use case's tests look at its outcome.
struct QuietImportProgress: ImportReporting {
    func adding(_ done: Int, of total: Int) {}
    func lookups(_ value: ImportLookupsProgress, final: Bool) {}
    func rateWait(_ secondsLeft: Int?) {}
    func note(_ text: String) {}
    func finish() {}
}
