import CratesApp
import CratesCore
import Foundation
import Synchronization

/// A download's progress on standard error: a bar redrawn in place on a terminal (bytes,
/// rate, time left when the size is known), plain lines every `plainInterval` seconds to a
/// file or a pipe (`StatusLine`).
final class DownloadProgress: DownloadReporting {
    private struct State {
        var name = ""
        var done: Int64 = 0
        var total: Int64?
        /// Where this attempt began, to measure its rate.
        var attemptStart: (bytes: Int64, at: Date)?
    }

    private let line = StatusLine()
    private let state = Mutex(State())

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
        line.finish(keep: true)
        StandardStreams.errLine(text)
    }

    /// Ends the bar's line (or writes the last plain line).
    func finish() {
        show(force: true)
        line.finish(keep: true)
    }

    private func show(force: Bool) {
        let now = Date()
        guard line.due(at: now.timeIntervalSinceReferenceDate, force: force) else { return }
        let (name, done, total, start) = state.withLock { ($0.name, $0.done, $0.total, $0.attemptStart) }
        let rate = start.flatMap { start -> Double? in
            let seconds = now.timeIntervalSince(start.at)
            return seconds >= 0.5 ? Double(done - start.bytes) / seconds : nil
        }
        let left = total.flatMap { total -> Double? in
            guard let rate, rate > 0, total > done else { return nil }
            return Double(total - done) / rate
        }
        let parts = [ProgressText.bytes(done) + (total.map { " of " + ProgressText.bytes($0) } ?? "")]
            + (rate.map { [ProgressText.bytes(Int64($0)) + "/s"] } ?? [])
        guard line.terminal else {
            let about = left.map { ["about " + ProgressText.duration($0) + " left"] } ?? []
            return line.show("download: \(name): " + (parts + about).joined(separator: ", "))
        }
        let bar = total.map { ProgressText.bar(Int(min(done, $0) >> 10), Int($0 >> 10), width: 20) + " " } ?? ""
        line.show("Downloading \(bar)" + (parts + (left.map { [ProgressText.duration($0) + " left"] } ?? [])).joined(separator: " · "))
    }
}
