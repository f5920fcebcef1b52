import CratesApp
import CratesCore
import Foundation
import Synchronization

/// The progress of an import on standard error: a bar redrawn in place when stderr is a
/// terminal, plain lines every `plainInterval` seconds (and at the end of each phase) when
/// it is a file or a pipe (`StatusLine`).
final class ImportProgress: ImportReporting {
    private let line = StatusLine()
    private var terminal: Bool { line.terminal }
    private let state = Mutex<(last: ImportLookupsProgress?, rateWait: Int?)>((nil, nil))

    /// Records added so far (shown on a terminal only: adding takes a second or two).
    func adding(_ done: Int, of total: Int) {
        guard terminal, total > 0 else { return }
        line.show("Adding \(ProgressText.bar(done, total, width: 20)) \(done)/\(total)")
    }

    /// The lookups so far; `final` forces a plain line (the end of the phase).
    func lookups(_ value: ImportLookupsProgress, final: Bool = false) {
        let wait = state.withLock { state in
            state.last = value
            return final ? nil : state.rateWait
        }
        let c = value.counts
        let counts = "matched \(c.matched) · ambiguous \(c.ambiguous) · not found \(c.notFound)"
            + (c.skipped > 0 ? " · skipped \(c.skipped)" : "") + " · failed \(c.failed)"
        if terminal {
            // The wait first and the time left last, both kept: the counts give way to them
            // on a terminal too narrow for the whole line.
            var parts: [(long: String, short: String)] = []
            if let wait { parts.append((StatusWording.rateLimit(seconds: wait), StatusWording.rateLimit(seconds: wait))) }
            parts += [("matched \(c.matched)", "\(c.matched) ok"), ("ambiguous \(c.ambiguous)", "\(c.ambiguous) amb"),
                      ("not found \(c.notFound)", "\(c.notFound) nf")]
            if c.skipped > 0 { parts.append(("skipped \(c.skipped)", "\(c.skipped) skip")) }
            parts.append(("failed \(c.failed)", "\(c.failed) fail"))
            let head = "Looking up \(ProgressText.bar(c.done, value.total, width: 16)) \(c.done)/\(value.total)"
            let tail = value.secondsLeft.map { ProgressText.duration($0) + " left" }
            line.show(ProgressText.fitted(head: head, parts: parts, tail: tail, width: StandardStreams.statusLineWidth))
            return
        }
        guard line.due(at: Date().timeIntervalSinceReferenceDate, force: final) else { return }
        let plainCounts = counts.replacingOccurrences(of: " · ", with: ", ")
        let plainLeft = value.secondsLeft.map { ", about " + ProgressText.duration($0) + " left" } ?? ""
        StandardStreams.errLine("lookups: \(c.done)/\(value.total) done, \(plainCounts)\(final ? "" : plainLeft)")
    }

    /// Discogs' rate limit holds the lookups back for `secondsLeft` more seconds (nil: no
    /// longer): the bar says so, counting down (`RateWaitCountdown`); a plain log gets a line
    /// when a wait starts.
    func rateWait(_ secondsLeft: Int?) {
        let (last, started) = state.withLock { state -> (ImportLookupsProgress?, Bool) in
            defer { state.rateWait = secondsLeft }
            return (state.last, state.rateWait == nil && secondsLeft != nil)
        }
        if terminal {
            if let last { lookups(last) }
        } else if started, let secondsLeft {
            let done = last.map { "\($0.counts.done)/\($0.total) done, " } ?? ""
            StandardStreams.errLine("lookups: \(done)\(StatusWording.rateLimit(seconds: secondsLeft))")
        }
    }

    /// A line of its own on standard error (what the lookups wait for), below any bar.
    func note(_ text: String) {
        finish()
        StandardStreams.errLine(text)
    }

    /// Ends the bar's line, so what follows starts on a fresh one.
    func finish() { line.finish() }
}
