import CratesCore
import CratesNet

/// The time a sync (or `crates value --refresh`) has left at Discogs' rate, for whoever
/// shows it (the collection UI's status line, the command line's progress line): the
/// requests its status has left, asked of the client's rate limiter. One task asks, for the
/// newest status only, so that an older figure never lands after a newer. With `rateWait`,
/// the limiter's waits are followed too (`RateWaitCountdown`), and the time left worked out
/// again at each second counted down: nothing is sent while a wait lasts, so the time left
/// falls with it, not left as it was when the wait began.
public final class SyncTimeLeft: Sendable {
    private let estimates: AsyncStream<Int>.Continuation
    private let estimator: Task<Void, Never>
    private let countdown: RateWaitCountdown?
    /// The requests the last status had left, shared with the countdown's ticks.
    private let requests: LockedBox<Int?>

    /// `timeLeft` hears the seconds left (nil: none to tell); `rateWait`, when given, the
    /// whole seconds of a rate wait as they count down (nil: requests go again).
    /// `priority`: the requests' (a sync's are a lookup's; `crates value --refresh` asks at
    /// background priority, which has only its share of the window and whose waits the
    /// limiter tells only to who follows them).
    public init(
        limiter: RateLimiter, priority: RateLimiter.Priority = .lookup,
        timeLeft: @escaping @Sendable (_ seconds: Double?) -> Void,
        rateWait: (@Sendable (_ secondsLeft: Int?) -> Void)? = nil
    ) {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        estimates = continuation
        estimator = Task {
            for await requests in stream {
                timeLeft(requests > 0 ? await limiter.secondsUntilSent(requests, priority: priority) : nil)
            }
        }
        let requests = LockedBox<Int?>(nil)
        self.requests = requests
        countdown = rateWait.map { rateWait in
            RateWaitCountdown(limiter: limiter, priority: priority) { secondsLeft in
                rateWait(secondsLeft)
                if let left = requests.withLock({ $0 }) { continuation.yield(left) }
            }
        }
    }

    /// The sync's status now: the time left is worked out for the requests it has left.
    public func show(_ status: SyncStatus) {
        let left = Self.requestsLeft(status)
        requests.withLock { $0 = left }
        if let left { estimates.yield(left) }
    }

    /// Stops following the limiter; the figures asked for are told before it returns.
    public func finish() async {
        await countdown?.stop()
        estimates.finish()
        await estimator.value
    }

    /// The requests a status has left: a page of 100 copies each while reading, one a copy
    /// while pushing.
    static func requestsLeft(_ status: SyncStatus) -> Int? {
        switch status {
        case .reading(let done, let total?): (max(0, total - done) + 99) / 100
        case .pushing(let done, let total), .pricing(let done, let total): max(0, total - done)
        default: nil
        }
    }
}
