import CratesCore
import CratesNet
import Foundation
import Glibc

/// Standard output and standard error for the commands: written at once (no buffer to lose
/// if the process is stopped, and the two streams interleave in order when they share a
/// terminal or a file).
enum StandardStreams {
    /// Why standard output could not be written: said as the C library says it ("No space
    /// left on device"), never as Foundation's NSCocoaErrorDomain text.
    struct OutputError: Error, CustomStringConvertible {
        var reason: String
        var description: String { "cannot write to standard output: \(reason)" }
    }

    /// Call first thing in `main`, before anything opens a file: descriptors 0–2 that were
    /// closed are filled with /dev/null (`StandardDescriptors.occupy`) so that no file the
    /// program opens takes their number, and remembered so that output to a closed standard
    /// output is an error, not lost without a word.
    static func prepare() {
        StandardDescriptors.occupy()
        // A file size limit (`ulimit -f`) must be a write error to report, not a signal that
        // kills the process half-way through a batch (SQLite rolls the batch back).
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Whether standard output was closed when the process started (`>&-`): what is
    /// written there is an error, not lost without a word.
    static var standardOutputClosedAtStart: Bool {
        StandardDescriptors.wasClosedAtStart(STDOUT_FILENO)
    }

    // Every text a command prints passes through here, and is made printable here
    // (`ControlCharacters.printable`): what Discogs, a file or the camera daemon sent never
    // reaches the terminal with a control character the terminal would obey, whichever
    // command prints it, a new one included. JSON goes through `out(json:)`, which escapes
    // them instead (the same strings, once parsed); crates' own escapes (a progress bar's
    // redraw, a cover drawn in colours) through the two calls named for them.

    /// Writes `text` to standard output, made printable.
    static func out(_ text: String) throws(OutputError) {
        try write(ControlCharacters.printable(text))
    }

    /// Lines on standard output, each made printable, written in chunks of about 64 KB.
    static func out(lines: some Sequence<String>) throws(OutputError) {
        try chunked(lines.lazy.map(ControlCharacters.printable))
    }

    /// JSON values on standard output, one a line: each control character a string holds
    /// written as its escape (`JSONStringLiteral.escapingControls`), never raw.
    static func out(jsonLines lines: some Sequence<String>) throws(OutputError) {
        try chunked(lines.lazy.map(JSONStringLiteral.escapingControls))
    }

    /// JSON text (values a line each, their line feeds included) on standard output, as
    /// `out(jsonLines:)` writes it.
    static func out(json text: String) throws(OutputError) {
        try write(JSONStringLiteral.escapingControls(text))
    }

    /// A drawing crates made itself (a cover as colour escapes, from the image's pixels):
    /// written as it is. Never for text from outside.
    static func out(drawing lines: [String]) throws(OutputError) {
        try chunked(lines)
    }

    private static func chunked(_ lines: some Sequence<String>) throws(OutputError) {
        var chunk = ""
        for line in lines {
            chunk += line
            chunk += "\n"
            if chunk.utf8.count >= 65_536 {
                try write(chunk)
                chunk = ""
            }
        }
        if !chunk.isEmpty { try write(chunk) }
    }

    private static func write(_ text: String) throws(OutputError) {
        if standardOutputClosedAtStart {
            throw OutputError(reason: "it was closed when crates started")
        }
        // The string's own UTF-8, not a copy of it (a page of a listing is hundreds of KB).
        var text = text
        let failure: Int32? = text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw OutputError(reason: String(cString: strerror(failure))) }
    }

    /// A message for the person at the terminal, made printable. Never fails: a closed
    /// stderr loses it. A text that begins with the status line's redraw (`errStatusLine`'s
    /// carriage return and erase) keeps it: that much is crates' own, and only erases a line.
    static func err(_ text: String) {
        if text.hasPrefix(statusLineRedraw) {
            writeError(statusLineRedraw + ControlCharacters.printable(String(text.dropFirst(statusLineRedraw.count))))
        } else {
            writeError(ControlCharacters.printable(text))
        }
    }

    /// A yes (y, yes) on standard input to the question just asked on standard error;
    /// anything else, or nothing, is no.
    static func confirmed() -> Bool {
        err(" (y/N) ")
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        if answer == nil { errLine("") }
        return answer == "y" || answer == "yes"
    }

    /// One line on standard error, made printable.
    static func errLine(_ line: String) { err(line + "\n") }

    /// A progress bar's line, drawn over the one before it on a terminal's standard error
    /// (a carriage return and an erase to the end of the line, then `line` made printable).
    static func errStatusLine(_ line: String) {
        writeError(statusLineRedraw + ControlCharacters.printable(line))
    }

    /// `errStatusLine`, cut to the terminal's width first (with "…"): a line that wraps
    /// cannot be redrawn in place.
    static func errStatusLine(fitted line: String) {
        errStatusLine(line.count > statusLineWidth ? String(line.prefix(statusLineWidth - 1)) + "…" : line)
    }

    /// The columns a progress bar's line may take: one fewer than the terminal's, and at
    /// least 10.
    static var statusLineWidth: Int { max(10, terminalWidth - 1) }

    /// Erases the progress bar's line (`errStatusLine`), leaving the cursor at its start.
    static func errClearStatusLine() {
        writeError(statusLineRedraw)
    }

    /// A carriage return and an erase to the end of the line (ECMA-48 EL).
    private static let statusLineRedraw = "\r\u{1B}[K"

    private static func writeError(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Whether standard error is a terminal (a progress bar), or a file or pipe (plain lines).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal: a person reads it (aligned columns, readable
    /// words), not a script (the lines as they are).
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The width standard output is laid out to: `COLUMNS` when set to a number (at most
    /// 1,000), else the width of the terminal it is on, else 80 (a pipe, a file).
    static var outputWidth: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return min(columns, 1000) }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// The terminal's width in columns (80 when it cannot be told).
    static var terminalWidth: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
