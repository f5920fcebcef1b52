import CratesCore

/// Everything that can happen to the UI: keys, the terminal, and what the application
/// reports (`SessionEvent`). Workers post these into the UI's inbox; only the UI thread
/// applies them.
public enum AppEvent: Sendable {
    /// A key, with a monotonic timestamp in seconds (wedge scanners type 5–30 ms apart).
    case key(Key, at: Double)
    case resize(width: Int, height: Int)
    case session(SessionEvent)
}

/// What the UI asks for: work for the application (`SessionRequest`, never run on the UI
/// thread), or something the UI loop does with the terminal itself.
public enum AppCommand: Equatable, Sendable {
    case session(SessionRequest)
    /// Keep this order for the next run (the list's `O`).
    case rememberOrder(ListOrder)
    case suspend
    /// Ring the terminal's bell (a refused scan).
    case bell
    case redraw
    case quit
}
