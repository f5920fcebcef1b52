import Foundation

/// A value shared between threads, every access under one lock.
///
/// `@unchecked Sendable`: `value` is only read or written inside `withLock`, which holds
/// `lock` (an NSLock; Synchronization's `Mutex` would need macOS 15).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
