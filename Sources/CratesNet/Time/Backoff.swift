/// Waits that double: `first`, twice that, four times that…, never more than `maximum`. The
/// one rule behind every growing pause: a request sent again within a lookup, a lookup's
/// retry time, the probes while Discogs is unreachable, a write the store refused, a decoder
/// restarted.
public struct Backoff: Hashable, Sendable {
    public let first: Duration
    public let maximum: Duration

    /// A `maximum` below `first` is raised to it.
    public init(first: Duration, maximum: Duration) {
        self.first = first
        self.maximum = max(first, maximum)
    }

    /// The wait after `round` waits before it in a row (0: `first`).
    public func delay(_ round: Int) -> Duration {
        var delay = first
        // 64 doublings outgrow any maximum: past them the loop would only spin.
        for _ in 0..<min(max(0, round), 64) where delay < maximum {
            delay = delay * 2
        }
        return min(maximum, delay)
    }

    /// The first `count` waits.
    public func delays(_ count: Int) -> [Duration] {
        (0..<max(0, count)).map(delay)
    }
}
