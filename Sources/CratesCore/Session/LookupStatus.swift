/// What the lookup worker is doing, as it reports it.
public enum LookupStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not yet looked at the queue.
    case starting
    /// Nothing is due (failed lookups wait for their retry time).
    case idle
    /// Looking records up; `waiting` more wait after those in hand.
    case working(waiting: Int)
    /// Discogs cannot be reached; the records wait for the network.
    case offline(waiting: Int)
    /// Holding back for the rate limit for about this many seconds.
    case rateLimited(seconds: Int)
    /// A lookup's outcome is found but the collection will not take it yet (another program
    /// keeps it locked, say `reason`): it is tried again until it is written, and counted
    /// only then (issue 12).
    case waitingToWrite(reason: String)
    /// The credentials were refused: the worker has stopped.
    case unauthorized(message: String)
    case stopped

    public var description: String {
        switch self {
        case .starting: "Discogs: starting"
        case .idle: "Discogs: up to date"
        case .working(let n): n > 0 ? "Discogs: looking up, \(n) waiting" : "Discogs: looking up"
        case .offline(let n): "Discogs: offline, \(n) lookup\(n == 1 ? "" : "s") waiting"
        case .rateLimited(let s): "Discogs rate limit: resuming in \(s) s"
        case .waitingToWrite(let reason): "Discogs: a result waits to be written: \(reason)"
        case .unauthorized: "Discogs refused the credentials: run `crates auth`"
        case .stopped: "Discogs lookups stopped"
        }
    }

    /// Whether the worker has ended (stopped, or stopped by refused credentials).
    public var isFinal: Bool {
        switch self {
        case .stopped, .unauthorized: true
        default: false
        }
    }
}
