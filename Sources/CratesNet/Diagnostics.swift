import CratesCore
import Synchronization

/// The raw detail behind a message: what Discogs' server sent instead of an answer (an HTML
/// error page, a body that does not parse, a redirect's address), libcurl's own text, a
/// system call and its errno. Messages say what happened in crates' words and never quote
/// it; a command run with `--verbose` installs a sink, which writes each detail to standard
/// error as it happens. Without a sink the details are dropped.
public enum Diagnostics {
    private static let sink = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Sends every detail from now on to `write` (nil: drops them again).
    public static func install(_ write: (@Sendable (String) -> Void)?) {
        sink.withLock { $0 = write }
    }

    /// Whether a sink is installed: the detail is worth putting together.
    public static var isEnabled: Bool { sink.withLock { $0 != nil } }

    /// Hands `detail` to the sink, cleaned of control characters and clipped.
    public static func note(_ detail: @autoclosure () -> String) {
        guard let write = sink.withLock({ $0 }) else { return }
        write(ControlCharacters.clipped(detail(), limit: 2000))
    }
}
