import Foundation

/// The pieces every progress line is made of (an import's, a sync's, a download's, a
/// catalogue build's), so that they all read alike.
public enum ProgressText {
    /// `[#####---------------]`: `done` of `total` in `width` cells.
    public static func bar(_ done: Int, _ total: Int, width: Int) -> String {
        let filled = total > 0 ? max(0, min(width, done * width / total)) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// "45 s", "12 min", "3 h 20 min".
    public static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        let minutes = (s + 59) / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h \(minutes % 60) min"
    }

    /// A progress line fitted to `width` columns: `head` ("Looking up [###---] 12/66"), then
    /// `parts` each in its long form, then `tail` (the time left). Too wide, the parts take
    /// their short forms, the last first, then go, the last first; the tail stays to the
    /// end, since what is left to wait is what a person looks for. Cut with "…" only when
    /// the head and the tail alone are too wide.
    public static func fitted(head: String, parts: [(long: String, short: String)], tail: String?, width: Int) -> String {
        func line(_ forms: [String]) -> String {
            ([head] + forms + (tail.map { [$0] } ?? [])).joined(separator: " · ")
        }
        var forms = parts.map(\.long)
        for index in parts.indices.reversed() where DisplayWidth.of(line(forms)) > width {
            forms[index] = parts[index].short
        }
        while DisplayWidth.of(line(forms)) > width, !forms.isEmpty {
            forms.removeLast()
        }
        let text = line(forms)
        return DisplayWidth.of(text) > width ? TerminalText.truncated(text, to: width) : text
    }

    /// "812 B", "1.2 MB", "10.4 GB" (powers of 1000, as Discogs states its sizes and disks are
    /// sold): a download's amounts, on its bar and in what the fetch says; `ones` names the
    /// unit below a kilobyte ("812 bytes" where the size stands in a sentence of its own).
    public static func bytes(_ count: Int64, ones: String = "B") -> String {
        let units = ["", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) \(ones)" : String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
    }
}
