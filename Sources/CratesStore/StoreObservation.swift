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
/// scrolls. It stops when cancelled or released.
public final class WindowObservation: Sendable {
    private let window: Locked<RowWindow>
    private let observer: StoreObserver<CollectionWindow>

    init(window: Locked<RowWindow>, observer: StoreObserver<CollectionWindow>) {
        self.window = window
        self.observer = observer
    }

    /// Fetches `window` now, and from now on after every change.
    public func move(to window: RowWindow) {
        self.window.withLock { $0 = window }
        observer.schedule()
    }

    /// Stops the observation. A callback already under way may still finish; none starts
    /// after that.
    public func cancel() { observer.cancel() }

    deinit { observer.cancel() }
}
