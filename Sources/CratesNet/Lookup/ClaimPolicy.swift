/// When the lookup worker may claim another record, and how long it waits before it looks
/// again: rules over what it has in hand, with no state of their own.
///
/// - Several records at once (`concurrency`), counting only the requests in flight: a record
///   pausing between two attempts does not count, nor one whose answer is slower than
///   `slowAfter` (a stalled answer holds back only its own record); never more than
///   `maximumInHand` records in hand, pausing or slow ones included.
/// - One record until Discogs has answered once (or for `warmUp`, should that first answer be
///   slow to come): refused credentials or a network that is down then cost one request, not
///   one per record in flight.
/// - Discogs unreachable: one record at a time, as a probe, once its pause is over.
public struct ClaimPolicy: Sendable, Hashable {
    /// How long a claim holds a record against other processes: longer than the slowest
    /// lookup (a few requests, each of which may wait out a 60 s window and be tried again
    /// within the run), so that a live claim never expires.
    public var lease: Duration = .seconds(900)
    /// Records being looked up at once: the requests in flight.
    public var concurrency = 4
    /// See `concurrency`.
    public var slowAfter: Duration = .seconds(2)
    /// The most records in hand at once, pausing or slow ones included.
    public var maximumInHand = 16
    /// How long the first record is looked up alone, waiting for Discogs' first answer.
    public var warmUp: Duration = .seconds(2)
    /// How often an idle worker looks for failed lookups that have come due.
    public var recheckInterval: Duration = .seconds(30)

    public init() {}

    /// What the worker knows when it asks.
    public struct Situation: Sendable, Hashable {
        /// Records claimed and not yet settled…
        public var inHand = 0
        /// …of which pausing between two attempts…
        public var pausing = 0
        /// …and whose request has been in flight for `slowAfter` or more.
        public var slow = 0
        /// Whether Discogs has answered once.
        public var answered = false
        /// The time now, and when the run began, on the worker's timeline.
        public var now: Duration = .zero
        public var started: Duration = .zero
        /// While Discogs is unreachable: when the next probe may go. Nil: reachable.
        public var probeAt: Duration?

        public init(
            inHand: Int = 0, pausing: Int = 0, slow: Int = 0, answered: Bool = false, now: Duration = .zero, started: Duration = .zero,
            probeAt: Duration? = nil
        ) {
            (self.inHand, self.pausing, self.slow, self.answered) = (inHand, pausing, slow, answered)
            (self.now, self.started, self.probeAt) = (now, started, probeAt)
        }
    }

    /// Whether another record may be claimed now.
    public func mayClaim(_ s: Situation) -> Bool {
        if let probeAt = s.probeAt { return s.inHand == 0 && s.now >= probeAt }
        if warmingUp(s) { return s.inHand == 0 }
        guard s.inHand < maximumInHand else { return false }
        return s.inHand - s.pausing - s.slow < concurrency
    }

    /// How long to wait before looking again, unless woken sooner (a record settled, a
    /// nudge): when the probe or the warm-up is due, when an answer may have become slow, or
    /// after `recheckInterval` for failed lookups come due. Counted from `s.now`: from the
    /// look that found no more may be claimed, so that a look that comes late does not wait
    /// longer.
    public func nextLook(_ s: Situation) -> Duration {
        let soonest = Duration.milliseconds(10)
        if let probeAt = s.probeAt, s.inHand == 0 { return max(soonest, min(recheckInterval, probeAt - s.now)) }
        if warmingUp(s) { return max(soonest, min(recheckInterval, s.started + warmUp - s.now)) }
        if s.inHand > 0 { return min(recheckInterval, slowAfter) }
        return recheckInterval
    }

    private func warmingUp(_ s: Situation) -> Bool {
        !s.answered && s.now - s.started < warmUp
    }
}
