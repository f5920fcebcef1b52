/// Values for tab-separated output (`crates list`, `crates lookup`): one record per line,
/// whatever the values hold.
public enum TabSeparatedText {
    /// `text` with every control character (C0, DEL, C1: tab and line breaks included)
    /// replaced by a space, so that it can neither split a field nor a line, nor reach a
    /// terminal as an escape sequence.
    public static func field(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(isControl(scalar) ? " " : scalar) }
        return String(out)
    }

    /// The fields, each made safe, joined by tabs (no line break).
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: "\t")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
