import Foundation

/// The medium a copy's format text names, the first level of the statistics' format chart:
/// a collector asks "how many LPs, how many CDs", not how many "CD, Album, Reissue".
///
/// Read from the text the list shows: Discogs' formats as crates writes them ("Vinyl, LP,
/// Album + CD, Album": each format's name, then its descriptions, the formats joined with
/// " + ") or the collector's own ("2xLP", "12\"", "MC").
public enum FormatMedium: String, Hashable, Sendable, CaseIterable {
    case lp = "LP"
    case twelveInch = "12\""
    case sevenInch = "7\""
    case tenInch = "10\""
    case cd = "CD"
    case cassette = "Cassette"
    case file = "File"
    case other = "Other"

    /// The medium of a format text: that of its first format naming one ("Box Set,
    /// Compilation + Vinyl, LP" is an LP), else `other`. Within a format a size wins over
    /// "LP" for 7" and 10" (a 10" LP is shelved with the 10"s) and "LP" over 12" (Discogs
    /// writes LPs "Vinyl, LP", twelve-inch singles and maxis "Vinyl, 12\""); vinyl of no
    /// size stated counts as LP, the size most vinyl is.
    public static func of(_ format: String) -> FormatMedium {
        for part in parts(format) {
            let words = Set(part.map(token))
            if words.contains("7\"") { return .sevenInch }
            if words.contains("10\"") { return .tenInch }
            if words.contains("lp") { return .lp }
            if words.contains("12\"") { return .twelveInch }
            if !words.isDisjoint(with: cdWords) { return .cd }
            if !words.isDisjoint(with: cassetteWords) { return .cassette }
            if !words.isDisjoint(with: fileWords) { return .file }
            if words.contains("vinyl") { return .lp }
        }
        return .other
    }

    /// The second level: the format's descriptions ("Album", "Reissue", "Compilation"), in
    /// the order written and each once, without the words that name a medium or a size (the
    /// first level says those) nor the formats' names ("Vinyl", "CD").
    public static func descriptions(of format: String) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for part in parts(format) {
            for (index, word) in part.enumerated() {
                let folded = token(word)
                if index == 0 || mediumWords.contains(folded) { continue }
                if seen.insert(folded).inserted { out.append(word) }
            }
        }
        return out
    }

    /// The formats of a text (split at "+"), each as its comma-separated words, trimmed.
    static func parts(_ format: String) -> [[String]] {
        format.split(separator: "+").map { part in
            part.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }.filter { !$0.isEmpty }
    }

    /// A word folded for comparison: lower case, a count before it dropped ("2xLP", "2×LP",
    /// "3 x CD"), inch marks written as "in" or with typographic quotes read as `"`.
    static func token(_ word: String) -> String {
        var text = word.lowercased().replacingOccurrences(of: "”", with: "\"").replacingOccurrences(of: "″", with: "\"")
        if let range = text.range(of: #"^[0-9]+\s*[x×]\s*"#, options: .regularExpression) {
            text.removeSubrange(range)
        }
        if let range = text.range(of: #"^(7|10|12)\s*(in|inch|")$"#, options: .regularExpression) {
            text = String(text[range].prefix { $0.isNumber }) + "\""
        }
        return text
    }

    static let cdWords: Set<String> = ["cd", "cdr", "cd-r", "sacd", "hdcd", "cd-rom"]
    static let cassetteWords: Set<String> = ["cassette", "mc", "tape", "microcassette"]
    static let fileWords: Set<String> = ["file", "digital", "flac", "mp3", "wav", "aac", "alac", "aiff", "ogg vorbis"]
    /// Every word `of` reads a medium from, and "vinyl".
    static let mediumWords: Set<String> = cdWords.union(cassetteWords).union(fileWords)
        .union(["lp", "12\"", "10\"", "7\"", "vinyl"])
}

extension FormatMedium {
    /// The format chart from the copies counted by whole format text: one count per medium
    /// (the texts' sum), each with its descriptions as children (a copy counts once in each
    /// description of its text), both largest first and, among equal counts, by key.
    public static func chart(_ byText: [CollectionStatistics.Count]) -> [CollectionStatistics.Count] {
        var mediums: [FormatMedium: Int] = [:]
        var descriptions: [FormatMedium: [String: Int]] = [:]
        for entry in byText {
            let medium = of(entry.key)
            mediums[medium, default: 0] += entry.count
            for description in self.descriptions(of: entry.key) {
                descriptions[medium, default: [:]][description, default: 0] += entry.count
            }
        }
        let ordered = StatisticsDimension.format.ordered
        return ordered(mediums.map { medium, count in
            .init(key: medium.rawValue, count: count,
                  children: ordered((descriptions[medium] ?? [:]).map { .init(key: $0.key, count: $0.value) }))
        })
    }

    /// Whether a format text counts in a format chart's bar: its medium is `medium` and,
    /// for a second-level bar, `detail` is one of its descriptions.
    public static func counts(_ format: String, in medium: String, detail: String?) -> Bool {
        guard of(format).rawValue == medium else { return false }
        guard let detail else { return true }
        return descriptions(of: format).contains(detail)
    }
}
