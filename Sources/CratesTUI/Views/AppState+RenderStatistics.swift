import CratesCore

extension AppState {
    /// The report, from its scroll position: totals, then each chart under its heading, the
    /// selected bar highlighted.
    func renderStatistics(_ state: StatisticsState, into screen: inout Screen) {
        guard let statistics = state.statistics else {
            screen.put("Counting…", row: 2, column: 2, style: .dim)
            return
        }
        let lines = statisticsLines(statistics)
        for (offset, line) in lines.dropFirst(state.scroll).prefix(statisticsHeight).enumerated() {
            let row = 1 + offset
            let selected = state.scroll + offset == state.selected
            if selected { screen.fill(row: row, style: .selected) }
            let style: Style
            switch line.kind {
            case _ where selected: style = .selected
            case .heading: style = .header
            case .none: style = .dim
            default: style = .normal
            }
            screen.put(line.text, row: row, column: 1, style: style, limit: width - 1)
        }
        // The charts still being counted, under the last one.
        let after = lines.count - state.scroll + 1
        if statisticsPending(statistics), after >= 1, after + 1 <= statisticsHeight {
            screen.put("Counting the other charts…", row: after + 1, column: 1, style: .dim)
        }
    }

    /// " · genre Rock" in the list's title while the list shows one bar of the statistics.
    var facetTitle: String {
        guard let facet else { return "" }
        let count = list.facet == facet ? ": \(list.rowCount.grouped) \(list.rowCount == 1 ? "copy" : "copies")" : ""
        return " · \(facet)\(count)"
    }
}
