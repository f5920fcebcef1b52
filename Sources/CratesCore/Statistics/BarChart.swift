
/// Horizontal bar charts in Unicode eighth blocks ("█▉▊▋▌▍▎▏"), for `crates stats` and the
/// statistics screen: one line per count, `key  bar  count`, the bars proportional to the
/// counts (the largest fills the bar column), each line exactly `width` columns or less.
public enum BarChart {
    /// The partial blocks, one eighth to seven eighths.
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The bar for `count` out of `largest` in `columns` columns: its length in eighths of a
    /// column rounded to the nearest, and at least one eighth for a count above zero, so
    /// that a small count still shows.
    public static func bar(_ count: Int, of largest: Int, columns: Int) -> String {
        guard count > 0, largest > 0, columns > 0 else { return "" }
        let total = columns * 8
        // In integers: count * total / largest, rounded half up, without overflow for any
        // collection size (both factors are below 2^31 in practice; the product fits Int64).
        let length = max(1, min(total, (count * total * 2 + largest) / (largest * 2)))
        var out = String(repeating: "█", count: length / 8)
        if length % 8 > 0 { out.append(eighths[length % 8 - 1]) }
        return out
    }

    /// How many eighths of a column `bar` stands for.
    public static func eighthsIn(_ bar: String) -> Int {
        bar.reduce(0) { total, character in
            if character == "█" { return total + 8 }
            if let index = eighths.firstIndex(of: character) { return total + index + 1 }
            return total
        }
    }

    /// The chart of `counts`, in their order, `width` columns wide: keys cut to at most a
    /// third of the width (with "…"), the counts right-aligned, the bars in what is left (at
    /// least one column, so a terminal too narrow still gets lines, only wider than asked).
    public static func lines(_ counts: [CollectionStatistics.Count], width: Int) -> [String] {
        guard let largest = counts.map(\.count).max() else { return [] }
        let keyWidth = min(counts.map { DisplayWidth.of($0.key) }.max() ?? 0, max(4, width / 3))
        let countWidth = String(largest).count
        let barColumns = max(1, width - keyWidth - countWidth - 2)
        return counts.map { entry in
            let key = TerminalText.fitted(entry.key, to: keyWidth)
            let bar = bar(entry.count, of: largest, columns: barColumns)
            let number = String(entry.count)
            let gap = barColumns - bar.count + countWidth - number.count
            return "\(key) \(bar)\(String(repeating: " ", count: max(1, gap + 1)))\(number)"
        }
    }
}
