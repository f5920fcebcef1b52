import CratesCore
import Foundation

/// A running observation of the collection. It stops when cancelled, or when this object
/// is released: keep it for as long as the values are wanted.
public final class StoreObservation: Sendable {
    private let stop: @Sendable () -> Void

    init(stop: @escaping @Sendable () -> Void) { self.stop = stop }

    /// Stops the observation. A callback already under way may still finish; none starts
    /// after that.
    public func cancel() { stop() }

    deinit { stop() }
}

/// An observation of one window of rows (and the outline), which the list moves as it
/// scrolls, narrows with a filter, and points at the selected record. It stops when
/// cancelled or released.
public final class WindowObservation: Sendable {
    private let query: LockedBox<CollectionQuery>
    private let observer: StoreObserver<CollectionWindow>

    init(query: LockedBox<CollectionQuery>, observer: StoreObserver<CollectionWindow>) {
        self.query = query
        self.observer = observer
    }

    /// Fetches `window` now, and from now on after every change.
    public func move(to window: RowWindow) {
        query.withLock { $0.window = window }
        observer.schedule()
    }

    /// Fetches the answer to `query` now, and from now on after every change.
    public func update(_ query: CollectionQuery) {
        self.query.withLock { $0 = query }
        observer.schedule()
    }

    /// The record to locate from the next fetch on, without fetching now: the list calls
    /// this as its selection moves, which must not cost a query per key.
    public func focus(_ id: Int64?) {
        query.withLock { $0.focus = id }
    }

    /// Stops the observation. A callback already under way may still finish; none starts
    /// after that.
    public func cancel() { observer.cancel() }

    deinit { observer.cancel() }
}
