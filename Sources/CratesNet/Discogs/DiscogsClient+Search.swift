import CratesCore

extension DiscogsClient {
    /// The largest page Discogs serves.
    public static let maximumPerPage = 100

    /// `GET /database/search?type=release&<fields>&per_page=N&page=P`: one page of the
    /// pressings whose fields match `query` (Discogs' text index: case and accents folded,
    /// every word of a field among the release's words for that field). Paced by the rate
    /// limiter and checked like every request; a 401 (not signed in, or credentials
    /// refused) is `DiscogsError.unauthorized`. `perPage` is clamped to 1…100 and `page` to
    /// at least 1; a page past the last is a 404 (`DiscogsError.notFound`), as at Discogs.
    public func searchReleases(_ query: ReleaseSearchQuery, page: Int = 1, perPage: Int = DiscogsClient.maximumPerPage) async throws(DiscogsError) -> DiscogsSearchPage {
        let pairs = [("type", "release")] + query.parameters.map { ($0.name, $0.value) } + [
            ("per_page", String(min(max(perPage, 1), Self.maximumPerPage))),
            ("page", String(max(page, 1))),
        ]
        let response = try await send(method: "GET", path: "/database/search?" + OAuthPercentEncoding.formString(pairs), accept: .json)
        return try decode(DiscogsSearchPage.self, from: response.body)
    }
}
