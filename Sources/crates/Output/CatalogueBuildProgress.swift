import CratesApp
import CratesCore
import CratesStore
import Foundation
import Synchronization

/// A catalogue build's progress on standard error: on a terminal, a bar redrawn in place with
/// the bytes read, releases per second and the time left; otherwise a plain line every
/// `plainInterval` seconds.
final class CatalogueBuildProgress: Sendable {
    let terminal: Bool
    let plainInterval: Double
    private let state = Mutex<(lastDraw: Double, lastPlain: Double, shown: Bool)>((-1, -1, false))

    init(terminal: Bool = StandardStreams.errorIsTerminal, plainInterval: Double = 10) {
        self.terminal = terminal
        self.plainInterval = plainInterval
    }

    func show(_ progress: CatalogueBuild.Progress) {
        let rate = progress.seconds > 0 ? Double(progress.releases) / progress.seconds : 0
        var left = ""
        if let size = progress.fileSize, size > 0, progress.fileBytesRead > 0, progress.seconds > 2 {
            let remaining = Double(size - progress.fileBytesRead) / (Double(progress.fileBytesRead) / progress.seconds)
            left = ProgressText.duration(max(0, remaining)) + " left"
        }
        let read = ByteCount.text(progress.fileBytesRead) + (progress.fileSize.map { " of " + ByteCount.text($0) } ?? "")
        let skipped = progress.skipped > 0 ? " · \(progress.skipped) skipped" : ""
        if terminal {
            let due = state.withLock { state -> Bool in
                guard progress.seconds - state.lastDraw >= 0.2 else { return false }
                state.lastDraw = progress.seconds
                state.shown = true
                return true
            }
            guard due else { return }
            let bar = progress.fileSize.map { ProgressText.bar(Int(progress.fileBytesRead / 1024), Int($0 / 1024), width: 20) + " " } ?? ""
            let line = "Building \(bar)\(read) · \(NumberText.grouped(progress.releases)) releases · \(NumberText.grouped(Int(rate)))/s"
                + (left.isEmpty ? "" : " · " + left) + skipped
            StandardStreams.errStatusLine(fitted: line)
        } else {
            let due = state.withLock { state -> Bool in
                guard state.lastPlain < 0 || progress.seconds - state.lastPlain >= plainInterval else { return false }
                state.lastPlain = progress.seconds
                return true
            }
            guard due else { return }
            StandardStreams.errLine(
                "catalogue: \(read) read, \(progress.releases) releases, \(Int(rate)) releases/s"
                    + (left.isEmpty ? "" : ", about " + left) + (progress.skipped > 0 ? ", \(progress.skipped) skipped" : ""))
        }
    }

    /// Ends the bar's line.
    func finish() {
        let shown = state.withLock { state -> Bool in
            defer { state.shown = false }
            return state.shown
        }
        if shown { StandardStreams.errClearStatusLine() }
    }
}
