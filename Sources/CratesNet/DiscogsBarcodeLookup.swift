import CratesCore

/// Looks one GTIN up on Discogs: each barcode form until one has results, then the release
/// in full when the results point clearly at one.
public struct DiscogsBarcodeLookup: Sendable {
    public let client: DiscogsClient

    public init(client: DiscogsClient) {
        self.client = client
    }

    /// What the lookup found, and how many requests it cost.
    public struct Result: Sendable, Hashable {
        public var outcome: LookupOutcome
        public var requests: Int
        /// The form that had results, if one did.
        public var matchedForm: String?
    }

    /// Never spends a request on a GTIN that is not a record (`skipReason`), nor on a form
    /// twice. A search that fails stops the lookup with its error: the job is retried later
    /// from the first form, since a half-searched GTIN proves nothing.
    public func lookUp(_ query: DiscogsBarcodeQuery) async throws(DiscogsError) -> Result {
        if let reason = query.skipReason {
            return Result(outcome: .skipped(reason: reason), requests: 0)
        }
        var requests = 0
        for form in query.forms {
            requests += 1
            let page = try await client.searchReleases(barcode: form)
            switch DiscogsBarcodeMatch(results: page.results) {
            case .none:
                continue
            case .several(let candidates):
                return Result(outcome: .ambiguous(candidates), requests: requests, matchedForm: form)
            case .one(let id):
                requests += 1
                let release = try await client.release(id: id)
                return Result(outcome: .matched(release), requests: requests, matchedForm: form)
            }
        }
        return Result(outcome: .notFound, requests: requests)
    }

    /// Fetches a release known by its id (a collection export's `release_id`) instead of
    /// searching the barcode. When Discogs no longer has it (404: deleted or merged), the
    /// barcode is searched as for any record.
    public func lookUp(releaseID: Int, otherwise query: DiscogsBarcodeQuery) async throws(DiscogsError) -> Result {
        try await lookUp(releaseID: releaseID) { () async throws(DiscogsError) -> Result in try await lookUp(query) }
    }

    /// Fetches the release `releaseID`; when Discogs no longer has it, `otherwise` finds the
    /// record as any record is found (its request counted too).
    func lookUp(
        releaseID: Int, otherwise: () async throws(DiscogsError) -> Result
    ) async throws(DiscogsError) -> Result {
        do {
            let release = try await client.release(id: releaseID)
            return Result(outcome: .matched(release), requests: 1)
        } catch .notFound {
            var result = try await otherwise()
            result.requests += 1
            return result
        }
    }
}
