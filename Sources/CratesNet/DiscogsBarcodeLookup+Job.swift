import CratesCore

extension DiscogsBarcodeLookup {
    /// Looks one claimed record up, whatever it is known by: its pinned release (fetched
    /// again), else its barcode, else, for a record without a barcode, the search its own
    /// values make (issue 14: at most three requests, `ReleaseSearchPlan`), decided as an
    /// import row is (`ReleaseSearchDecision`): one release that fits is matched (completed
    /// from the search result when it can be, with no further request), several are
    /// ambiguous, none is not found.
    public func lookUp(_ job: LookupJob) async throws(DiscogsError) -> Result {
        guard let releaseID = job.releaseID else { return try await lookUpUnpinned(job) }
        // Deleted or merged on Discogs: found again as any record is.
        return try await lookUp(releaseID: releaseID) { () async throws(DiscogsError) -> Result in try await lookUpUnpinned(job) }
    }

    private func lookUpUnpinned(_ job: LookupJob) async throws(DiscogsError) -> Result {
        if let gtin = job.gtin { return try await lookUp(DiscogsBarcodeQuery(gtin: gtin)) }
        guard let query = job.search else { return Result(outcome: .notFound, requests: 0) }
        let search = DiscogsReleaseSearch(client: client)
        let found = try await search.search(query)
        switch found.decision {
        case .none:
            return Result(outcome: .notFound, requests: found.requests)
        case .several(let hits):
            return Result(outcome: .ambiguous(hits.map(\.candidate)), requests: found.requests)
        case .one(let hit):
            let (release, requests) = try await search.release(for: hit)
            return Result(outcome: .matched(release), requests: found.requests + requests)
        }
    }
}
