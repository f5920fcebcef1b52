import CratesNet
import Foundation

/// Keeps a progress line alive while Discogs' rate limit holds requests back: follows the
/// limiter's waits (`RateLimiter.waits()`) and calls `show` with the whole seconds left when
/// a wait starts, each time that number drops (each second on the limiter's clock, so a test
/// moves it with its own clock), and with nil when requests go again. Without it an import's
/// bar or a sync's line stands still for most of a minute, and looks hung.
public final class RateWaitCountdown: Sendable {
    private let task: Task<Void, Never>

    /// `priority`: the requests whose waits are shown, those of that priority and above
    /// (`RateLimiter.waits(from:)`): a lookup's by default; background work shows its own.
    public init(
        limiter: RateLimiter, priority: RateLimiter.Priority = .lookup, show: @escaping @Sendable (_ secondsLeft: Int?) -> Void
    ) {
        let timeline = limiter.timeline
        task = Task {
            let waits = await limiter.waits(from: priority)
            // One ticker at a time, for the wait the limiter reported last; each is over
            // before anything else is shown, so the numbers never come out of order.
            var ticker: Task<Void, Never>?
            for await deadline in waits {
                ticker?.cancel()
                await ticker?.value
                guard let deadline else {
                    ticker = nil
                    show(nil)
                    continue
                }
                ticker = Task {
                    while !Task.isCancelled {
                        let left = deadline - timeline.now
                        guard left > .zero else { return }
                        let seconds = Int(left.inSeconds.rounded(.up))
                        show(seconds)
                        // Until the number shown drops by one.
                        guard (try? await timeline.sleep(until: deadline - .seconds(seconds - 1))) != nil else { return }
                    }
                }
            }
            ticker?.cancel()
            await ticker?.value
        }
    }

    /// Stops following: nothing is shown after this returns.
    public func stop() async {
        task.cancel()
        await task.value
    }
}
