/// Lookups done so far, by outcome: what a progress bar and a summary show.
public struct LookupCounts: Hashable, Sendable {
    public var matched = 0
    public var ambiguous = 0
    public var notFound = 0
    public var skipped = 0
    public var failed = 0
    /// Requests those lookups cost.
    public var requests = 0
    /// Times writing an outcome (or giving a job back) failed and was tried again: the store
    /// was locked by another process for longer than its busy timeout.
    public var writeRetries = 0
    /// Outcomes found (or jobs given back) but never written, because the worker was stopped
    /// while the store still refused them: not counted in `done`. Their records keep the
    /// claim of a process that has exited by the time anyone looks, so the next claimer
    /// takes them at once (`ClaimOwner`).
    public var unwritten = 0
    /// Of the lookups done, those the local catalogue answered (no request).
    public var fromCatalogue = 0

    public init() {}

    /// Every lookup counted, whatever its outcome.
    public var done: Int { matched + ambiguous + notFound + skipped + failed }

    public mutating func count(_ outcome: LookupOutcome.Kind, requests: Int = 0) {
        switch outcome {
        case .matched: matched += 1
        case .ambiguous: ambiguous += 1
        case .notFound: notFound += 1
        case .skipped: skipped += 1
        case .failed: failed += 1
        }
        self.requests += requests
    }

    /// "58 matched, 1 ambiguous, 1 not found, 0 failed" (skipped only when some were):
    /// parts that always add up to `done`.
    public var breakdown: String {
        var parts = ["\(matched) matched", "\(ambiguous) ambiguous", "\(notFound) not found"]
        if skipped > 0 { parts.append("\(skipped) skipped") }
        parts.append("\(failed) failed")
        return parts.joined(separator: ", ")
    }

    /// These counts plus `other`'s.
    public func adding(_ other: LookupCounts) -> LookupCounts {
        var sum = self
        sum.matched += other.matched
        sum.ambiguous += other.ambiguous
        sum.notFound += other.notFound
        sum.skipped += other.skipped
        sum.failed += other.failed
        sum.requests += other.requests
        sum.writeRetries += other.writeRetries
        sum.unwritten += other.unwritten
        sum.fromCatalogue += other.fromCatalogue
        return sum
    }
}
