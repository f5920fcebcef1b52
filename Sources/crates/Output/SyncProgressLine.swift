import CratesApp
import CratesCore
import CratesNet
import Synchronization

/// A sync's progress on standard error, when standard error is a terminal: a bar redrawn in
/// place with the time left at Discogs' rate, as an import's, and Discogs' rate waits counted
/// down ("sync: pushing [#####-----] 53/199 · rate limit: resuming in 36 s · 3 min left").
/// To a file or a pipe, only a wait for another sync, and each rate wait as it starts, as a
/// line: the summary says the rest.
final class SyncProgressLine: Sendable {
    struct State {
        var status = SyncStatus.idle
        var secondsLeft: Double?
        var rateWait: Int?
        var waitingSaid = false
    }

    /// What the line shows, shared with the tasks that follow the limiter; each line is drawn
    /// under its lock, so that an older one never lands after a newer.
    final class Shared: Sendable {
        let line: StatusLine
        var terminal: Bool { line.terminal }
        let state = Mutex(State())

        init(terminal: Bool) {
            line = StatusLine(terminal: terminal)
        }

        /// Changes the state and, on a terminal, draws the line it makes.
        func update(_ change: (inout State) -> Void) {
            state.withLock { state in
                change(&state)
                guard terminal, let text = state.status.progressLine(secondsLeft: state.secondsLeft, rateWait: state.rateWait)
                else { return }
                line.show(text)
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

    var terminal: Bool { shared.terminal }
    private let shared: Shared
    /// Works out the time left and follows the limiter's waits (without a limiter, only the
    /// counts).
    private let timeLeft: SyncTimeLeft?

    /// `limiter`: the client's, whose window tells the time left and whose waits are counted
    /// down. `priority`: the requests' (`SyncTimeLeft`).
    init(terminal: Bool = StandardStreams.errorIsTerminal, limiter: RateLimiter? = nil, priority: RateLimiter.Priority = .lookup) {
        let shared = Shared(terminal: terminal)
        self.shared = shared
        timeLeft = limiter.map { limiter in
            SyncTimeLeft(
                limiter: limiter, priority: priority, timeLeft: { seconds in shared.update { $0.secondsLeft = seconds } },
                rateWait: { shared.rateWait($0) })
        }
    }

    func show(_ status: SyncStatus) {
        var sayWaiting = false
        shared.update { state in
            state.status = status
            if case .waiting = status, !state.waitingSaid {
                state.waitingSaid = true
                sayWaiting = true
            }
        }
        timeLeft?.show(status)
        // A script's log still learns why the sync has not begun.
        if !terminal, sayWaiting, let text = status.text { StandardStreams.errLine("crates \(text)") }
    }

    /// Discogs' rate limit holds the sync back for `secondsLeft` more seconds (nil: no
    /// longer).
    func rateWait(_ secondsLeft: Int?) {
        shared.rateWait(secondsLeft)
    }

    /// Stops following the limiter and clears the line, so what follows starts on a fresh
    /// one.
    func finish() async {
        await timeLeft?.finish()
        shared.line.finish()
    }
}
