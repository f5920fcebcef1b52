/// Making untrusted text safe and fitting it into columns.
public enum TerminalText {
    /// Removes what must never reach a terminal: C0 controls (ESC, BEL, …), DEL and C1
    /// controls (0x80–0x9F, which some terminals treat as CSI). Tabs and newlines become a
    /// space, so a field from Discogs always stays on its row.
    public static func sanitised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                out.append(" ")
            } else if !isControl(scalar) {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (v >= 0x7F && v < 0xA0)
    }

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
