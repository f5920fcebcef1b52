/// One release a search found: the result as Discogs sent it, the candidate the picker shows,
/// and how well it fits what was asked.
public struct ReleaseSearchHit: Hashable, Sendable {
    public var result: DiscogsSearchPage.Result
    public var candidate: ReleaseCandidate
    public var match: ReleaseSearchMatch

    public init(result: DiscogsSearchPage.Result, query: ReleaseSearchQuery) {
        self.result = result
        self.candidate = result.candidate
        self.match = ReleaseSearchMatch(candidate: candidate, result: result, query: query)
    }

    /// The release as far as the search result tells it, or nil when the release itself
    /// must be fetched (see `DiscogsSearchPage.Result.completedRelease`).
    public func completedRelease(webBase: String = "https://www.discogs.com") -> Release? {
        result.completedRelease(webBase: webBase)
    }
}

/// How one candidate fits a query, field by field, as the ranking weighs it.
public struct ReleaseSearchMatch: Hashable, Sendable {
    /// How a text field fits.
    public enum Level: Int, Hashable, Sendable, Comparable {
        /// Not asked, or some word asked is missing.
        case none = 0
        /// Every word asked is among the candidate's words ("Björk" in "Björk & Trio Mix").
        case words = 1
        /// The same words, in the same order ("bjork" for "Björk").
        case exact = 2

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The candidate's catalogue number has the key of the one asked.
    public var catalogueNumber: Bool
    public var artist: Level
    public var title: Level
    /// Year, country and format: true when asked and equal (year), the same words
    /// (country), or every word asked among the formats' words (format: "LP" in
    /// "Vinyl, LP, Album").
    public var year: Bool
    public var country: Bool
    public var format: Bool
    /// Every word of the label asked is among the candidate's label's words.
    public var label: Bool

    public init(
        catalogueNumber: Bool = false, artist: Level = .none, title: Level = .none,
        year: Bool = false, country: Bool = false, format: Bool = false, label: Bool = false
    ) {
        self.catalogueNumber = catalogueNumber
        self.artist = artist
        self.title = title
        self.year = year
        self.country = country
        self.format = format
        self.label = label
    }

    /// Compares `candidate` (and the `result` it came from, for the flat format list) with
    /// `query`, on folded words (`TextFolding.words`) and the catalogue-number key.
    public init(candidate: ReleaseCandidate, result: DiscogsSearchPage.Result? = nil, query: ReleaseSearchQuery) {
        self.init()
        if let catno = query.catno, let theirs = candidate.catno {
            catalogueNumber = CatalogueNumber.key(catno) == CatalogueNumber.key(theirs)
        }
        artist = Self.level(query.artist, candidate.artist)
        title = Self.level(query.title, candidate.title)
        if let asked = query.year { year = candidate.year == asked }
        if let asked = query.country, let theirs = candidate.country {
            country = TextFolding.words(asked) == TextFolding.words(theirs)
        }
        if let asked = query.format {
            let theirs = Set((result?.format ?? []).flatMap(TextFolding.words) + candidate.formats.flatMap(TextFolding.words))
            format = TextFolding.words(asked).allSatisfy(theirs.contains)
        }
        if let asked = query.label, let theirs = candidate.label {
            label = TextFolding.words(asked).allSatisfy(Set(TextFolding.words(theirs)).contains)
        }
    }

    /// Artist and title together: the second criterion of the ranking.
    public var artistAndTitle: Int { artist.rawValue + title.rawValue }

    /// Year, country and format as given: the third criterion.
    public var narrowing: Int { (year ? 1 : 0) + (country ? 1 : 0) + (format ? 1 : 0) }

    private static func level(_ asked: String?, _ theirs: String) -> Level {
        guard let asked else { return .none }
        let wanted = TextFolding.words(asked)
        let have = TextFolding.words(theirs)
        if wanted == have { return .exact }
        let set = Set(have)
        return wanted.allSatisfy(set.contains) ? .words : .none
    }
}
