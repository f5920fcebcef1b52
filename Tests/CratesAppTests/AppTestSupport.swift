import CratesCore
import CratesStore
import CratesTestSupport
import Foundation

/// A store in a fresh temporary file, removed when the value goes.
final class TemporaryStore: Sendable {
    let directory: TemporaryDirectory
    let store: CatalogueStore

    init() throws {
        directory = try TemporaryDirectory(prefix: "crates-app")
        store = try CatalogueStore(path: directory.file("crates.sqlite"))
    }
}

func gtin(_ text: String) throws -> GTIN { try GTIN.parse(text).gtin }

/// The events a session posted, in order.
final class EventLog: Sendable {
    private let events = LockBox<[SessionEvent]>()

    func post(_ event: SessionEvent) { events.append(event) }

    /// How many events so far `match` holds for.
    func count(_ match: (SessionEvent) -> Bool) -> Int { events.all.filter(match).count }

    /// The first event that `match` maps to a value, waited for with a deadline.
    func first<T>(_ what: String, _ match: @escaping (SessionEvent) -> T?) async throws -> T {
        try await waitFor(what, lastSeen: { "\(self.events.all.count) events" }) {
            self.events.all.lazy.compactMap(match).first
        }
    }
}
