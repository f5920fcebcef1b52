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

    /// When a release's full details come from Discogs, said in the details, when this
    /// session cannot fetch them now ("comes from Discogs once it can be reached"); nil
    /// while it can (the details say it is on its way).
    public var fullReleaseComes: String? {
        switch self {
        case .offline: "comes from Discogs once it can be reached"
        case .notSignedIn, .unauthorised: "comes from Discogs once you sign in (A)"
        case .lookupsOff: "comes from Discogs in a session with lookups on (not --no-lookup)"
        case .signedIn, .working, .rateLimited, .waitingToWrite: nil
        }
    }

    /// The long form, for a wide status line.
    public var text: String {
        switch self {
        case .notSignedIn: StatusWording.discogs("not signed in (A or `crates auth`)")
        case .lookupsOff: StatusWording.discogs("lookups off (--no-lookup)")
        case .signedIn(let user): StatusWording.discogs(user)
        case .working(let user, _): StatusWording.discogs("\(user ?? "anonymous"), \(StatusWording.lookingUp)")
        case .offline: StatusWording.discogs(StatusWording.offline)
        case .rateLimited(let seconds): StatusWording.discogs(StatusWording.rateLimit(seconds: seconds))
        case .waitingToWrite: StatusWording.discogs("waiting for the collection (locked by another program)")
        case .unauthorised: StatusWording.discogs("credentials refused (A or `crates auth`)")
        }
    }

    /// The short form, for a narrow one.
    public var shortText: String {
        switch self {
        case .notSignedIn: "not signed in"
        case .lookupsOff: "lookups off"
        case .signedIn: "online"
        case .working: StatusWording.lookingUp
        case .offline: StatusWording.offline
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
