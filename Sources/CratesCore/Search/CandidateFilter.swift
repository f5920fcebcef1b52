/// What a person types in the pressing picker to narrow 60 pressings to the one in their
/// hands, reading the spine: a catalogue number, a country, a year, a label.
///
/// A candidate stays when the whole text, as a catalogue-number key, is part of its
/// catalogue number's key ("46001", "cdp 7 46", "CDP7460012" all keep "CDP 7 46001 2"), or
/// when every word typed is found: within its catalogue-number key, or at the start of its
/// year or of a word of its country or label ("uk 1973", "harv ger"). Folded, so "Ö" is
/// typed "o" and case never matters. Works the same for barcode ambiguities.
public struct CandidateFilter: Hashable, Sendable {
    public let text: String
    private let words: [String]
    private let key: String

    public init(_ text: String) {
        self.text = text
        words = TextFolding.words(text)
        key = words.joined()
    }

    /// True when nothing that narrows was typed.
    public var isEmpty: Bool { words.isEmpty }

    public func matches(_ candidate: ReleaseCandidate) -> Bool {
        if words.isEmpty { return true }
        let catnoKey = candidate.catno.map(CatalogueNumber.key) ?? ""
        if catnoKey.contains(key) { return true }
        let year = candidate.year.map(String.init) ?? ""
        let others = TextFolding.words(candidate.country ?? "") + TextFolding.words(candidate.label ?? "")
        return words.allSatisfy { word in
            catnoKey.contains(word) || year.hasPrefix(word) || others.contains { $0.hasPrefix(word) }
        }
    }

    /// The candidates that stay, in their order.
    public func apply(_ candidates: [ReleaseCandidate]) -> [ReleaseCandidate] {
        candidates.filter(matches)
    }
}
