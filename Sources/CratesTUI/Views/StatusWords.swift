import CratesCore

// The status line's words for the Discogs side and the camera: the UI's, since they name its
// keys ("A" signs in) and fit its line; the application only says which state it is in.

extension DiscogsStatus {
    /// When a release's full details come from Discogs, said in the details, when this
    /// session cannot fetch them now ("comes from Discogs once it can be reached"); nil
    /// while it can (the details say it is on its way).
    var fullReleaseComes: String? {
        switch self {
        case .offline: "comes from Discogs once it can be reached"
        case .notSignedIn, .unauthorised: "comes from Discogs once you sign in (A)"
        case .lookupsOff: "comes from Discogs in a session with lookups on (not --no-lookup)"
        case .signedIn, .working, .rateLimited, .waitingToWrite: nil
        }
    }

    /// The long form, for a wide status line.
    var text: String {
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
    var shortText: String {
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

extension CameraStatus {
    var text: String? {
        switch self {
        case .disabled: nil
        case .noDaemon: "camera: no daemon"
        case .connected: "camera: connected"
        }
    }

    var shortText: String? {
        switch self {
        case .disabled: nil
        case .noDaemon: "no cam"
        case .connected: "cam"
        }
    }
}
