
/// The statistics as lines of text, for `crates stats` and the statistics screen alike: the
/// totals (labels left, numbers right-aligned), then for each dimension a blank line, its
/// heading and its bar chart (`BarChart`), each bar knowing the copies it stands for; then
/// the value charts, when the statistics hold them (a genre's or a place's bar knows its
/// copies too).
public enum StatisticsReport {
    public struct Line: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            case total, blank, heading, bar, none
        }

        public var text: String
        public var kind: Kind
        /// The copies a bar stands for (nil for the other lines).
        public var facet: StatisticsFacet?
    }

    /// The report, each line at most `width` columns (bars as `BarChart.lines` lays them out).
    public static func lines(_ statistics: CollectionStatistics, width: Int) -> [Line] {
        let totals = statistics.totals.named
        let labelWidth = totals.map { $0.label.count }.max() ?? 0
        let numberWidth = totals.map { String($0.value).count }.max() ?? 0
        var lines = totals.map { total in
            let number = String(total.value)
            return Line(
                text: total.label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + "  "
                    + String(repeating: " ", count: numberWidth - number.count) + number,
                kind: .total)
        }
        for entry in statistics.dimensions {
            lines.append(Line(text: "", kind: .blank))
            lines.append(Line(text: entry.dimension.heading, kind: .heading))
            if entry.counts.isEmpty {
                lines.append(Line(text: "  (none)", kind: .none))
                continue
            }
            // A second level follows its bar, indented, on the same scale.
            var bars: [(count: CollectionStatistics.Count, facet: StatisticsFacet)] = []
            for count in entry.counts {
                bars.append((count, StatisticsFacet(entry.dimension, count.key)))
                for child in count.children {
                    bars.append((.init(key: "  " + child.key, count: child.count),
                                 StatisticsFacet(entry.dimension, count.key, detail: child.key)))
                }
            }
            for (bar, text) in zip(bars, BarChart.lines(bars.map(\.count), width: width)) {
                lines.append(Line(text: text, kind: .bar, facet: bar.facet))
            }
        }
        for line in statistics.spending?.textLines ?? [] {
            lines.append(Line(text: line.text, kind: line.heading ? .heading : line.text.isEmpty ? .blank : .total))
        }
        for chart in statistics.value?.charts ?? [] {
            lines.append(Line(text: "", kind: .blank))
            lines.append(Line(text: chart.heading, kind: .heading))
            if chart.counts.isEmpty {
                lines.append(Line(text: "  (no figures stored: crates value --refresh)", kind: .none))
                continue
            }
            for (count, text) in zip(chart.counts, BarChart.lines(chart.counts, width: width)) {
                lines.append(Line(text: text, kind: .bar, facet: chart.dimension.map { StatisticsFacet($0, count.key) }))
            }
        }
        return lines
    }
}
