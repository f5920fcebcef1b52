/// How long to wait before restarting a decoder that stopped: doubling from `initial` up to
/// `maximum` (`Backoff`) while runs keep failing quickly, back to `initial` after a run that
/// lasted `healthyRun` or more (a camera unplugged after an hour of scanning is retried at
/// once, not after the 30 s a string of failures earned).
public struct RestartBackoff: Hashable, Sendable {
    public let backoff: Backoff
    public let healthyRun: Duration
    /// Quick runs in a row so far.
    private var round = 0

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(30), healthyRun: Duration = .seconds(10)) {
        backoff = Backoff(first: initial, maximum: maximum)
        self.healthyRun = healthyRun
    }

    public var initial: Duration { backoff.first }
    public var maximum: Duration { backoff.maximum }

    /// The wait before the next start, after a run that lasted `run`.
    public mutating func delay(after run: Duration) -> Duration {
        if run >= healthyRun { round = 0 }
        defer { round = min(round + 1, 64) }
        return backoff.delay(round)
    }
}
