import CratesCore

extension DiscogsBarcodeLookup {
    /// Looks one claimed record up, whatever it is known by: its pinned release (fetched
    /// again), else its barcode, else, for a record without a barcode, the search its own
    /// values make (at most three requests, `ReleaseSearchPlan`), decided as an
    /// import row is (`ReleaseSearchDecision`): one release that fits is matched (completed
    /// from the search result when it can be, with no further request), several are
    /// ambiguous, none is not found. Every request goes through `retry` (a
    /// transient failure costs a retry, not the record).
    public func lookUp(_ job: LookupJob, retry: inout RequestRetry) async throws(DiscogsError) -> Result {
        guard let releaseID = job.releaseID else { return try await lookUpUnpinned(job, retry: &retry) }
        // Deleted or merged on Discogs: found again as any record is.
        return try await lookUp(releaseID: releaseID, retry: &retry) { (retry: inout RequestRetry) async throws(DiscogsError) -> Result in
            try await lookUpUnpinned(job, retry: &retry)
        }
    }

    /// One job through the pauses of a one-shot command.
    public func lookUp(_ job: LookupJob) async throws(DiscogsError) -> Result {
        var retry = RequestRetry()
        return try await lookUp(job, retry: &retry)
    }

    private func lookUpUnpinned(_ job: LookupJob, retry: inout RequestRetry) async throws(DiscogsError) -> Result {
        if let gtin = job.gtin { return try await lookUp(DiscogsBarcodeQuery(gtin: gtin), retry: &retry) }
        guard let query = job.search else { return Result(outcome: .notFound, requests: 0) }
        let before = retry.requests
        let search = DiscogsReleaseSearch(client: client)
        let found = try await search.search(query, retry: &retry)
        switch found.decision {
        case .none:
            return Result(outcome: .notFound, requests: retry.requests - before)
        case .several(let hits):
            return Result(outcome: .ambiguous(hits.map(\.candidate)), requests: retry.requests - before)
        case .one(let hit):
            let release = try await search.release(for: hit, retry: &retry)
            return Result(outcome: .matched(release), requests: retry.requests - before)
        }
    }
}
