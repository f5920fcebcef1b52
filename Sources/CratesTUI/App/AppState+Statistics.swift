import CratesCore

/// The statistics screen (`#`): the charts of `crates stats` over the whole collection, a bar
/// selected at a time; Enter narrows the list to the copies of that bar (a genre, a decade, a
/// place…), Esc in the list widens it again.
extension AppState {
    public struct StatisticsState: Equatable, Sendable {
        /// Nil until the session's answer arrives.
        public var statistics: CollectionStatistics?
        /// The selected line of the report (a bar's), and the first line shown.
        public var selected: Int
        public var scroll: Int
    }

    /// The report in the screen's width (a column's margin each side).
    func statisticsLines(_ statistics: CollectionStatistics) -> [StatisticsReport.Line] {
        StatisticsReport.lines(statistics, width: max(10, width - 2))
    }

    /// Whether charts are still to come from the session.
    func statisticsPending(_ statistics: CollectionStatistics) -> Bool {
        statistics.dimensions.count < StatisticsDimension.allCases.count
    }

    /// Rows the report has on screen, under its title line.
    var statisticsHeight: Int { max(1, listHeight) }

    mutating func openStatistics() -> [AppCommand] {
        mode = .statistics(StatisticsState(statistics: nil, selected: 0, scroll: 0))
        return [.session(.loadStatistics)]
    }

    /// Takes statistics from the session, which answers in parts (the first charts first):
    /// the charts already held stay, those in the answer are put in (in the dimensions'
    /// order), and the totals are the answer's.
    mutating func applyStatistics(_ statistics: CollectionStatistics) {
        guard case .statistics(var state) = mode else { return }
        let first = state.statistics == nil
        var charts: [StatisticsDimension: [CollectionStatistics.Count]] = [:]
        for entry in (state.statistics?.dimensions ?? []) + statistics.dimensions { charts[entry.dimension] = entry.counts }
        state.statistics = CollectionStatistics(
            totals: statistics.totals,
            dimensions: StatisticsDimension.allCases.compactMap { dimension in charts[dimension].map { (dimension, $0) } },
            value: statistics.value ?? state.statistics?.value)
        // The selection is a line of the whole report, not of this answer's part.
        let lines = state.statistics.map(statisticsLines) ?? []
        if first || !lines.indices.contains(state.selected) || lines[state.selected].kind != .bar {
            state.selected = lines.firstIndex { $0.kind == .bar } ?? 0
        }
        mode = .statistics(state)
        keepStatisticsSelectionVisible()
    }

    mutating func statisticsKey(_ key: Key, _ state: StatisticsState) -> [AppCommand] {
        guard let action = KeyMap.action(for: key, in: .statistics) else { return [] }
        var state = state
        let lines = state.statistics.map(statisticsLines) ?? []
        // Every bar can be selected (a value chart's copies and months too, so that the
        // screen scrolls to them); Enter narrows the list only from a bar with a facet.
        let bars = lines.indices.filter { lines[$0].kind == .bar }
        /// The bar nearest `line` in the direction of travel (else the other way).
        func bar(from line: Int, forward: Bool) -> Int? {
            let ahead = forward ? bars.first { $0 >= line } : bars.last { $0 <= line }
            return ahead ?? (forward ? bars.last : bars.first)
        }
        switch action {
        case .moveDown: state.selected = bars.first { $0 > state.selected } ?? state.selected
        case .moveUp: state.selected = bars.last { $0 < state.selected } ?? state.selected
        case .pageDown: state.selected = bar(from: state.selected + statisticsHeight - 1, forward: true) ?? state.selected
        case .pageUp: state.selected = bar(from: state.selected - (statisticsHeight - 1), forward: false) ?? state.selected
        case .top: state.selected = bars.first ?? 0
        case .bottom: state.selected = bars.last ?? 0
        case .nextSection:
            // The first bar of the next chart.
            let heading = lines.indices.first { $0 > state.selected && lines[$0].kind == .heading }
            state.selected = heading.flatMap { h in bars.first { $0 > h } } ?? state.selected
        case .previousSection:
            let current = lines.indices.last { $0 < state.selected && lines[$0].kind == .heading } ?? 0
            let previous = lines.indices.last { $0 < current && lines[$0].kind == .heading }
            state.selected = previous.flatMap { h in bars.first { $0 > h } } ?? bars.first ?? 0
        case .open:
            guard lines.indices.contains(state.selected), let facet = lines[state.selected].facet else { return [] }
            mode = .list
            showFacet(facet, from: state)
            return drainQueuedScans()
        default:
            if let commands = viewCommonKey(action) { return commands }
        }
        mode = .statistics(state)
        keepStatisticsSelectionVisible()
        return []
    }

    /// Narrows the list to the copies of one bar (nil: every record again). `chart`: the
    /// statistics screen the bar was chosen on, which Esc goes back to.
    mutating func showFacet(_ facet: StatisticsFacet?, from chart: StatisticsState? = nil) {
        self.facet = facet
        facetChart = facet == nil ? nil : chart
        sentQuery = nil
        received = false
        selectedLine = 0
        scrollTop = 0
        if let facet {
            say("Showing \(facet) (Esc: \(chart == nil ? "every record" : "back to the chart"))")
        } else {
            say("Every record")
        }
    }

    /// Esc in a bar's list: back to the chart it came from, on that bar, its counts asked
    /// again (the list may have changed them); nil when the bar was not chosen on a chart.
    mutating func backToChart() -> [AppCommand]? {
        guard let chart = facetChart else { return nil }
        showFacet(nil)
        message = nil
        mode = .statistics(chart)
        keepStatisticsSelectionVisible()
        return [.session(.loadStatistics)]
    }

    /// Scrolls the report so that its selection is on screen, with the chart's heading when
    /// it fits.
    mutating func keepStatisticsSelectionVisible() {
        guard case .statistics(var state) = mode else { return }
        let visible = statisticsHeight
        if state.selected < state.scroll { state.scroll = max(0, state.selected - 2) }
        if state.selected >= state.scroll + visible { state.scroll = state.selected - visible + 1 }
        mode = .statistics(state)
    }
}
