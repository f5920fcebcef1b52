/// Text from Discogs is untrusted: it reaches the terminal, so control characters go.
public enum DiscogsText {
    /// Removes C0 controls (ESC, BEL, CR…), DEL and C1 controls (U+0080–U+009F), which a
    /// terminal would obey rather than show; tabs and newlines become spaces; runs of spaces
    /// stay as they are. Everything else, CJK and emoji included, is kept.
    public static func clean(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The first `limit` bytes of a response body, as safe text for an error message:
    /// cleaned, invalid UTF-8 repaired, and "…" when cut.
    public static func preview(_ bytes: some Collection<UInt8>, limit: Int = 80) -> String {
        let head = Array(bytes.prefix(limit))
        let text = clean(String(decoding: head, as: UTF8.self))
        return bytes.count > limit ? text + "…" : text
    }

    /// Nil for nil, empty or blank text; otherwise the cleaned text.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        let cleaned = clean(text)
        return cleaned.allSatisfy({ $0 == " " }) ? nil : cleaned
    }
}
