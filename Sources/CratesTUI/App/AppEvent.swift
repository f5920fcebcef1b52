import CratesCore

/// Everything that can happen to the UI: keys, the terminal, and what the workers report.
/// Workers post these into the UI's inbox; only the UI thread applies them.
public enum AppEvent: Sendable {
    /// A key, with a monotonic timestamp in seconds (wedge scanners type 5–30 ms apart).
    case key(Key, at: Double)
    case resize(width: Int, height: Int)
    /// The store answered a `ListQuery` (asked for, or re-run after the collection changed).
    case list(ListModel)
    /// A scanned GTIN is already in the collection: ask before adding another copy.
    case duplicate(GTIN, method: AddMethod, copies: Int)
    case details(RecordDetails)
    /// A record was added: the selection moves to it once the collection shows it.
    case added(recordID: Int64)
    /// Records were deleted; `undo` names the batch for `AppCommand.undo`.
    case deleted(count: Int, undo: Int)
    case restored(count: Int)
    case discogs(DiscogsStatus)
    case camera(CameraStatus)
    /// Lookups waiting in the queue.
    case waiting(Int)
    case message(String, isError: Bool)
    /// A barcode from the camera daemon (or any source other than the keyboard).
    case scan(String, method: AddMethod)
    /// A code the camera daemon read: a barcode or a QR code holding a Discogs release URL is
    /// added as `scan` would add it; any other code is shown and not added (`ScanIntent`).
    case cameraScan(ScanEvent)
}

/// What the UI asks the workers to do. None of these run on the UI thread.
public enum AppCommand: Equatable, Sendable {
    /// Adds a copy, unless the collection has the GTIN already: then `.duplicate` comes back.
    case add(GTIN, method: AddMethod)
    /// Adds a further copy of a GTIN the collection has (the user said yes).
    case addCopy(GTIN, method: AddMethod)
    /// Fetch (and keep fetching, as the collection changes) this part of the list.
    case query(ListQuery)
    /// The record the selection is on, so that a refetch after a change locates it.
    case focus(Int64?)
    case addRelease(id: Int, method: AddMethod)
    case delete([Int64])
    case undo(Int)
    case loadDetails(Int64)
    case retry(Int64)
    case choose(recordID: Int64, releaseID: Int)
    case openURL(String)
    case authenticate
    case suspend
    case redraw
    case quit
}

/// The Discogs side as the status line shows it.
public enum DiscogsStatus: Equatable, Sendable {
    case notSignedIn
    case signedIn(username: String)
    case working(username: String?)
    case offline
    case rateLimited(until: Double?)
    case unauthorised(String)

    var text: String {
        switch self {
        case .notSignedIn: return "Discogs: not signed in (A or `crates auth`)"
        case .signedIn(let user): return "Discogs: \(user)"
        case .working(let user): return "Discogs: \(user ?? "anonymous"), looking up"
        case .offline: return "Discogs: offline"
        case .rateLimited: return "Discogs: rate-limited, waiting"
        case .unauthorised: return "Discogs: credentials refused (A or `crates auth`)"
        }
    }

    var shortText: String {
        switch self {
        case .notSignedIn: return "not signed in"
        case .signedIn: return "online"
        case .working: return "looking up"
        case .offline: return "offline"
        case .rateLimited: return "rate-limited"
        case .unauthorised: return "refused"
        }
    }
}

/// The camera daemon as the status line shows it.
public enum CameraStatus: Equatable, Sendable {
    case disabled, noDaemon, connected

    var text: String? {
        switch self {
        case .disabled: return nil
        case .noDaemon: return "camera: no daemon"
        case .connected: return "camera: connected"
        }
    }

    var shortText: String? {
        switch self {
        case .disabled: return nil
        case .noDaemon: return "no cam"
        case .connected: return "cam"
        }
    }
}
