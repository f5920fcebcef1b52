import CratesCore

/// How the catalogue answers a `ReleaseSearchQuery`: the full-text query that finds the
/// candidates, then each candidate checked against every field given and scored (an exact
/// catalogue number, then artist and title exact before all words, then the narrowing fields).
///
/// The last word of the artist, the title and the free text matches as a prefix, so that a
/// search answers as it is typed ("massive att" finds Massive Attack).
struct CatalogueSearchMatch {
    struct Score: Comparable {
        var catalogueNumber: Bool
        var artistAndTitle: Int
        var narrowing: Int

        static func < (a: Score, b: Score) -> Bool {
            if a.catalogueNumber != b.catalogueNumber { return !a.catalogueNumber }
            if a.artistAndTitle != b.artistAndTitle { return a.artistAndTitle < b.artistAndTitle }
            return a.narrowing < b.narrowing
        }
    }

    let query: ReleaseSearchQuery
    private let artistWords: [String]
    private let titleWords: [String]
    private let textWords: [String]
    private let labelWords: [String]
    private let countryWords: [String]
    private let formatWords: [String]
    private let catnoKey: String?

    init(query: ReleaseSearchQuery) {
        self.query = query
        artistWords = query.artist.map(TextFolding.words) ?? []
        titleWords = query.title.map(TextFolding.words) ?? []
        textWords = query.text.map(TextFolding.words) ?? []
        labelWords = query.label.map(TextFolding.words) ?? []
        countryWords = query.country.map(TextFolding.words) ?? []
        formatWords = query.format.map(TextFolding.words) ?? []
        catnoKey = query.catno.map(CatalogueNumber.key)
    }

    /// The FTS5 query over artist and title; nil when neither nor free text was given.
    var fullTextQuery: String? {
        var parts: [String] = []
        if let artist = query.artist, let words = Self.phrase(artist) { parts.append("artist : (\(words))") }
        if let title = query.title, let words = Self.phrase(title) { parts.append("title : (\(words))") }
        if let text = query.text, let words = Self.phrase(text) { parts.append("(\(words))") }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }

    /// The words of `text` as FTS5 strings, all required, the last a prefix. Words are runs
    /// of letters and digits as typed; the tokenizer folds them as it folded the index.
    static func phrase(_ text: String) -> String? {
        var words: [String] = []
        var current = ""
        for character in text {
            if TextFolding.isWordCharacter(character) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        guard !words.isEmpty else { return nil }
        return words.prefix(16).enumerated().map { index, word in
            let quoted = "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            return index == min(words.count, 16) - 1 ? quoted + " *" : quoted
        }.joined(separator: " AND ")
    }

    /// The candidate's score; nil when a field given does not fit it.
    func score(_ release: Release) -> Score? {
        var score = Score(catalogueNumber: false, artistAndTitle: 0, narrowing: 0)
        if let catnoKey {
            guard release.labels.contains(where: { $0.catno.map(CatalogueNumber.key) == catnoKey }) else { return nil }
            score.catalogueNumber = true
        }
        let artist = TextFolding.words(release.artist)
        let title = TextFolding.words(release.title)
        if !artistWords.isEmpty {
            guard let level = Self.level(artistWords, in: artist) else { return nil }
            score.artistAndTitle += level
        }
        if !titleWords.isEmpty {
            guard let level = Self.level(titleWords, in: title) else { return nil }
            score.artistAndTitle += level
        }
        if !textWords.isEmpty {
            guard Self.level(textWords, in: artist + title) != nil else { return nil }
        }
        if !labelWords.isEmpty {
            guard release.labels.contains(where: { Self.level(labelWords, in: TextFolding.words($0.name)) != nil }) else { return nil }
            score.narrowing += 1
        }
        if let year = query.year {
            guard release.year == year else { return nil }
            score.narrowing += 1
        }
        if !countryWords.isEmpty {
            guard TextFolding.words(release.country ?? "") == countryWords else { return nil }
            score.narrowing += 1
        }
        if !formatWords.isEmpty {
            let words = Set(release.formats.flatMap(TextFolding.words))
            guard formatWords.allSatisfy(words.contains) else { return nil }
            score.narrowing += 1
        }
        return score
    }

    /// 2 when `asked` are the candidate's words in order, 1 when all are among them (the last
    /// asked as a prefix), nil otherwise.
    static func level(_ asked: [String], in words: [String]) -> Int? {
        if asked == words { return 2 }
        for (index, word) in asked.enumerated() {
            let last = index == asked.count - 1
            guard words.contains(where: { last ? $0.hasPrefix(word) : $0 == word }) else { return nil }
        }
        return 1
    }
}
