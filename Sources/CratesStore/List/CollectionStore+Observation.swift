import CratesCore
import Foundation
import GRDB

extension CollectionStore {
    /// Calls `onChange` with all sections now (asynchronously) and after every change to the
    /// collection, by this store or any other process, on a background queue.
    ///
    /// For 100,000 records prefer `observeWindow`: each change refetches every row here.
    public func observeSections(
        onError: @escaping @Sendable (StoreError) -> Void,
        onChange: @escaping @Sendable ([CollectionSection]) -> Void
    ) throws(StoreError) -> StoreObservation {
        let observer = try makeObserver(fetch: { db in try Self.fetchSections(db) }, onError: onError, onChange: onChange)
        return StoreObservation { observer.cancel() }
    }

    /// Calls `onChange` with the outline and the rows of `window` now (asynchronously),
    /// after every change to the collection (by this store or any other process), and after
    /// every `move(to:)`, on a background queue.
    public func observeWindow(
        _ window: RowWindow,
        onError: @escaping @Sendable (StoreError) -> Void,
        onChange: @escaping @Sendable (CollectionWindow) -> Void
    ) throws(StoreError) -> WindowObservation {
        try observeWindow(CollectionQuery(window: window), onError: onError, onChange: onChange)
    }

    /// Calls `onChange` with the answer to `query` now (asynchronously), after every change
    /// to the collection (by this store or any other process), and after every `update(_:)`,
    /// on a background queue. A change re-runs the latest query, with the latest focus.
    public func observeWindow(
        _ query: CollectionQuery,
        onError: @escaping @Sendable (StoreError) -> Void,
        onChange: @escaping @Sendable (CollectionWindow) -> Void
    ) throws(StoreError) -> WindowObservation {
        let current = LockedBox(query)
        // The observation's connection is its own: so is the filter's snapshot.
        let snapshots = FilterSnapshots()
        let observer = try makeObserver(
            fetch: { db in try Self.fetchWindow(db, current.withLock { $0 }, snapshots: snapshots) }, onError: onError,
            onChange: onChange)
        return WindowObservation(query: current, observer: observer)
    }

    private func makeObserver<Value: Sendable>(
        fetch: @escaping @Sendable (Database) throws -> Value,
        onError: @escaping @Sendable (StoreError) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) throws(StoreError) -> StoreObserver<Value> {
        let reader: any DatabaseReader
        if let path {
            // A connection of its own: data_version is per connection, and a pool's readers
            // take turns.
            do {
                reader = try DatabaseQueue(
                    path: path, configuration: Self.configuration(label: "crates.store.observer", readonly: true))
            } catch {
                throw StoreError.opening(path: path, error)
            }
        } else {
            reader = writer
        }
        let observer = StoreObserver(reader: reader, polls: path != nil, fetch: fetch, onError: onError, onChange: onChange)
        observer.start(writer: writer)
        return observer
    }
}
