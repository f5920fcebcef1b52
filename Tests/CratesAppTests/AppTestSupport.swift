import CratesCore
import CratesStore
import Foundation

/// A store in a fresh temporary file, removed when the value goes.
final class TemporaryStore: Sendable {
    let directory: String
    let store: CatalogueStore

    init() throws {
        directory = NSTemporaryDirectory() + "crates-app-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try CatalogueStore(path: directory + "/crates.sqlite")
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}

func gtin(_ text: String) throws -> GTIN { try GTIN.parse(text).gtin }

/// The events a session posted, in order.
final class EventLog: Sendable {
    private let events = Locked<[SessionEvent]>([])

    func post(_ event: SessionEvent) { events.withLock { $0.append(event) } }

    var all: [SessionEvent] { events.withLock { $0 } }

    /// The first event that `match` maps to a value, waiting up to `seconds` for it.
    func first<T>(within seconds: Double = 15, _ match: @escaping (SessionEvent) -> T?) async -> T? {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            if let found = all.lazy.compactMap(match).first { return found }
            if ContinuousClock.now >= end { return all.lazy.compactMap(match).first }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
