import CratesCore

/// What an import says while it runs, for whoever shows it: the command's progress bar on
/// standard error (`ImportProgress`, in the executable), or nothing in a test. The use case
/// says what happened; how it is drawn is the caller's.
public protocol ImportReporting: Sendable {
    /// Records added so far.
    func adding(_ done: Int, of total: Int)
    /// The lookups so far; `final` at the end of the phase.
    func lookups(_ value: ImportLookupsProgress, final: Bool)
    /// Discogs' rate limit holds the lookups back for `secondsLeft` more seconds (nil: no
    /// longer).
    func rateWait(_ secondsLeft: Int?)
    /// A line of its own (what the import waits for).
    func note(_ text: String)
    /// The phase is over: what follows starts on a fresh line.
    func finish()
}

/// The lookups of an import so far.
public struct ImportLookupsProgress: Hashable, Sendable {
    public var counts = LookupCounts()
    public var total = 0
    /// Seconds left at Discogs' rate, if it can be told.
    public var secondsLeft: Double?

    public init(counts: LookupCounts = LookupCounts(), total: Int = 0, secondsLeft: Double? = nil) {
        self.counts = counts
        self.total = total
        self.secondsLeft = secondsLeft
    }
}
