import CratesApp
import CratesCore
import CratesStore
import CratesTUI
import Foundation

/// Tags' figure (issue's target: at 100,000 records, tagging every record the filter shows
/// and moving them, 10,000, in at most 2 s, in one transaction, with undo): the filter typed,
/// `T` handled and its request answered as the session does (`recordIDs(shownBy:)`), the
/// tags applied and drawn; `p`, the places read, Enter, and the move carried out as the
/// session does (`UndoLedger.move`: one transaction), applied and drawn. The undo is timed
/// apart, then the tags cleared for the next run.
enum TagBenchmark {
    /// Filters tried, the one whose count is nearest 10,000 taken.
    static let candidates = ["year:1970..1979", "year:1970..1978", "year:1970..1976", "bjork", "prince", "can"]

    static func run(store: CollectionStore, records: Int, runs: Int) async throws {
        var best: (filter: String, count: Int)?
        for filter in candidates {
            let count = try await store.recordIDs(shownBy: CollectionQuery(filter: filter, window: RowWindow(offset: 0, limit: 0))).count
            if best.map({ abs($0.count - 10_000) > abs(count - 10_000) }) ?? true { best = (filter, count) }
        }
        guard let best else { return }
        let place = try await store.addLocation(name: "Tag bench \(Int(Date().timeIntervalSince1970))", in: nil)
        let ledger = UndoLedger(store: store)
        var state = AppState(width: 120, height: 40)
        var fetches: [Double] = []
        var commands = state.handle(.resize(width: 120, height: 40))
        try await TUIBenchmark.answer(&commands, &state, store, &fetches)
        var t = 1000.0
        func key(_ key: Key) -> [AppCommand] {
            t += 1
            return state.handle(.key(key, at: t))
        }
        commands = key(.character("/")) + best.filter.flatMap { key(.character($0)) } + key(.enter)
        try await TUIBenchmark.answer(&commands, &state, store, &fetches)

        var tagTimes: [Double] = []
        var moveTimes: [Double] = []
        var totals: [Double] = []
        var undoTimes: [Double] = []
        var moved = 0
        for _ in 0..<runs {
            let started = TUIBenchmark.now()
            guard case .session(.tagShown(let query))? = key(.character("T")).first(where: { if case .session(.tagShown) = $0 { true } else { false } })
            else { fatalError("T did not ask for the records shown") }
            _ = state.handle(.session(.tagged(try await store.recordIDs(shownBy: query), title: nil)))
            _ = state.render()
            let tagged = TUIBenchmark.now()
            guard key(.character("p")).contains(.session(.loadLocations)) else { fatalError("p did not open the place picker") }
            let tree = try await store.locationTree()
            _ = state.handle(.session(.locations(tree)))
            guard let index = tree.nodes.firstIndex(where: { $0.id == place.id }) else { fatalError("the bench's place is missing") }
            for _ in 0..<index { _ = key(.down) }
            guard case .session(.move(let ids, let to))? = key(.enter).first(where: { if case .session(.move) = $0 { true } else { false } })
            else { fatalError("Enter in the place picker did not move") }
            let (count, token) = try await ledger.move(ids, to: to)
            _ = state.handle(.session(.moved(count: count, to: place, undo: token)))
            _ = state.render()
            let done = TUIBenchmark.now()
            moved = count
            tagTimes.append(tagged - started)
            moveTimes.append(done - tagged)
            totals.append(done - started)
            let undoStarted = TUIBenchmark.now()
            _ = try await ledger.undo(token)
            undoTimes.append(TUIBenchmark.now() - undoStarted)
            _ = key(.character("U"))
        }
        print("crates TUI tags: \(records.formatted()) records, filter \"\(best.filter)\" shows \(best.count.formatted()), median of \(runs) runs")
        TUIBenchmark.report("T: every record shown tagged, drawn", tagTimes, target: nil)
        TUIBenchmark.report("p, Enter: \(moved.formatted()) records moved (one transaction), drawn", moveTimes, target: nil)
        TUIBenchmark.report("tag every record shown and move them", totals, target: 2.0)
        TUIBenchmark.report("u: the move undone (one transaction)", undoTimes, target: nil)
    }
}
