import CratesApp
import CratesCore
import Foundation
import Synchronization

/// A download's progress on standard error: a bar redrawn in place on a terminal (bytes,
/// rate, time left when the size is known), plain lines every `plainInterval` seconds to a
/// file or a pipe.
final class DownloadProgress: DownloadReporting {
    private struct State {
        var name = ""
        var done: Int64 = 0
        var total: Int64?
        /// Where this attempt began, to measure its rate.
        var attemptStart: (bytes: Int64, at: Date)?
        var lastDrawn: Date?
        var barShown = false
    }

    let terminal: Bool
    let plainInterval: Double
    private let state = Mutex(State())

    init(terminal: Bool = StandardStreams.errorIsTerminal, plainInterval: Double = 10) {
        self.terminal = terminal
        self.plainInterval = plainInterval
    }

    /// The file being downloaded, as the lines name it.
    func start(_ name: String) {
        state.withLock { $0.name = name }
    }

    /// An attempt's answer began: `done` bytes already in the file, `total` when known.
    func begin(from done: Int64, total: Int64?) {
        state.withLock { state in
            state.done = done
            state.total = total
            state.attemptStart = (done, Date())
        }
        show(force: true)
    }

    func advance(to done: Int64, total: Int64?) {
        state.withLock { state in
            state.done = done
            state.total = total ?? state.total
        }
        show(force: false)
    }

    /// Redraws when due, bytes or not: the rate and the time left follow a stall.
    func tick() {
        show(force: false)
    }

    /// A line of its own, below any bar.
    func note(_ text: String) {
        clear()
        StandardStreams.errLine(text)
    }

    /// Ends the bar's line (or writes the last plain line).
    func finish() {
        show(force: true)
        clear()
    }

    private func clear() {
        let shown = state.withLock { state -> Bool in
            defer { state.barShown = false }
            return state.barShown
        }
        if shown { StandardStreams.errLine("") }
    }

    private func show(force: Bool) {
        let now = Date()
        let line: String? = state.withLock { state in
            let interval = terminal ? 0.2 : plainInterval
            guard force || state.lastDrawn.map({ now.timeIntervalSince($0) >= interval }) ?? true else { return nil }
            state.lastDrawn = now
            let rate = state.attemptStart.flatMap { start -> Double? in
                let seconds = now.timeIntervalSince(start.at)
                return seconds >= 0.5 ? Double(state.done - start.bytes) / seconds : nil
            }
            let left = state.total.flatMap { total -> Double? in
                guard let rate, rate > 0, total > state.done else { return nil }
                return Double(total - state.done) / rate
            }
            let amount = ProgressText.bytes(state.done) + (state.total.map { " of " + ProgressText.bytes($0) } ?? "")
            if terminal {
                state.barShown = true
                let bar = state.total.map { total in
                    ProgressText.bar(Int(min(state.done, total) >> 10), Int(total >> 10), width: 20) + " "
                } ?? ""
                let parts = [amount] + (rate.map { [ProgressText.bytes(Int64($0)) + "/s"] } ?? [])
                    + (left.map { [ProgressText.duration($0) + " left"] } ?? [])
                return "Downloading \(bar)" + parts.joined(separator: " · ")
            }
            let parts = [amount] + (rate.map { [ProgressText.bytes(Int64($0)) + "/s"] } ?? [])
                + (left.map { ["about " + ProgressText.duration($0) + " left"] } ?? [])
            return "download: \(state.name): " + parts.joined(separator: ", ") + "\n"
        }
        guard let line else { return }
        if terminal {
            StandardStreams.errStatusLine(fitted: line)
        } else {
            StandardStreams.err(line)
        }
    }
}
