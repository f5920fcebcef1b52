import Glibc

/// Puts the terminal back however the process ends: quit, SIGTERM/SIGHUP/SIGINT (handled by
/// the UI loop through `SignalPipe`), and crashes (handled here, in a signal handler, using
/// only async-signal-safe calls: write(2), tcsetattr(3), signal(2), raise(3)).
enum TerminalRestore {
    // Set once in `install()` on the UI thread before any handler can run, read only by the
    // handlers afterwards: no lock needed, and none is allowed in a signal handler.
    nonisolated(unsafe) private static var savedTermios = termios()
    nonisolated(unsafe) private static var haveTermios = false

    /// Leave the alternate screen, show the cursor, reset attributes, end any hyperlink.
    private static let resetSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\u{1B}]8;;\u{1B}\\".utf8)

    static func install() {
        if tcgetattr(STDIN_FILENO, &savedTermios) == 0 { haveTermios = true }
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
            signal(sig) { number in
                TerminalRestore.restoreNow()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Restores the saved terminal modes and resets the screen. Async-signal-safe.
    static func restoreNow() {
        resetSequence.withUnsafeBufferPointer { buffer in
            _ = Glibc.write(STDOUT_FILENO, buffer.baseAddress, buffer.count)
        }
        if haveTermios { _ = tcsetattr(STDIN_FILENO, TCSANOW, &savedTermios) }
    }

    static func writeRaw(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            _ = Glibc.write(STDOUT_FILENO, buffer.baseAddress, buffer.count)
        }
    }
}
