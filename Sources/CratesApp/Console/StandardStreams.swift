import CratesNet
import Foundation
import Synchronization

/// Standard output and standard error for the commands: written at once (no buffer to lose
/// if the process is stopped, and the two streams interleave in order when they share a
/// terminal or a file).
public enum StandardStreams {
    /// Why standard output could not be written: said as the C library says it ("No space
    /// left on device"), never as Foundation's NSCocoaErrorDomain text.
    public struct OutputError: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { "cannot write to standard output: \(reason)" }
    }

    /// Which of descriptors 0–2 were closed when the process started: filled with
    /// /dev/null (`StandardDescriptors.occupy`) so that no file the program opens takes
    /// their number, and remembered so that output to a closed standard output is an error,
    /// not lost without a word.
    private static let closedAtStart = Mutex<Set<Int32>>([])

    /// Call first thing in `main`, before anything opens a file.
    public static func prepare() {
        let filled = StandardDescriptors.occupy()
        closedAtStart.withLock { $0 = Set(filled) }
        // A file size limit (`ulimit -f`) must be a write error to report, not a signal that
        // kills the process half-way through a batch (SQLite rolls the batch back).
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Whether standard output was closed when the process started (`>&-`): what is
    /// written there is an error, not lost without a word.
    public static var standardOutputClosedAtStart: Bool {
        closedAtStart.withLock { $0.contains(STDOUT_FILENO) }
    }

    /// Writes `text` to standard output.
    public static func out(_ text: String) throws(OutputError) {
        if standardOutputClosedAtStart {
            throw OutputError(reason: "it was closed when crates started")
        }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Lines on standard output, written in chunks of about 64 KB.
    public static func out(lines: some Sequence<String>) throws(OutputError) {
        var chunk = ""
        for line in lines {
            chunk += line
            chunk += "\n"
            if chunk.utf8.count >= 65_536 {
                try out(chunk)
                chunk = ""
            }
        }
        if !chunk.isEmpty { try out(chunk) }
    }

    /// A message for the person at the terminal. Never fails: a closed stderr loses it.
    public static func err(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// One line on standard error.
    public static func errLine(_ line: String) { err(line + "\n") }

    /// Whether standard error is a terminal (a progress bar), or a file or pipe (plain lines).
    public static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The terminal's width in columns (80 when it cannot be told).
    public static var terminalWidth: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
