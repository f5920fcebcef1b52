/// The Discogs side of a session as the collection UI's status line shows it: who is signed
/// in, and what the lookups are doing.
public enum DiscogsStatus: Equatable, Sendable {
    case notSignedIn
    /// `--no-lookup`: the records wait in the queue.
    case lookupsOff
    case signedIn(username: String)
    case working(username: String?, waiting: Int)
    case offline
    case rateLimited(seconds: Int)
    /// A result waits for the collection, which another program keeps locked.
    case waitingToWrite
    case unauthorised(String)

    /// The status line's view of the worker's status.
    public init(_ status: LookupStatus, username: String?) {
        switch status {
        case .starting, .idle, .stopped: self = .signedIn(username: username ?? "signed in")
        case .working(let waiting): self = .working(username: username, waiting: waiting)
        case .offline: self = .offline
        case .rateLimited(let seconds): self = .rateLimited(seconds: seconds)
        case .waitingToWrite: self = .waitingToWrite
        case .unauthorized(let message): self = .unauthorised(message)
        }
    }

    /// Whether lookups run in this session now (signed in, not refused, not turned off).
    public var looksUp: Bool {
        switch self {
        case .notSignedIn, .lookupsOff, .unauthorised: false
        case .signedIn, .working, .offline, .rateLimited, .waitingToWrite: true
        }
    }
}

/// The camera daemon as the status line shows it.
public enum CameraStatus: Equatable, Sendable {
    case disabled, noDaemon, connected
}
