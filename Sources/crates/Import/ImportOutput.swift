import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `crates import` writes: results on standard output, refused lines, progress and
/// messages on standard error. Lines are written whole and at once, so the two streams
/// interleave in order when they share a terminal; a long listing is written in chunks.
enum ImportOutput {
    /// A line on standard error. Never fails: a closed stderr loses it.
    static func error(_ line: String) {
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Lines on standard output, written in chunks of about 64 KB.
    static func out(_ lines: some Sequence<String>) throws {
        var chunk = ""
        for line in lines {
            chunk += line
            chunk += "\n"
            if chunk.utf8.count >= 65_536 {
                try FileHandle.standardOutput.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        if !chunk.isEmpty { try FileHandle.standardOutput.write(contentsOf: Data(chunk.utf8)) }
    }

    static func out(_ line: String) throws { try out([line]) }

    /// Whether standard error is a terminal (a progress bar), or a file or pipe (plain lines).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The terminal's width in columns (80 when it cannot be told).
    static var terminalWidth: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
