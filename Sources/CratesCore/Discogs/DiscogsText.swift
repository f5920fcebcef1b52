/// Text from Discogs is untrusted: it reaches the terminal, so control characters go
/// (`ControlCharacters.cleaned`).
public enum DiscogsText {
    /// The first `limit` bytes of a response body, as safe text for an error message:
    /// cleaned, invalid UTF-8 repaired, and "…" when cut.
    public static func preview(_ bytes: some Collection<UInt8>, limit: Int = 80) -> String {
        let head = Array(bytes.prefix(limit))
        let text = ControlCharacters.cleaned(String(decoding: head, as: UTF8.self))
        return bytes.count > limit ? text + "…" : text
    }

    /// Nil for nil, empty or blank text; otherwise the cleaned text.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        let cleaned = ControlCharacters.cleaned(text)
        return cleaned.allSatisfy({ $0 == " " }) ? nil : cleaned
    }
}
