import Synchronization

/// A flag that blocking work on a thread of its own looks at between its steps (a chunk
/// read, a batch of the dump): set by a task's cancellation handler, since such work has no
/// task whose `isCancelled` it could ask.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { flag.load(ordering: .acquiring) }

    public func set() { flag.store(true, ordering: .releasing) }
}
