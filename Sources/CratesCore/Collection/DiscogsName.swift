import Foundation

/// Discogs' naming conventions, undone for display.
public enum DiscogsName {
    /// Removes Discogs' disambiguation suffix (" (2)") and name-variation marker ("*") from an
    /// artist or label name: "Prince (2)" → "Prince", "Björk*" → "Björk".
    public static func display(_ name: String) -> String {
        var s = Substring(name).trimmingSpaces()
        if s.hasSuffix("*") { s = s.dropLast().trimmingSpaces() }
        if s.hasSuffix(")"), let open = s.lastIndex(of: "(") {
            let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
            let before = s[..<open]
            if !inner.isEmpty, inner.allSatisfy({ $0.isASCII && $0.isNumber }), before.hasSuffix(" ") {
                s = before.trimmingSpaces()
            }
        }
        if s.hasSuffix("*") { s = s.dropLast().trimmingSpaces() }
        return String(s)
    }

    /// `display` for every name of a credit that joins several ("DJ Nemesis (4) vs
    /// Klubrockers" → "DJ Nemesis vs Klubrockers", "Prodigy* & Arthus (2)" → "Prodigy &
    /// Arthus"), as a search result's "Artist - Title" writes them: a " (N)" is removed where a
    /// name ends (before a space, a comma or the end), and so is a "*" at the end of a word.
    /// A "*" inside a word ("Sm*sh") and a parenthesis that is not a number stay.
    public static func displayCredit(_ credit: String) -> String {
        let characters = Array(credit)
        var out = ""
        var i = 0
        func endsName(at index: Int) -> Bool {
            index >= characters.count || characters[index] == " " || characters[index] == ","
        }
        while i < characters.count {
            let c = characters[i]
            if c == " ", i + 2 < characters.count, characters[i + 1] == "(" {
                // " (" digits ")" where a name ends.
                var j = i + 2
                while j < characters.count, characters[j].isASCII, characters[j].isNumber { j += 1 }
                if j > i + 2, j < characters.count, characters[j] == ")", endsName(at: j + 1) {
                    i = j + 1
                    continue
                }
            }
            if c == "*", i > 0, characters[i - 1] != " ", endsName(at: i + 1) {
                i += 1
                continue
            }
            out.append(c)
            i += 1
        }
        return String(Substring(out).trimmingSpaces())
    }

    /// Splits a search result's "Artist - Title" at the first " - ". Without one, the whole
    /// text is the title and the artist is empty. For display only: see `splitExactly` for
    /// a split a record can be completed from.
    public static func splitArtistTitle(_ text: String) -> (artist: String, title: String) {
        guard let range = text.range(of: " - ") else { return ("", text) }
        let artist = String(text[..<range.lowerBound])
        let title = String(text[range.upperBound...])
        return (displayCredit(artist), title)
    }

    /// How a search result's "Artist - Title" splits.
    public enum TitleSplit: Hashable, Sendable {
        /// Exactly one " - ": the artist (markers removed) and the title.
        case split(artist: String, title: String)
        /// No " - ": the artist cannot be told from the title.
        case noSeparator
        /// Several " - " ("Jay-Z - 99 Problems - Prodigy Remix"): either the artist or the
        /// title has one, and only the release itself tells which.
        case ambiguous(separators: Int)
    }

    /// Splits "Artist - Title" only when the text has exactly one " - ".
    public static func splitExactly(_ text: String) -> TitleSplit {
        let parts = text.components(separatedBy: " - ")
        switch parts.count {
        case 1: return .noSeparator
        case 2: return .split(artist: displayCredit(parts[0]), title: parts[1])
        default: return .ambiguous(separators: parts.count - 1)
        }
    }
}

extension DiscogsName {
    /// `text` without the spaces around it.
    static func trimmed(_ text: String) -> String {
        String(Substring(text).trimmingSpaces())
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
