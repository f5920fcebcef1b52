// How a listing is laid out in aligned columns for a person: pure text (display widths, cut
// with "…"), so that any printer of tab-separated lines can use it.

/// One column of a listing as a person reads it in a terminal: its heading, how wide it may
/// grow, and the words it shows, made from the fields of the tab-separated line.
public struct TableColumn: Sendable {
    public var heading: String
    /// The widest it grows (display columns); a longer value is cut with "…".
    public var cap: Int
    /// Numbers line up on the right.
    public var rightAligned: Bool
    public var value: @Sendable (_ fields: [String]) -> String

    public init(heading: String, cap: Int = 40, rightAligned: Bool = false, value: @escaping @Sendable (_ fields: [String]) -> String) {
        self.heading = heading
        self.cap = cap
        self.rightAligned = rightAligned
        self.value = value
    }

    /// The field at `field` of the tab-separated line, in `readable` words.
    public init(
        heading: String, field: Int, cap: Int = 40, rightAligned: Bool = false,
        readable: @escaping @Sendable (String) -> String = { $0 }
    ) {
        self.init(heading: heading, cap: cap, rightAligned: rightAligned) { fields in
            readable(fields.indices.contains(field) ? fields[field] : "")
        }
    }

    /// Each column as wide as its widest value or heading, up to its cap; then, while the
    /// line is wider than the terminal, the widest column loses a column (none narrower than
    /// its heading, or 6).
    public static func widths(_ columns: [TableColumn], rows: [[String]], width: Int) -> [Int] {
        var widths = columns.enumerated().map { index, column in
            min(column.cap, rows.reduce(DisplayWidth.of(column.heading)) { max($0, DisplayWidth.of($1[index])) })
        }
        let floors = columns.map { max(6, DisplayWidth.of($0.heading)) }
        let gaps = 2 * max(0, columns.count - 1)
        while widths.reduce(gaps, +) > width {
            guard let widest = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        return widths
    }

    /// The fields padded to `widths` (cut with "…" when longer), two spaces apart; the last
    /// column unpadded.
    public static func line(_ fields: [String], widths: [Int], columns: [TableColumn]) -> String {
        var out = ""
        for (index, field) in fields.enumerated() {
            let text = TerminalText.truncated(field, to: widths[index])
            let pad = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(text)))
            if index > 0 { out += "  " }
            if columns[index].rightAligned {
                out += pad + text
            } else {
                out += text + (index == fields.count - 1 ? "" : pad)
            }
        }
        return out
    }
}
