/// Text typed by a person or read from a file, made safe to echo in a message.
public enum EscapedText {
    /// `input` made safe to echo on a terminal or in a tab-separated column: control and
    /// invisible formatting characters (tab included) become escapes such as `\0`, `\t` or
    /// `\u{1B}`, a backslash is doubled so escapes stay unambiguous, and an input longer than
    /// `limit` characters is cut, ending in "…" (a scanner gone wild can send kilobytes).
    public static func displayForm(of input: String, limit: Int = 64) -> String {
        var shown = ""
        var count = 0
        for character in input {
            guard count < limit else {
                shown += "…"
                break
            }
            count += 1
            for scalar in character.unicodeScalars {
                if scalar == "\\" {
                    shown += "\\\\"
                } else if isControl(scalar) {
                    shown += GTINError.escaped(scalar.value)
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return shown
    }

    /// True for what must never be shown raw nor taken as part of a value: controls (C0,
    /// DEL, C1), invisible formatting (zero-width space, bidirectional marks, byte order
    /// mark), line and paragraph separators.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        GTINParser.isControl(scalar)
    }
}
