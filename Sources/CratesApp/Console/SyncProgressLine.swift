import CratesCore
import Foundation
import Synchronization

/// A sync's progress on standard error, redrawn in place ("sync: reading 300/5,000"), when
/// standard error is a terminal. To a file or a pipe, only a wait for another sync, once, as
/// a line: the summary says the rest.
public final class SyncProgressLine: Sendable {
    public let terminal: Bool
    private let shown = Mutex(false)
    private let waitingSaid = Mutex(false)

    public init(terminal: Bool = StandardStreams.errorIsTerminal) {
        self.terminal = terminal
    }

    public func show(_ status: SyncStatus) {
        guard let text = status.text else { return }
        guard terminal else {
            // A script's log still learns why the sync has not begun.
            if case .waiting = status, !waitingSaid.withLock({ said in defer { said = true }; return said }) {
                StandardStreams.errLine("crates \(text)")
            }
            return
        }
        shown.withLock { $0 = true }
        let width = max(10, StandardStreams.terminalWidth - 1)
        let line = text.count > width ? String(text.prefix(width - 1)) + "…" : text
        StandardStreams.err("\r\u{1B}[K\(line)")
    }

    /// Clears the line, so what follows starts on a fresh one.
    public func finish() {
        if shown.withLock({ $0 }) { StandardStreams.err("\r\u{1B}[K") }
    }
}
