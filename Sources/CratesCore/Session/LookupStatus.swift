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
    /// only then.
    case waitingToWrite(reason: String)
    /// The credentials were refused: the worker has stopped.
    case unauthorized(message: String)
    case stopped

    public var description: String {
        switch self {
        case .starting: StatusWording.discogs("starting")
        case .idle: StatusWording.discogs("up to date")
        case .working(let n): StatusWording.discogs(n > 0 ? "\(StatusWording.lookingUp), \(n) waiting" : StatusWording.lookingUp)
        case .offline(let n): StatusWording.discogs("\(StatusWording.offline), \(n) lookup\(n == 1 ? "" : "s") waiting")
        case .rateLimited(let s): StatusWording.discogs(StatusWording.rateLimit(seconds: s))
        case .waitingToWrite(let reason): StatusWording.discogs("a result waits to be written: \(reason)")
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
