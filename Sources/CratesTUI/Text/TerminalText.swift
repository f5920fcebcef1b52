/// Fitting text into columns (control characters are removed by `ControlCharacters`).
public enum TerminalText {
    /// Cuts `text` to at most `width` columns, ending in "…" when something was cut. A wide
    /// character that would straddle the edge is dropped rather than split.
    public static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    public static func fitted(_ text: String, to width: Int) -> String {
        let cut = truncated(text, to: width)
        let pad = width - DisplayWidth.of(cut)
        return pad > 0 ? cut + String(repeating: " ", count: pad) : cut
    }
}
