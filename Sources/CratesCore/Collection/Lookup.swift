import Foundation

/// Where a record stands with Discogs. The lookup queue is the records in these states.
/// `handEntered`: the collector entered it by hand (Discogs has no such release); it is never
/// looked up, until it is linked to a release through a search.
public enum LookupState: String, Hashable, Sendable, Codable, CaseIterable {
    case pending, lookingUp, matched, ambiguous, notFound, failed, skipped, handEntered

    /// The states of records a person must settle (choose, search, enter by hand): what the
    /// TUI's "needs a person" view walks.
    public static let needingAPerson: [LookupState] = [.ambiguous, .notFound, .failed]
}

/// How a record came into the collection.
public enum AddMethod: String, Hashable, Sendable, Codable, CaseIterable {
    case typed, wedge, camera, `import`, releaseID
    /// Entered by hand (`crates add --manual`, the TUI's `m`).
    case manual
    /// Chosen from a search without a barcode (the TUI's `s`).
    case search
    /// Pulled from the user's Discogs collection by `crates sync` (one instance, one copy).
    case discogs
}

/// A record claimed from the queue for one lookup.
public struct LookupJob: Hashable, Sendable {
    public var recordID: Int64
    /// Nil for a record without a barcode: then `releaseID` or `search` says what to look up.
    public var gtin: GTIN?
    /// Attempts made before this one.
    public var attempts: Int
    /// The Discogs release the record is known to be (imported from a collection export's
    /// `release_id`, or the one it was matched to when looked up again): the lookup fetches
    /// it instead of searching the barcode.
    public var releaseID: Int?
    /// For a record without a barcode: the search its own values make (an import row's
    /// catalogue number, artist and title), decided by `ReleaseSearchDecision`.
    public var search: ReleaseSearchQuery?

    public init(recordID: Int64, gtin: GTIN?, attempts: Int, releaseID: Int? = nil, search: ReleaseSearchQuery? = nil) {
        self.recordID = recordID
        self.gtin = gtin
        self.attempts = attempts
        self.releaseID = releaseID
        self.search = search
    }
}

/// What one lookup found.
public enum LookupOutcome: Hashable, Sendable {
    case matched(Release)
    /// Several pressings share the barcode: kept for the user to choose.
    case ambiguous([ReleaseCandidate])
    case notFound
    /// A failure worth retrying later (network, 5xx, 404 on a release, rate limit).
    case failed(message: String, retryAt: Date)
    /// Not worth a request: e.g. a shop's price label.
    case skipped(reason: String)

    /// The outcome without its data, for counting.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case matched, ambiguous, notFound, failed, skipped
    }

    public var kind: Kind {
        switch self {
        case .matched: .matched
        case .ambiguous: .ambiguous
        case .notFound: .notFound
        case .failed: .failed
        case .skipped: .skipped
        }
    }
}

/// The durable lookup queue, as the lookup worker sees it. The store implements it; the
/// worker (CratesNet) depends only on this, so it knows nothing of SQLite.
public protocol LookupQueue: Sendable {
    /// Atomically claims the next record due for a lookup (pending first, then failed whose
    /// retry time has passed), marking it `lookingUp` with a lease that expires at
    /// `now + lease`, so that another process never looks the same record up while the lease
    /// holds, and a crashed claimer's record becomes due again. Nil when nothing is due.
    func claimNext(now: Date, lease: TimeInterval) async throws -> LookupJob?
    /// Records the outcome of a claimed job.
    func complete(_ job: LookupJob, with outcome: LookupOutcome) async throws
    /// Puts a claimed job back untouched (e.g. the worker is stopping, or credentials failed).
    func release(_ job: LookupJob) async throws
    /// How many records wait for a lookup (pending, failed, lookingUp).
    func waitingCount() async throws -> Int
}
