import CratesCore
import Foundation
import Testing
@testable import CratesTUI

/// What the collection is worth, on screen: the details view's value line, and the
/// statistics screen's value charts (most valuable copies, by genre, by place, over time).
@Suite("Collection UI: value")
struct ValueStateTests {
    static let day = Date(timeIntervalSince1970: 1_795_564_800)  // 2026-11-25 00:00 UTC

    @Test("the details show a copy's figures with their source and date: lowest listed, for sale, suggested for its grade")
    func detailsLine() {
        var details = GradingAndSyncTests.details(grading: CopyGrading(media: .veryGoodPlus))
        details.value = (
            CollectionValueReport.CopyFigure(
                id: 1, releaseID: 7, grade: .veryGoodPlus, lowestPrice: 12, forSale: 3, suggestedPrice: 15.5, at: Self.day),
            "EUR"
        )
        var wide = Harness(width: 120)
        wide.type([.enter])
        wide.send(.details(details))
        let text = wide.lines.joined(separator: "\n")
        #expect(text.contains("Value        lowest listed 12.00 EUR (3 for sale, 2026-11-25); suggested for VG+ 15.50 EUR"), "\(text)")
        // None listed, asked on a release fetch in the account's currency (not named then).
        details.value = (
            CollectionValueReport.CopyFigure(id: 1, releaseID: 7, grade: nil, lowestPrice: nil, forSale: 0, suggestedPrice: nil, at: Self.day), ""
        )
        #expect(GradingAndSyncTests.inDetails(details).lines.contains { $0.contains("Value        none listed (2026-11-25)") })
        // Nothing stored: no line.
        #expect(!GradingAndSyncTests.inDetails().lines.contains { $0.contains("Value  ") })
    }

    static let charts = CollectionValueCharts(
        currency: "USD",
        mostValuable: [.init(key: "#1 Björk — Homogenic", count: 40), .init(key: "#2 Artist — Title", count: 10)],
        byGenre: [.init(key: "Electronic", count: 40), .init(key: "Unknown", count: 10)],
        byPlace: [.init(key: "Shelf", count: 50)],
        overTime: [.init(key: "2026-10", count: 3_000), .init(key: "2026-11", count: 3_507)])

    @Test("the statistics screen ends with the value charts; each bar can be selected; Enter on a genre's narrows the list")
    func valueCharts() throws {
        var h = Harness(width: 60, height: 60)
        #expect(h.send(.key(.character("#"), at: 100)) == [.session(.loadStatistics)])
        var statistics = StatisticsStateTests.statistics
        h.send(.statistics(statistics))
        let before = h.lines
        #expect(!before.contains { $0.contains("Most valuable") })
        statistics.value = Self.charts
        h.send(.statistics(statistics))
        let lines = h.lines
        let top = try #require(lines.firstIndex { $0.hasPrefix(" Most valuable copies (USD)") }, "\(lines)")
        #expect(lines[top + 1].hasPrefix(" #1 Björk — Homogen") && lines[top + 1].trimmingCharacters(in: .whitespaces).hasSuffix(" 40"))
        let genre = try #require(lines.firstIndex { $0.hasPrefix(" Value by genre (USD)") })
        #expect(lines[genre + 1].hasPrefix(" Electronic "))
        #expect(lines.contains { $0.hasPrefix(" Value by place (USD)") })
        let time = try #require(lines.firstIndex { $0.hasPrefix(" Collection value over time (median, USD)") })
        #expect(lines[time + 1].hasPrefix(" 2026-10 ") && lines[time + 2].hasPrefix(" 2026-11 "))
        // The bars proportional: 3,000 of 3,507 is 6/7 of the longest.
        let report = StatisticsReport.lines(statistics, width: 58)
        let months = report.filter { $0.text.hasPrefix("2026-1") }.map { BarChart.eighthsIn($0.text) }
        #expect(months.count == 2 && abs(Double(months[0]) / Double(months[1]) - 3_000.0 / 3_507.0) < 0.02, "\(months)")

        // G reaches the last bar, a month's; Enter there does nothing (a month is no facet).
        h.send(.key(.character("G"), at: 101))
        guard case .statistics(let state) = h.state.mode else { Issue.record("not on the statistics screen"); return }
        #expect(report[state.selected].text.hasPrefix("2026-11"))
        h.send(.key(.enter, at: 102))
        #expect(h.state.facet == nil)
        // Back to the value by genre's first bar: Enter narrows the list to the genre.
        let heading = try #require(report.firstIndex { $0.text.hasPrefix("Value by genre") })
        let electronic = heading + 1
        #expect(report[electronic].facet == StatisticsFacet(.genre, "Electronic"))
        for n in 0..<20 {
            guard case .statistics(let state) = h.state.mode, state.selected > electronic else { break }
            h.send(.key(.character("k"), at: 200 + Double(n)))
        }
        guard case .statistics(let back) = h.state.mode else { Issue.record("not on the statistics screen"); return }
        #expect(back.selected == electronic)
        h.send(.key(.enter, at: 300))
        #expect(h.state.mode == .list)
        #expect(h.state.facet == StatisticsFacet(.genre, "Electronic"))
    }
}
