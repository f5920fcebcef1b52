/// The one rule for text that may reach a terminal, a log line or a tab-separated column:
/// text from Discogs, from the camera daemon, from a file, is untrusted.
public enum ControlCharacters {
    /// C0 controls (ESC, BEL, CR…), DEL and C1 controls (U+0080–U+009F, which some terminals
    /// take as CSI): a terminal obeys them rather than shows them.
    /// (Unicode's general category Cc, by value.)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// What a typed or read value must not hold: the controls, and the characters that show
    /// as nothing (format characters such as the zero-width space, bidirectional marks and
    /// the byte order mark; line and paragraph separators), with which one value would look
    /// like another. Text shown on screen keeps the latter (`cleaned`): an emoji sequence
    /// holds zero-width joiners.
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if isControl(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
        default: return false
        }
    }

    /// `text` without control characters: tabs and line breaks become a space (so a value
    /// always stays on its row and in its column), every other control is removed. Runs of
    /// spaces stay; everything else, CJK and emoji included, is kept.
    public static func cleaned(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case _ where isControl(scalar): continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` as it may reach a terminal whole: every control character taken out but the line
    /// feed and the tab, which are the lines and columns crates writes itself (a value's own
    /// are made spaces before: `cleaned`). The rule of the printing layer (`StandardStreams`):
    /// whatever a command prints, a screen-clearing ESC, a clipboard-writing OSC 52, a BEL or
    /// a C1 CSI from Discogs or a file is never obeyed by the terminal, and a carriage return
    /// never writes one line over another.
    public static func printable(_ text: String) -> String {
        guard holdsUnprintable(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isControl(scalar) || scalar == "\n" || scalar == "\t" {
            out.append(scalar)
        }
        return String(out)
    }

    /// Whether `text` holds a control character other than a line feed or (unless
    /// `countingTabs`) a tab: read as UTF-8 bytes (C0 and DEL are single bytes, C1 is 0xC2
    /// then 0x80–0x9F), from the string's own buffer, since every line a command prints
    /// passes here (a million-line listing, in pages of hundreds of kilobytes).
    static func holdsUnprintable(_ text: String, countingTabs: Bool = false) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 {
                    if byte != 0x0A, byte != 0x09 || countingTabs { return true }
                } else if byte == 0x7F {
                    return true
                } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] <= 0x9F {
                    // 0xC2 is only ever a lead byte; its continuation is 0x80 or more.
                    return true
                }
                index += 1
            }
            return false
        }
    }

    /// `cleaned(text)`, cut to `limit` characters with "…" when longer: for a value quoted in
    /// an error message.
    public static func clipped(_ text: String, limit: Int = 120) -> String {
        let clean = cleaned(text)
        return clean.count > limit ? String(clean.prefix(limit)) + "…" : clean
    }
}
