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

    /// The long form, for a wide status line.
    public var text: String {
        switch self {
        case .notSignedIn: "Discogs: not signed in (A or `crates auth`)"
        case .lookupsOff: "Discogs: lookups off (--no-lookup)"
        case .signedIn(let user): "Discogs: \(user)"
        case .working(let user, _): "Discogs: \(user ?? "anonymous"), looking up"
        case .offline: "Discogs: offline"
        case .rateLimited(let seconds): "Discogs: rate limit: resuming in \(seconds) s"
        case .waitingToWrite: "Discogs: waiting for the collection (locked by another program)"
        case .unauthorised: "Discogs: credentials refused (A or `crates auth`)"
        }
    }

    /// The short form, for a narrow one.
    public var shortText: String {
        switch self {
        case .notSignedIn: "not signed in"
        case .lookupsOff: "lookups off"
        case .signedIn: "online"
        case .working: "looking up"
        case .offline: "offline"
        case .rateLimited(let seconds): "wait \(seconds) s"
        case .waitingToWrite: "db locked"
        case .unauthorised: "refused"
        }
    }
}

/// The camera daemon as the status line shows it.
public enum CameraStatus: Equatable, Sendable {
    case disabled, noDaemon, connected

    public var text: String? {
        switch self {
        case .disabled: nil
        case .noDaemon: "camera: no daemon"
        case .connected: "camera: connected"
        }
    }

    public var shortText: String? {
        switch self {
        case .disabled: nil
        case .noDaemon: "no cam"
        case .connected: "cam"
        }
    }
}
