import CratesCore

/// Searches Discogs for releases by their fields (catalogue number, artist, title…), for
/// records without a barcode: runs the `ReleaseSearchPlan` (at most three requests, each
/// through the client's rate limiter), ranks what it found and counts what it cost.
public struct DiscogsReleaseSearch: Sendable {
    public let client: DiscogsClient
    /// Results asked per request: Discogs' largest page, so that a title with 60 pressings
    /// comes back in one request.
    public var perPage = DiscogsClient.maximumPerPage

    public init(client: DiscogsClient) {
        self.client = client
    }

    /// What a search found, and how many requests it cost.
    public struct Result: Hashable, Sendable {
        /// Every release found by any request, once each, ranked (`ReleaseSearchRanking`).
        public var hits: [ReleaseSearchHit]
        /// Requests sent (each one `GET /database/search`).
        public var requests: Int
        /// The forms sent, in order.
        public var forms: [ReleaseSearchPlan.Form]
        /// False when some request matched more releases than its page held: the person
        /// should narrow the search (the best match may be on a later page).
        public var isComplete: Bool
        /// What the hits say about one record (the rule imports use: `ReleaseSearchDecision`).
        public var decision: ReleaseSearchDecision
    }

    /// Searches for `query`, stopping at the first request whose results reach the plan's
    /// goal. A failed request fails the whole search with its error (a half-run plan proves
    /// nothing); nothing is sent for a query the plan has no step for.
    public func search(_ query: ReleaseSearchQuery) async throws(DiscogsError) -> Result {
        var once = RequestRetry.once
        return try await search(query, retry: &once)
    }

    /// `search(_:)` with each request sent through `retry` (the lookup worker's: transient
    /// failures sent again after a pause); `requests` counts every attempt.
    public func search(_ query: ReleaseSearchQuery, retry: inout RequestRetry) async throws(DiscogsError) -> Result {
        let plan = ReleaseSearchPlan(query)
        var found: [DiscogsSearchPage.Result] = []
        var forms: [ReleaseSearchPlan.Form] = []
        var complete = true
        let before = retry.requests
        let client = client
        let perPage = perPage
        for step in plan.steps {
            forms.append(step.form)
            let page = try await retry.send { () async throws(DiscogsError) in
                try await client.searchReleases(step.query, perPage: perPage)
            }
            found += page.results
            if let items = page.pagination?.items, items > page.results.count { complete = false }
            if plan.isReached(by: page.results) { break }
        }
        let hits = ReleaseSearchRanking.rank(found, for: query)
        return Result(
            hits: hits, requests: retry.requests - before, forms: forms, isComplete: complete,
            decision: ReleaseSearchDecision(hits: hits, query: query))
    }

    /// The release of a chosen hit, as cheaply as it can be had: completed from the search
    /// result (no request; `hasFullDetails` false) when its title splits exactly once at
    /// " - ", else fetched in full (`GET /releases/{id}`, one request). Issue 13: one search
    /// is enough for the list; the details can come later.
    public func release(for hit: ReleaseSearchHit) async throws(DiscogsError) -> (release: Release, requests: Int) {
        var once = RequestRetry.once
        let release = try await release(for: hit, retry: &once)
        return (release, once.requests)
    }

    /// `release(for:)` with its request, if any, sent through `retry`.
    public func release(for hit: ReleaseSearchHit, retry: inout RequestRetry) async throws(DiscogsError) -> Release {
        if let release = hit.completedRelease(webBase: client.endpoints.web) { return release }
        let client = client
        let id = hit.result.id
        return try await retry.send { () async throws(DiscogsError) in try await client.release(id: id) }
    }
}
