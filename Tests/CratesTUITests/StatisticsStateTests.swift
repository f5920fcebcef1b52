import CratesCore
import Foundation
import Testing
@testable import CratesTUI

/// The statistics screen as a value: `#` asks the session for the statistics and shows them
/// as `crates stats` does, a bar at a time; Enter narrows the list to the copies of a bar,
/// Esc widens it again.
@Suite("Collection UI: statistics")
struct StatisticsStateTests {
    /// The sample collection's numbers, as the store would count them.
    static let statistics = CollectionStatistics(
        totals: .init(records: 6, copies: 6, matched: 3, waiting: 1),
        dimensions: [
            (.genre, [.init(key: "Unknown", count: 3), .init(key: "Electronic", count: 2), .init(key: "Folk, World, & Country", count: 1)]),
            (.decade, [.init(key: "1980s", count: 1), .init(key: "1990s", count: 2)]),
            (.grade, []),
        ])

    static func open(_ h: inout Harness) {
        #expect(h.send(.key(.character("#"), at: 100)) == [.session(.loadStatistics)])
        #expect(h.lines[0].hasPrefix(" crates · statistics"))
        #expect(h.lines[2].contains("Counting…"))
        h.send(.statistics(Self.statistics))
    }

    @Test("# opens the charts of crates stats; the first bar selected; j, k, Tab move between bars and charts")
    func screen() throws {
        var h = Harness(width: 60)
        Self.open(&h)
        let lines = h.lines
        #expect(lines[1].hasPrefix(" records"), "\(lines)")
        let genres = try #require(lines.firstIndex { $0.hasPrefix(" Genres") })
        #expect(lines[genres + 1].hasPrefix(" Unknown ") && lines[genres + 1].trimmingCharacters(in: .whitespaces).hasSuffix(" 3"),
                "\(lines[genres + 1])")
        #expect(lines[genres + 2].hasPrefix(" Electronic "))
        // The same lines as the command's, one column in.
        let report = StatisticsReport.lines(Self.statistics, width: 58).map(\.text)
        #expect(Array(lines[1..<(1 + report.count)]).map { $0.dropFirst().trimmingCharacters(in: .whitespaces) }
            == report.map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(lines.contains { $0.hasPrefix(" Media grades") })
        #expect(lines.contains { $0.hasPrefix("   (none)") })
        let selected = { (h: Harness) -> Int? in
            guard case .statistics(let state) = h.state.mode else { return nil }
            return state.selected
        }
        // The selection: the first bar; j the next; Tab the next chart's first; k back.
        let first = try #require(selected(h))
        #expect(report[first].hasPrefix("Unknown"))
        h.send(.key(.character("j"), at: 101))
        #expect(report[try #require(selected(h))].hasPrefix("Electronic"))
        h.send(.key(.tab, at: 102))
        #expect(report[try #require(selected(h))].hasPrefix("1980s"))
        h.send(.key(.character("G"), at: 103))
        #expect(report[try #require(selected(h))].hasPrefix("1990s"), "the last bar: a chart with none has no bar")
        h.send(.key(.character("k"), at: 104))
        h.send(.key(.character("k"), at: 105))
        #expect(report[try #require(selected(h))].hasPrefix("Folk"))
        // ? lists the screen's keys, and # among the list's.
        h.send(.key(.character("?"), at: 106))
        #expect(h.state.mode == .help(scroll: 0))
        let help = HelpText.lines(width: 60).map(\.text)
        #expect(help.contains("Statistics (#)"))
        #expect(help.contains { $0.hasPrefix("  #  ") && $0.contains("statistics: bar charts") })
        h.send(.key(.escape, at: 107))
        #expect(h.state.mode == .list)
    }

    @Test("the second answer (the other charts) keeps the selection on its bar and the totals on screen")
    func secondAnswerKeepsTheSelection() throws {
        var h = Harness(width: 80, height: 24)
        #expect(h.send(.key(.character("#"), at: 100)) == [.session(.loadStatistics)])
        let totals = CollectionStatistics.Totals(records: 3, copies: 3, waiting: 3)
        h.send(.statistics(CollectionStatistics(totals: totals, dimensions: [(.genre, [.init(key: "Unknown", count: 3)])])))
        let rest = StatisticsDimension.allCases.filter { $0 != .genre }.map { dimension in
            (dimension, dimension == .added ? [CollectionStatistics.Count(key: "2026-11", count: 3)] : [])
        }
        h.send(.statistics(CollectionStatistics(totals: totals, dimensions: rest)))
        guard case .statistics(let state) = h.state.mode, let statistics = state.statistics else {
            Issue.record("not the statistics: \(h.state.mode)")
            return
        }
        let report = h.state.statisticsLines(statistics)
        #expect(report[state.selected].kind == .bar && report[state.selected].text.hasPrefix("Unknown"), "\(report[state.selected])")
        #expect(state.scroll == 0)
        #expect(h.lines[1].hasPrefix(" records"), "\(h.lines)")
    }

    @Test("Enter on a bar shows its copies in the list, said in the title; Esc shows every record again")
    func enterFilters() throws {
        var h = Harness(width: 80)
        Self.open(&h)
        h.send(.key(.character("j"), at: 101))  // Electronic
        h.send(.key(.enter, at: 102))
        #expect(h.state.mode == .list)
        #expect(h.state.facet == StatisticsFacet(.genre, "Electronic"))
        #expect(h.state.list.rows.map(\.recordID) == [1, 2])
        #expect(h.lines[0].hasPrefix(" crates · genre Electronic: 2 copies"), "\(h.lines[0])")
        #expect(h.lines[23].hasPrefix("Showing genre Electronic (Esc: back to the chart)"))
        // A filter narrows within it; the first Esc clears the filter, the second the bar
        // (back to the chart), the third leaves the chart.
        h.send(.key(.character("/"), at: 103))
        h.type("mezz", from: 104)
        h.send(.key(.enter, at: 105))
        #expect(h.state.list.rows.map(\.recordID) == [2])
        h.send(.key(.escape, at: 106))
        #expect(h.state.list.rows.map(\.recordID) == [1, 2])
        h.send(.key(.escape, at: 107))
        if case .statistics = h.state.mode {} else { Issue.record("not back on the chart: \(h.state.mode)") }
        h.send(.key(.escape, at: 108))
        #expect(h.state.facet == nil && h.state.list.rows.count == 6)
        #expect(h.lines[0].hasPrefix(" crates ") && !h.lines[0].contains("genre"))

        // A decade.
        Self.open(&h)
        h.send(.key(.tab, at: 110))
        h.send(.key(.enter, at: 111))
        #expect(h.state.facet == StatisticsFacet(.decade, "1980s"))
        #expect(h.state.list.rows.map(\.recordID) == [3])
    }

    @Test("Esc from a bar's list goes back to the chart, on that bar, and asks for the counts again")
    func escapeReturnsToTheChart() {
        var h = Harness(width: 80)
        Self.open(&h)
        h.send(.key(.character("j"), at: 101))  // Electronic
        guard case .statistics(let before) = h.state.mode else {
            Issue.record("not the statistics")
            return
        }
        h.send(.key(.enter, at: 102))
        #expect(h.lines[23].hasPrefix("Showing genre Electronic (Esc: back to the chart)"))
        let commands = h.send(.key(.escape, at: 103))
        #expect(commands == [.session(.loadStatistics)])
        #expect(h.state.facet == nil)
        guard case .statistics(let after) = h.state.mode else {
            Issue.record("Esc went to \(h.state.mode), not the chart")
            return
        }
        #expect(after.selected == before.selected)
        #expect(h.lines.contains { $0.contains("Electronic") })
        // From the chart, Esc goes back to every record.
        h.send(.key(.escape, at: 104))
        #expect(h.state.mode == .list && h.state.facet == nil && h.state.list.rows.count == 6)
    }

    @Test("the session answers in parts: the genres first, said to be counting the rest; then every chart in order")
    func parts() throws {
        var h = Harness(width: 60, height: 40)
        #expect(h.send(.key(.character("#"), at: 100)) == [.session(.loadStatistics)])
        let genres = CollectionStatistics(totals: Self.statistics.totals, dimensions: [Self.statistics.dimensions[0]])
        h.send(.statistics(genres))
        #expect(h.lines.contains { $0.hasPrefix(" Genres") })
        #expect(h.lines.contains { $0.hasPrefix(" Counting the other charts…") })
        let rest = CollectionStatistics(
            totals: .init(records: 7, copies: 7), dimensions: [Self.statistics.dimensions[2], Self.statistics.dimensions[1]])
        h.send(.statistics(rest))
        guard case .statistics(let state) = h.state.mode, let held = state.statistics else {
            Issue.record("the screen holds the statistics")
            return
        }
        #expect(held.dimensions.map(\.dimension) == [.genre, .decade, .grade], "in the dimensions' order")
        #expect(held.totals.copies == 7, "the latest totals")
        #expect(h.lines.contains { $0.hasPrefix(" Counting the other charts…") }, "7 of the 10 charts still to come")
    }

    @Test("40 columns: every chart line fits, bars proportional")
    func narrow() throws {
        var h = Harness(width: 40)
        Self.open(&h)
        for line in h.lines { #expect(DisplayWidth.of(line) <= 40) }
        let bars = h.lines.filter { $0.contains("█") }
        #expect(bars.count == 5)
        let unknown = try #require(bars.first { $0.hasPrefix(" Unknown") })
        let folk = try #require(bars.first { $0.hasPrefix(" Folk") })
        // Three times as long, to the eighth of a column each bar is rounded to.
        #expect(abs(BarChart.eighthsIn(unknown) - 3 * BarChart.eighthsIn(folk)) <= 3)
    }
}
