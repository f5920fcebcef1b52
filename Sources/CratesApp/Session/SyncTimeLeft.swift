import CratesCore
import CratesNet

/// The time a sync in the collection UI has left, as the command line's progress line works
/// it out (`SyncProgressLine`): the requests its status has left, asked of the client's rate
/// limiter, posted as `SessionEvent.syncTimeLeft`. One task asks, for the newest status
/// only, so that an older figure never lands after a newer.
final class SyncTimeLeft: Sendable {
    private let estimates: AsyncStream<Int>.Continuation
    private let estimator: Task<Void, Never>

    init(limiter: RateLimiter, post: @escaping @Sendable (SessionEvent) -> Void) {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        estimates = continuation
        estimator = Task {
            for await requests in stream {
                post(.syncTimeLeft(requests > 0 ? await limiter.secondsUntilSent(requests, priority: .lookup) : nil))
            }
        }
    }

    func show(_ status: SyncStatus) {
        if let requests = SyncProgressLine.requestsLeft(status) { estimates.yield(requests) }
    }

    /// Stops asking; the figures asked for are posted before it returns.
    func finish() async {
        estimates.finish()
        await estimator.value
    }
}
