/// Orders the releases a search found, best first:
/// 1. an exact catalogue-number key;
/// 2. then artist and title (exact words before all words asked, before neither);
/// 3. then year, country and format as given (more of them first);
/// 4. then the label as given;
/// 5. then Discogs' own order (its relevance), so the ranking is stable and deterministic.
///
/// Results that are not releases (masters, artists, labels) are left out, and a release
/// listed twice (Discogs lists one per matching identifier) is kept once, where it first came.
public enum ReleaseSearchRanking {
    public static func rank(_ results: [DiscogsSearchPage.Result], for query: ReleaseSearchQuery) -> [ReleaseSearchHit] {
        var seen = Set<Int>()
        let hits = results
            .filter { $0.isRelease && seen.insert($0.id).inserted }
            .map { ReleaseSearchHit(result: $0, query: query) }
        return hits.enumerated().sorted { a, b in
            let x = a.element.match, y = b.element.match
            if x.catalogueNumber != y.catalogueNumber { return x.catalogueNumber }
            if x.artistAndTitle != y.artistAndTitle { return x.artistAndTitle > y.artistAndTitle }
            if x.narrowing != y.narrowing { return x.narrowing > y.narrowing }
            if x.label != y.label { return x.label }
            return a.offset < b.offset
        }.map(\.element)
    }
}
