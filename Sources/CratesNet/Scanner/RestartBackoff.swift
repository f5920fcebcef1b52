/// How long to wait before restarting a decoder that stopped: doubling from `initial` up to
/// `maximum` while runs keep failing quickly, back to `initial` after a run that lasted
/// `healthyRun` or more (a camera unplugged after an hour of scanning is retried at once,
/// not after the 30 s a string of failures earned).
public struct RestartBackoff: Hashable, Sendable {
    public let initial: Duration
    public let maximum: Duration
    public let healthyRun: Duration
    private var current: Duration

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(30), healthyRun: Duration = .seconds(10)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.healthyRun = healthyRun
        current = initial
    }

    /// The wait before the next start, after a run that lasted `run`.
    public mutating func delay(after run: Duration) -> Duration {
        if run >= healthyRun { current = initial }
        let delay = current
        current = min(maximum, current * 2)
        return delay
    }
}
