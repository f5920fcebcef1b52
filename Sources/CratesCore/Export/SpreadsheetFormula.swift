/// CSV cells a spreadsheet would run as a formula, made inert as OWASP advises against CSV
/// injection (https://owasp.org/www-community/attacks/CSV_Injection): a cell that starts with
/// `=`, `+`, `-`, `@`, a tab or a carriage return gets a single quote in front, which every
/// spreadsheet shows as text and does not evaluate. An artist, title, label or catalogue
/// number from Discogs or a collector is untrusted text (`=HYPERLINK(…)`, `+cmd|…`).
///
/// Every text cell gets it, a catalogue number such as "-123" too: a catalogue number is text,
/// and a spreadsheet would otherwise read "-0123" as the number -123 (and `-1+cmd` runs). The
/// numbers crates writes (a rating, a year, a release id) are never negative, so no number is
/// changed.
///
/// The quote is undone on reading (`restored`), so an export imports back exactly: a value
/// that itself starts with quotes before such a character ("'=x") gets one more quote, and
/// reading takes exactly one away.
public enum SpreadsheetFormula {
    /// The characters that start a formula (or, tab and CR, hide one in some spreadsheets).
    static func isTrigger(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }

    /// Whether `text` is quotes (none or more) then a trigger character: such a cell is
    /// written with one more quote in front.
    static func needsQuote<Bytes: Collection<UInt8>>(_ utf8: Bytes) -> Bool {
        guard let first = utf8.first(where: { $0 != UInt8(ascii: "'") }) else { return false }
        return isTrigger(first)
    }

    /// The cell as written: `'` + `text` when a spreadsheet would take `text` for a formula.
    public static func neutralised(_ text: String) -> String {
        needsQuote(text.utf8) ? "'" + text : text
    }

    /// The value of a cell `neutralised` wrote: without the quote it added. A cell that does
    /// not start with a quote followed by what `neutralised` quotes is read as it is.
    public static func restored(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.first == UInt8(ascii: "'"), needsQuote(utf8.dropFirst()) else { return text }
        return String(text.dropFirst())
    }
}
