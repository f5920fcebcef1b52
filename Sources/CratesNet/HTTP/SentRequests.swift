import Synchronization

/// Counts the requests a task has actually sent: `DiscogsClient.send` adds one for each
/// request the rate limiter let out (a 429 sent again counts again). `RequestRetry` counts
/// its attempts with it, so that a second copy of a slow request that was abandoned before
/// it went (its first answer came meanwhile) is not counted as sent.
public final class SentRequests: Sendable {
    @TaskLocal static var current: SentRequests?

    private let counted = Atomic(0)

    public init() {}

    public var count: Int { counted.load(ordering: .relaxed) }

    func add() { counted.add(1, ordering: .relaxed) }
}
