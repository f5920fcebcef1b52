/// The words of the list's filter that name a year or a format rather than text: "1977"
/// keeps the records of 1977, "1975-1979" those of those years, "vinyl" the vinyl ones.
/// The other words are matched in the records' text (artist, title, labels, catalogue
/// numbers, barcode) as before. A 4-digit word from 1900 to 2099 is a year, not text: a
/// catalogue number is rarely a year alone, and a part of a barcode that looks like one
/// can be typed longer.
public struct ListFilterTerms: Hashable, Sendable {
    /// The words still matched as text, as typed.
    public var text: String
    /// The years asked for: from the smallest to the largest year word.
    public var years: ClosedRange<Int>?
    /// Format words, lower case.
    public var formats: [String]

    /// The format names a collector types (Discogs' format and size names).
    public static let formatWords: Set<String> = [
        "vinyl", "lp", "ep", "cd", "cdr", "sacd", "cassette", "dvd", "shellac", "minidisc", "flexi-disc",
        "7\"", "10\"", "12\"",
    ]

    public init(_ filter: String) {
        var text: [Substring] = []
        var years: ClosedRange<Int>?
        var formats: [String] = []
        for word in filter.split(whereSeparator: \.isWhitespace) {
            if let range = Self.years(word) {
                years = years.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) } ?? range
            } else if Self.formatWords.contains(word.lowercased()) {
                formats.append(word.lowercased())
            } else {
                text.append(word)
            }
        }
        self.text = text.joined(separator: " ")
        self.years = years
        self.formats = formats
    }

    /// "1977" or "1975-1979" (4-digit years within `bounds`), else nil.
    public static func years(_ word: Substring, within bounds: ClosedRange<Int> = 1900...2099) -> ClosedRange<Int>? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let years = parts.compactMap { part -> Int? in
            guard part.count == 4, part.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(part), bounds.contains(year)
            else { return nil }
            return year
        }
        guard years.count == parts.count, let first = years.first, let last = years.last else { return nil }
        return min(first, last)...max(first, last)
    }
}
