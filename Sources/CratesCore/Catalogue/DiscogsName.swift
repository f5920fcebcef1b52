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

    /// Splits a search result's "Artist - Title" at the first " - ". Without one, the whole
    /// text is the title and the artist is empty.
    public static func splitArtistTitle(_ text: String) -> (artist: String, title: String) {
        guard let range = text.range(of: " - ") else { return ("", text) }
        let artist = String(text[..<range.lowerBound])
        let title = String(text[range.upperBound...])
        return (display(artist), title)
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
