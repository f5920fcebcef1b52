import CratesCore

/// Whether Discogs can be reached, told by the end of every request of every record: an
/// answer (even an error status) proves it is there; transient failures in a row, over a few
/// seconds, prove it is not. While it is not, one record at a time probes it, after pauses
/// that grow (`Rule.probes`) and that a nudge cuts short.
public struct Reachability: Sendable {
    public struct Rule: Sendable, Hashable {
        /// Discogs counts as unreachable when this many connections in a row could not be
        /// made (refused, no route, no DNS)…
        public var connectionFailures = 3
        /// …or this many requests in a row failed in any transient way (5xx, timeouts…)…
        public var failures = 10
        /// …the first of them at least this long ago.
        public var over: Duration = .seconds(3)
        /// The pauses before each probe while it stays unreachable.
        public var probes = Backoff(first: .seconds(5), maximum: .seconds(300))

        public init() {}
    }

    /// What a request's end changed.
    public enum Change: Sendable, Hashable {
        case unchanged
        /// Discogs answered for the first time, or again after it could not be reached: room
        /// for more records.
        case reachable
        /// Discogs was just found unreachable: the records in hand give up.
        case unreachable
    }

    public let rule: Rule
    /// Whether Discogs has answered once (a refusal of the credentials aside).
    public private(set) var answered = false
    /// While unreachable, the failure that made it count so (for a message).
    public private(set) var lostBecause: DiscogsError?
    /// While unreachable, when the next probe may go.
    public private(set) var probeAt: Duration?
    /// Requests failed in a row, how many of them could not connect at all, and since when.
    private var failures = (count: 0, connections: 0, since: Duration?.none)
    /// Probes failed in a row.
    private var round = 0

    public init(rule: Rule = Rule()) {
        self.rule = rule
    }

    public var isUnreachable: Bool { probeAt != nil }

    /// A request ended at `now`: nil for an answer, else its failure. `probing`: at most one
    /// record was in hand (a failure then is a failed probe, which lengthens the next pause).
    public mutating func note(_ error: DiscogsError?, at now: Duration, probing: Bool) -> Change {
        guard let error, error.isTransient else {
            failures = (0, 0, nil)
            var change = Change.unchanged
            if !answered, error.map({ if case .unauthorized = $0 { false } else { true } }) ?? true {
                answered = true
                change = .reachable
            }
            if isUnreachable {
                probeAt = nil
                lostBecause = nil
                round = 0
                change = .reachable
            }
            return change
        }
        let since = failures.since ?? now
        let connection = if case .transport(.cannotConnect) = error { true } else { false }
        failures = (failures.count + 1, connection ? failures.connections + 1 : 0, since)
        if isUnreachable {
            if probing {
                round += 1
                probeAt = now + rule.probes.delay(round)
            }
            return .unchanged
        }
        guard now - since >= rule.over, failures.connections >= rule.connectionFailures || failures.count >= rule.failures else {
            return .unchanged
        }
        lostBecause = error
        round = 0
        probeAt = now + rule.probes.delay(0)
        return .unreachable
    }

    /// New work came (a scan, an import): while unreachable, the next probe goes at once.
    public mutating func probeNow() {
        if probeAt != nil { probeAt = .zero }
    }
}
