import CratesCore
import CratesNet
import Foundation
import Synchronization

/// A sync's progress on standard error, when standard error is a terminal: a bar redrawn in
/// place with the time left at Discogs' rate, as an import's, and Discogs' rate waits counted
/// down ("sync: pushing [#####-----] 53/199 · rate limit: resuming in 36 s · 3 min left").
/// To a file or a pipe, only a wait for another sync, and each rate wait as it starts, as a
/// line: the summary says the rest.
public final class SyncProgressLine: Sendable {
    struct State {
        var status = SyncStatus.idle
        var secondsLeft: Double?
        /// The requests the status has left, which the time left is worked out from.
        var requestsLeft: Int?
        var rateWait: Int?
        var shown = false
        var waitingSaid = false
    }

    /// What the line shows, shared with the tasks that follow the limiter; each line is drawn
    /// under its lock, so that an older one never lands after a newer.
    final class Shared: Sendable {
        let terminal: Bool
        let state = Mutex(State())

        init(terminal: Bool) {
            self.terminal = terminal
        }

        /// Changes the state and, on a terminal, draws the line it makes.
        func update(_ change: (inout State) -> Void) {
            state.withLock { state in
                change(&state)
                guard terminal, let text = SyncProgressLine.line(status: state.status, secondsLeft: state.secondsLeft, rateWait: state.rateWait)
                else { return }
                state.shown = true
                let width = max(10, StandardStreams.terminalWidth - 1)
                let line = text.count > width ? String(text.prefix(width - 1)) + "…" : text
                StandardStreams.errStatusLine(line)
            }
        }

        func rateWait(_ secondsLeft: Int?) {
            var started = false
            var label: String?
            update { state in
                started = state.rateWait == nil && secondsLeft != nil
                state.rateWait = secondsLeft
                label = state.status.text
            }
            if !terminal, started, let secondsLeft, let label {
                StandardStreams.errLine("crates \(label): \(StatusWording.rateLimit(seconds: secondsLeft))")
            }
        }
    }

    public var terminal: Bool { shared.terminal }
    private let shared: Shared
    /// The requests left, to the task that asks the limiter how long they take.
    private let estimates: AsyncStream<Int>.Continuation?
    private let estimator: Task<Void, Never>?
    private let countdown: RateWaitCountdown?

    /// `limiter`: the client's, whose window tells the time left and whose waits are counted
    /// down; without one, only the counts. `priority`: the requests' (a sync's are a
    /// lookup's; `crates value --refresh` asks at background priority, which has only its
    /// share of the window and whose waits the limiter tells only to who follows them).
    public init(
        terminal: Bool = StandardStreams.errorIsTerminal, limiter: RateLimiter? = nil, priority: RateLimiter.Priority = .lookup
    ) {
        let shared = Shared(terminal: terminal)
        self.shared = shared
        guard let limiter else {
            (estimates, estimator, countdown) = (nil, nil, nil)
            return
        }
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        estimates = continuation
        estimator = Task {
            for await requests in stream {
                let seconds = requests > 0 ? await limiter.secondsUntilSent(requests, priority: priority) : nil
                shared.update { $0.secondsLeft = seconds }
            }
        }
        countdown = RateWaitCountdown(limiter: limiter, priority: priority) { secondsLeft in
            shared.rateWait(secondsLeft)
            // Nothing is sent while the wait lasts, so the time left falls with it: worked
            // out again at each second counted down, not left as it was when it began.
            if let requests = shared.state.withLock({ $0.requestsLeft }) { continuation.yield(requests) }
        }
    }

    public func show(_ status: SyncStatus) {
        var sayWaiting = false
        let requests = Self.requestsLeft(status)
        shared.update { state in
            state.status = status
            state.requestsLeft = requests
            if case .waiting = status, !state.waitingSaid {
                state.waitingSaid = true
                sayWaiting = true
            }
        }
        if let requests { estimates?.yield(requests) }
        // A script's log still learns why the sync has not begun.
        if !terminal, sayWaiting, let text = status.text { StandardStreams.errLine("crates \(text)") }
    }

    /// Discogs' rate limit holds the sync back for `secondsLeft` more seconds (nil: no
    /// longer).
    public func rateWait(_ secondsLeft: Int?) {
        shared.rateWait(secondsLeft)
    }

    /// The rate wait the line shows now, in seconds (nil: none).
    var rateWaitShown: Int? { shared.state.withLock { $0.rateWait } }

    /// The time left the line shows now, in seconds (nil: none).
    var secondsLeftShown: Double? { shared.state.withLock { $0.secondsLeft } }

    /// Stops following the limiter and clears the line, so what follows starts on a fresh
    /// one.
    public func finish() async {
        await countdown?.stop()
        estimates?.finish()
        await estimator?.value
        if shared.state.withLock({ $0.shown }) { StandardStreams.errClearStatusLine() }
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

    /// The line for `status`, nil when idle.
    static func line(status: SyncStatus, secondsLeft: Double?, rateWait: Int?) -> String? {
        var text: String
        switch status {
        case .reading(let done, let total?) where total > 0:
            text = "sync: reading \(ProgressText.bar(done, total, width: 16)) \(NumberText.grouped(done))/\(NumberText.grouped(total))"
        case .pushing(let done, let total) where total > 0:
            text = "sync: pushing \(ProgressText.bar(done, total, width: 16)) \(done)/\(total)"
        case .pricing(let done, let total) where total > 0:
            text = "value: asking Discogs \(ProgressText.bar(done, total, width: 16)) \(done)/\(total)"
        default:
            guard let plain = status.text else { return nil }
            text = plain
        }
        if let rateWait { text += " · " + StatusWording.rateLimit(seconds: rateWait) }
        if let secondsLeft, secondsLeft > 0 { text += " · " + ProgressText.duration(secondsLeft) + " left" }
        return text
    }
}
