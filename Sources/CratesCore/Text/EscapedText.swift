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
                } else if ControlCharacters.isInvisible(scalar) {
                    shown += GTINError.escaped(scalar.value)
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return shown
    }
}
