extension LookupWorker {
    /// The worker's timings and limits.
    public struct Policy: Sendable {
        /// When another record is claimed, and when the worker looks again.
        public var claims = ClaimPolicy()
        /// When Discogs counts as unreachable, and how often it is probed then.
        public var reachability = Reachability.Rule()
        /// The pauses before sending a failed request again within the run; a record fails
        /// (to be retried later, `retryLater`) at the failure after the last pause. With 30%
        /// of answers failing, eight attempts leave one record in 15,000 failed. Doubling
        /// stops at 8 s: the rate limit already spaces a record's attempts (a retry that
        /// finds the window full waits up to a minute), and Discogs failing every request is
        /// caught apart (`reachability`): longer pauses would only lengthen the end of an
        /// import.
        public var retryPauses = Backoff(first: .seconds(1), maximum: .seconds(8)).delays(7)
        /// When a failed lookup is due again: 30 s after its first failed lookup, doubled
        /// with each one after, up to 6 hours.
        public var retryLater = Backoff(first: .seconds(30), maximum: .seconds(6 * 3600))
        /// An answer that has not come after this long is asked for again alongside (the
        /// first answer wins), when that costs nothing: only the records in hand are left,
        /// nobody waits for the window, and it has room. Nil: never.
        public var hedgeAfter: Duration? = .seconds(4)
        /// Fetch the full details of releases completed from search results while no lookup
        /// is due (needs a `ReleaseDetailsQueue`).
        public var backgroundDetails = false
        /// The pauses before writing an outcome again when the store refused it.
        public var storeRetry = Backoff(first: .milliseconds(50), maximum: .seconds(2))
        /// After `stop`, how long a lookup in hand may still wait for the store to take its
        /// outcome before the worker gives up on it (a store that refuses every write, a disk
        /// that stays full, must not keep a quitting program waiting forever).
        public var writeGraceAfterStop: Duration = .seconds(60)
        /// Records the catalogue pass answers in one transaction: large, so that a shelf of
        /// thousands costs a few writes; small enough that a batch holds the collection's
        /// write lock for only milliseconds.
        public var catalogueBatch = 500

        public init() {}
    }
}
