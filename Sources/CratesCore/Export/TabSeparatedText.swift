/// Values for tab-separated output (`crates list`, `crates lookup`): one record per line,
/// whatever the values hold.
public enum TabSeparatedText {
    /// `text` made safe for a column (`ControlCharacters.cleaned`): tabs and line breaks
    /// become spaces, so a value can neither split a field nor a line, and no other control
    /// character reaches a terminal.
    public static func field(_ text: String) -> String { ControlCharacters.cleaned(text) }

    /// The fields, each made safe, joined by tabs (no line break).
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: "\t")
    }
}
