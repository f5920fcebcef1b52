import CratesCore

/// Looks one GTIN up on Discogs: each barcode form until one has results. When they point
/// clearly at one release, the record is completed from its search result, which carries
/// everything the list shows: one request in all for a barcode found at its first form
/// (Discogs' 60 requests a minute are what limits cataloguing a shelf). The
/// release itself is fetched only when the result's "Artist - Title" does not split cleanly
/// (see `DiscogsSearchPage.Result.completedRelease`); its full details otherwise come later
/// (`Release.hasFullDetails`).
public struct DiscogsBarcodeLookup: Sendable {
    public let client: DiscogsClient

    public init(client: DiscogsClient) {
        self.client = client
    }

    /// What the lookup found, and how many requests it cost.
    public struct Result: Sendable, Hashable {
        public var outcome: LookupOutcome
        /// Requests sent, failed attempts included.
        public var requests: Int
        /// The form that had results, if one did.
        public var matchedForm: String?
    }

    /// Never spends a request on a GTIN that is not a record (`skipReason`), nor on a form
    /// twice. Each request goes through `retry` (transient failures are sent again after a
    /// pause); a failure that outlasts it stops the lookup with its error: the job is
    /// retried later from the first form, since a half-searched GTIN proves nothing.
    public func lookUp(_ query: DiscogsBarcodeQuery, retry: inout RequestRetry) async throws(DiscogsError) -> Result {
        if let reason = query.skipReason {
            return Result(outcome: .skipped(reason: reason), requests: 0)
        }
        let before = retry.requests
        for form in query.forms {
            let page = try await retry.send { () async throws(DiscogsError) in try await client.searchReleases(barcode: form) }
            switch DiscogsBarcodeMatch(results: page.results) {
            case .none:
                continue
            case .several(let candidates):
                return Result(outcome: .ambiguous(candidates), requests: retry.requests - before, matchedForm: form)
            case .one(let id):
                let release: Release
                if let completed = page.results.first(where: { $0.id == id && $0.isRelease })?.completedRelease(webBase: client.endpoints.web) {
                    release = completed
                } else {
                    // "Artist - Title - Remix": where the artist ends is not certain.
                    release = try await retry.send { () async throws(DiscogsError) in try await client.release(id: id) }
                }
                return Result(outcome: .matched(release), requests: retry.requests - before, matchedForm: form)
            }
        }
        return Result(outcome: .notFound, requests: retry.requests - before)
    }

    /// Fetches a release known by its id (a collection export's `release_id`) instead of
    /// searching the barcode. When Discogs no longer has it (404: deleted or merged), the
    /// barcode is searched as for any record.
    public func lookUp(releaseID: Int, otherwise query: DiscogsBarcodeQuery, retry: inout RequestRetry) async throws(DiscogsError) -> Result {
        try await lookUp(releaseID: releaseID, retry: &retry) { (retry: inout RequestRetry) async throws(DiscogsError) -> Result in
            try await lookUp(query, retry: &retry)
        }
    }

    /// Fetches the release `releaseID`; when Discogs no longer has it, `otherwise` finds the
    /// record as any record is found (its requests counted too).
    func lookUp(
        releaseID: Int, retry: inout RequestRetry,
        otherwise: (inout RequestRetry) async throws(DiscogsError) -> Result
    ) async throws(DiscogsError) -> Result {
        let before = retry.requests
        do {
            let release = try await retry.send { () async throws(DiscogsError) in try await client.release(id: releaseID) }
            return Result(outcome: .matched(release), requests: retry.requests - before)
        } catch .notFound {
            var result = try await otherwise(&retry)
            result.requests = retry.requests - before
            return result
        }
    }

    /// One lookup through the pauses of a one-shot command (`crates lookup`).
    public func lookUp(_ query: DiscogsBarcodeQuery) async throws(DiscogsError) -> Result {
        var retry = RequestRetry()
        return try await lookUp(query, retry: &retry)
    }
}

extension DiscogsClient {
    /// `GET /releases/{id}` at `priority` (a person waiting for the details they opened goes
    /// ahead of the lookup queue; background work never goes ahead of anything), sent again
    /// through transient failures.
    public func release(id: Int, priority: RateLimiter.Priority, retry: RequestRetry = RequestRetry()) async throws(DiscogsError) -> Release {
        var retry = retry
        return try await RequestPriority.at(priority) { () async throws(DiscogsError) in
            try await retry.send { () async throws(DiscogsError) in try await release(id: id) }
        }
    }
}
