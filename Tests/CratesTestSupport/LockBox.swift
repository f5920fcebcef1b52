import Synchronization

/// A value shared between a test and the threads or `@Sendable` closures it hands work to
/// (an observer's callback, a reader thread), always read and written under one mutex.
public final class LockBox<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    /// The value now (a copy).
    public var value: Value {
        mutex.withLock { $0 }
    }

    /// Replaces the value.
    public func set(_ value: Value) {
        mutex.withLock { $0 = value }
    }

    /// Runs `body` with the value, under the lock.
    public func withLock<R: Sendable, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try mutex.withLock { (value: inout sending Value) throws(E) -> R in try body(&value) }
    }
}

extension LockBox where Value: RangeReplaceableCollection & BidirectionalCollection, Value.Element: Sendable {
    /// A box holding an empty collection.
    public convenience init() {
        self.init(Value())
    }

    /// Appends `element` (the usual use: values handed over from a callback).
    public func append(_ element: Value.Element) {
        withLock { $0.append(element) }
    }

    /// The elements so far (a copy).
    public var all: Value { value }

    /// The last element so far.
    public var last: Value.Element? {
        withLock { $0.last }
    }

    /// How many elements so far.
    public var count: Int {
        withLock { $0.count }
    }
}
