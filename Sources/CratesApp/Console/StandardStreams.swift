import Foundation

/// Standard output and standard error for the commands: written at once (no buffer to lose
/// if the process is stopped, and the two streams interleave in order when they share a
/// terminal or a file).
public enum StandardStreams {
    public static func out(_ text: String) throws {
        try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }

    /// Lines on standard output, written in chunks of about 64 KB.
    public static func out(lines: some Sequence<String>) throws {
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
