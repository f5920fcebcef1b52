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

    /// `text` in lines of at most `width` columns, broken at spaces; a word wider than a
    /// line is broken where the line ends (a wide character is never split). At least one
    /// line, empty for empty text.
    public static func wrapped(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = DisplayWidth.of(String(word))
            if used > 0, used + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                used = 0
            } else if used > 0 {
                line.append(" ")
                used += 1
            }
            for character in word {
                let w = DisplayWidth.of(character)
                if used + w > width, used > 0 {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                line.append(character)
                used += w
            }
        }
        lines.append(line)
        return lines
    }
}
