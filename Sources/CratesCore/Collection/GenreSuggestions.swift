import Foundation

extension Section {
    /// Discogs' fifteen genres, as Discogs spells them: a release's first genre names its
    /// section, so a genre typed by hand in these words shares a section with Discogs'.
    public static let discogsGenres = [
        "Blues", "Brass & Military", "Children's", "Classical", "Electronic", "Folk, World, & Country", "Funk / Soul",
        "Hip Hop", "Jazz", "Latin", "Non-Music", "Pop", "Reggae", "Rock", "Stage & Screen",
    ]
}

/// The genres offered as a genre is typed by hand (the entry by hand, the edit): the
/// collection's own sections first, then Discogs' genres it does not have yet.
public enum GenreSuggestions {
    /// The genres of `known` (in its order, then Discogs' not among them) that `typed`
    /// begins, or begins a word of ("folk" and "country" both offer "Folk, World, &
    /// Country"), folded as the list's filter folds (case, diacritics); the one it spells
    /// first, then those it begins. Every genre when nothing is typed.
    public static func matching(_ typed: String, known: [String]) -> [String] {
        var seen: Set<String> = []
        let all = (known + Section.discogsGenres).filter { seen.insert(TextFolding.fold($0)).inserted }
        let text = TextFolding.fold(typed.trimmingCharacters(in: .whitespaces))
        guard !text.isEmpty else { return all }
        var same: [String] = []
        var starting: [String] = []
        var inside: [String] = []
        for genre in all {
            let folded = TextFolding.fold(genre)
            if folded == text {
                same.append(genre)
            } else if folded.hasPrefix(text) {
                starting.append(genre)
            } else if folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains(where: { $0.hasPrefix(text) }) {
                inside.append(genre)
            }
        }
        return same + starting + inside
    }

    /// What Tab puts in a genre field holding `typed`: the first genre offered, spelt as
    /// the section is ("rock" becomes "Rock": two spellings would be two sections); nil when
    /// nothing is typed, nothing matches, or `typed` is that genre already (Tab moves on).
    public static func completion(of typed: String, known: [String]) -> String? {
        let text = typed.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, let first = matching(text, known: known).first, first != text else { return nil }
        return first
    }
}
