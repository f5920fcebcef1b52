import Synchronization

/// The line a progress report keeps on standard error (an import's, a download's, a catalogue
/// build's): on a terminal a bar drawn over itself, at most every `redraw` seconds; to a file
/// or a pipe a plain line at most every `plainInterval` seconds, so a script's log stays
/// short. The seconds are the caller's clock (the wall's, or the work's own count).
final class StatusLine: Sendable {
    let terminal: Bool
    /// The seconds between two lines: `redraw` on a terminal, `plainInterval` otherwise.
    let interval: Double
    private let state = Mutex<(last: Double?, shown: Bool)>((nil, false))

    init(terminal: Bool = StandardStreams.errorIsTerminal, redraw: Double = 0.2, plainInterval: Double = 10) {
        self.terminal = terminal
        interval = terminal ? redraw : plainInterval
    }

    /// Whether a line is due at `now` (the first is, and a forced one), noting it drawn if so.
    func due(at now: Double, force: Bool = false) -> Bool {
        state.withLock { state in
            guard force || state.last.map({ now - $0 >= interval }) ?? true else { return false }
            state.last = now
            return true
        }
    }

    /// `text` over the last line on a terminal (cut to its width), else as a line of its own.
    func show(_ text: String) {
        guard terminal else { return StandardStreams.errLine(text) }
        state.withLock { $0.shown = true }
        StandardStreams.errStatusLine(fitted: text)
    }

    /// Ends a bar's line, so that what follows starts on a fresh one: erased, or with `keep`
    /// left as it is.
    func finish(keep: Bool = false) {
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { keep ? StandardStreams.errLine("") : StandardStreams.errClearStatusLine() }
    }
}
