import CratesCore
import Foundation
import GRDB
import Synchronization

/// Refetches a value whenever the collection changes, and hands each new value to a
/// callback on a background queue.
///
/// Why not a bare GRDB `ValueObservation`: it is told of the commits of its own
/// `DatabasePool` only, never of another process's (a `crates import` beside the TUI), and it
/// cannot be told to refetch from outside (to move a window). So:
/// - commits through this store's writer are seen at once, by a `DatabaseRegionObservation`
///   on the `record`, `release` and `location` tables (GRDB calls it right after each commit);
/// - commits by any other connection, in this process or another, are seen by polling
///   `PRAGMA data_version` every `pollInterval` on a dedicated read-only connection: SQLite
///   changes that number, per connection, whenever another connection has committed
///   (https://sqlite.org/pragma.html#pragma_data_version). The poll is one pragma, no query,
///   and the value is refetched on that same connection, so a local commit already fetched
///   does not trigger a second fetch;
/// - refetches are coalesced: many commits while a fetch runs cause one more fetch, not many.
final class StoreObserver<Value: Sendable>: Sendable {
    private struct State {
        var scheduled = false
        var cancelled = false
        var lastVersion: Int?
        var region: AnyDatabaseCancellable?
    }

    /// How often another process's commits are looked for: well under the 100 ms a change
    /// may take from its commit to the screen, at the cost of one pragma per tick.
    static var pollInterval: TimeInterval { 0.05 }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let reader: any DatabaseReader
    private let polls: Bool
    private let fetch: @Sendable (Database) throws -> Value
    private let onChange: @Sendable (Value) -> Void
    private let onError: @Sendable (StoreError) -> Void

    init(
        reader: any DatabaseReader, polls: Bool,
        fetch: @escaping @Sendable (Database) throws -> Value,
        onError: @escaping @Sendable (StoreError) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) {
        self.queue = DispatchQueue(label: "crates.store.observer", qos: .userInitiated)
        self.reader = reader
        self.polls = polls
        self.fetch = fetch
        self.onError = onError
        self.onChange = onChange
    }

    /// Starts observing the writer's commits, fetches the first value, and starts polling.
    func start(writer: any DatabaseWriter) {
        let region = DatabaseRegionObservation(tracking: Table("record"), Table("release"), Table("location")).start(
            in: writer,
            onError: { [weak self] error in self?.onError(StoreError.wrap(error)) },
            onChange: { [weak self] _ in self?.schedule() })
        let cancelled = state.withLock { state in
            if !state.cancelled { state.region = region }
            return state.cancelled
        }
        if cancelled { region.cancel() }
        schedule()
        if polls { schedulePoll() }
    }

    /// Asks for a refetch soon; a no-op when one is already waiting.
    func schedule() {
        let dispatch = state.withLock { state -> Bool in
            guard !state.cancelled, !state.scheduled else { return false }
            state.scheduled = true
            return true
        }
        guard dispatch else { return }
        queue.async { [weak self] in
            guard let self else { return }
            self.state.withLock { $0.scheduled = false }
            self.refresh()
        }
    }

    func cancel() {
        let region = state.withLock { state -> AnyDatabaseCancellable? in
            state.cancelled = true
            defer { state.region = nil }
            return state.region
        }
        region?.cancel()
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// On `queue`.
    private func refresh() {
        guard !isCancelled else { return }
        let result: (value: Value, version: Int?)
        do {
            result = try reader.read { db in
                // The fetch opens the read transaction; data_version then names the same
                // snapshot, so a commit after it is never mistaken for one already seen.
                let value = try fetch(db)
                return (value, try Int.fetchOne(db, sql: "PRAGMA data_version"))
            }
        } catch {
            if !isCancelled { onError(StoreError.wrap(error)) }
            return
        }
        let deliver = state.withLock { state -> Bool in
            state.lastVersion = result.version
            return !state.cancelled
        }
        if deliver { onChange(result.value) }
    }

    private func schedulePoll() {
        queue.asyncAfter(deadline: .now() + Self.pollInterval) { [weak self] in self?.poll() }
    }

    /// On `queue`.
    private func poll() {
        guard !isCancelled else { return }
        do {
            let version = try reader.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
            if version != state.withLock({ $0.lastVersion }) { refresh() }
        } catch {
            onError(StoreError.wrap(error))
        }
        schedulePoll()
    }
}
