import CratesCore

/// What a scanner client reports, in order: the connection coming and going, each event, and
/// each line dropped as malformed.
public enum ScanMessage: Hashable, Sendable {
    /// Connected to the daemon (a status line shows "camera: connected").
    case connected(path: String)
    /// A scan.
    case event(ScanEvent)
    /// A line that was not an event, dropped (log it; never fatal).
    case dropped(ScanLineError)
    /// Not connected: the daemon went away, or (for `ScanFollower`) there is none yet; the
    /// error says which. A follower keeps trying.
    case disconnected(ScannerError)
}
