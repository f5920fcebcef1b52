import Synchronization

/// A value shared between threads or `@Sendable` closures, every access under one mutex:
/// for a value that several closures capture (a `Mutex` cannot be captured or copied).
/// Where one object holds the state, that object holds a `Mutex` itself.
///
/// `Value: Sendable`, as swift-nio's `NIOLockedValueBox`: what `withLock` hands out (a copy of
/// the value, or part of it) is used after the lock is released, on whatever thread.
public final class LockedBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with the value, under the lock.
    public func withLock<T: Sendable, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        try mutex.withLock { (value: inout sending Value) throws(E) -> T in try body(&value) }
    }
}
