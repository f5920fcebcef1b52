import Foundation

/// Text folded the way a person compares it: case-, diacritic- and width-insensitively
/// ("Björk" as "bjork", "ＡＢＣ" as "abc"), control characters dropped. The store's sort keys
/// and the search's comparisons (catalogue-number keys, artist and title words) both use it,
/// so that what sorts together also matches together.
public enum TextFolding {
    /// `text` folded: lower-cased, without diacritics, half-width, without control characters.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // Fast path: printable ASCII only needs lower-casing.
            return text.lowercased()
        }
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var scalars = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars where !ControlCharacters.isControl(scalar) {
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// The words of `text` as a text index sees them: folded, then split on every character
    /// that is not a letter or a digit ("Motörhead – Ace Of Spades" → motorhead, ace, of,
    /// spades; "CDP 7 46001-2" → cdp, 7, 46001, 2). Discogs' search tokenizes this way, and
    /// so does the loopback server (Tests/DiscogsServer/search_index.py).
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in fold(text) {
            if isWordCharacter(character) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// True for a letter or a digit of any script (what a word is made of).
    public static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }
}
