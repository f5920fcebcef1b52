import CratesApp
import CratesCore
import CratesStore
import CratesTUI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The UI's figures over an existing collection (scripts/bench.sh builds one with
/// crates-bench): start to first full screen, key handling plus repaint (p50/p99) for
/// scrolling, paging, section jumps and filtering, the filter's store query alone, and peak
/// memory. The UI core runs against a memory terminal (it renders into a `Screen`), so the
/// figures are the UI's own work, not a terminal emulator's.
@main
struct TUIBenchmark {
    static func main() async throws {
        var arguments = CommandLine.arguments.dropFirst()
        var database: String?
        var runs = 5
        var filterOnly = false
        var checkCodes: String?
        var catalogue: String?
        var tagsOnly = false
        // The list's arrangement for the keys and the filter's queries: pressed as a person
        // would (`O` until the order, `R`, `F`), so that each is measured as the UI runs it.
        var sort = ListOrder.default
        var reverse = false
        var flat = false
        while let argument = arguments.popFirst() {
            switch argument {
            case "--db": database = arguments.popFirst()
            case "--runs": runs = arguments.popFirst().flatMap { Int($0) } ?? runs
            case "--filter-only": filterOnly = true
            case "--check": checkCodes = arguments.popFirst()
            case "--catalogue": catalogue = arguments.popFirst()
            case "--tags": tagsOnly = true
            case "--sort": sort = arguments.popFirst().flatMap(ListOrder.init(rawValue:)) ?? sort
            case "--reverse": reverse = true
            case "--flat": flat = true
            default:
                FileHandle.standardError.write(Data("usage: crates-tui-bench --db PATH [--runs N] [--sort ORDER] [--reverse] [--flat] [--filter-only | --tags]\n".utf8))
                exit(2)
            }
        }
        guard let database else {
            FileHandle.standardError.write(Data("crates-tui-bench: --db PATH is required (scripts/bench.sh makes one)\n".utf8))
            exit(2)
        }
        if let checkCodes {
            try await CheckModeBenchmark.run(database: database, catalogue: catalogue, codes: checkCodes)
            return
        }
        if tagsOnly {
            let store = try CollectionStore(path: database)
            let records = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 0))).totalRecords
            try await TagBenchmark.run(store: store, records: records, runs: runs)
            return
        }

        // 1. Start to first full screen: open the store, read the collection, lay it out, render.
        var startTimes: [Double] = []
        var records = 0
        for _ in 0..<(filterOnly ? 1 : runs) {
            let started = now()
            let store = try CollectionStore(path: database)
            let first = try await FirstScreen.load(store, width: 120, height: 40)
            _ = first.state.render()
            startTimes.append(now() - started)
            records = first.records
        }
        print("crates TUI benchmark: \(records.formatted()) records, 120×40 memory terminal, median of \(runs) runs")
        if !filterOnly { report("start → first full screen", startTimes, target: 0.2) }

        // 2. Keys: each handled and the frame rendered, as the UI loop does per key. A key
        // that needs rows not held asks the store; that query runs off the UI thread in the
        // app, so it is timed apart, and its answer applied (and rendered) as the next event.
        let store = try CollectionStore(path: database)
        var state = AppState(width: 120, height: 40)
        var fetches: [Double] = []
        var pending = state.handle(.resize(width: 120, height: 40))
        try await answer(&pending, &state, store, &fetches)
        var arrangementKeys = Array(repeating: Key.character("O"), count: ListOrder.allCases.firstIndex(of: sort) ?? 0)
        if reverse { arrangementKeys.append(.character("R")) }
        if flat { arrangementKeys.append(.character("F")) }
        for (n, key) in arrangementKeys.enumerated() {
            pending = state.handle(.key(key, at: 500 + Double(n)))
            try await answer(&pending, &state, store, &fetches)
        }
        print("  the list by \(state.order.rawValue)\(state.descending ? ", descending" : "")\(state.flat ? ", flat" : "")")
        let scenarios: [(String, [Key])] = [
            ("scroll (j/k)", Array(repeating: Key.down, count: 300) + Array(repeating: Key.up, count: 100)),
            ("page (PgDn/PgUp)", Array(repeating: Key.pageDown, count: 200) + Array(repeating: Key.pageUp, count: 100)),
            ("jump section (]/[)", Array(repeating: Key.character("]"), count: 30) + Array(repeating: Key.character("["), count: 30)),
            ("home/end (g/G)", Array(repeating: [Key.character("G"), Key.character("g")], count: 50).flatMap { $0 }),
            ("filter as you type", [Key.character("/")] + "moon river".map { Key.character($0) } + Array(repeating: Key.backspace, count: 10)
                + "blue".map { Key.character($0) } + [Key.escape]),
        ]
        var t = 1000.0
        for (name, keys) in filterOnly ? [] : scenarios {
            var samples: [Double] = []
            fetches = []
            for _ in 0..<max(1, runs / 2) {
                for key in keys {
                    t += 1
                    let started = now()
                    var commands = state.handle(.key(key, at: t))
                    _ = state.render()
                    samples.append(now() - started)
                    try await answer(&commands, &state, store, &fetches)
                }
            }
            reportPercentiles("key + repaint: \(name)", samples, target: 0.016)
            if !fetches.isEmpty {
                reportPercentiles("   store query for it (background): \(name)", fetches, target: nil)
            }
        }

        // 2b. The filter's query alone, as the UI sends it per keystroke (a screenful and its
        // margins, the selection to locate): every prefix of what a person types, from one
        // character on. Words few records hold, words most hold ("one": every release's
        // label), a barcode's digits, CJK, and a word none holds. Target: 20 ms per 100,000
        // records (200 ms at 1,000,000).
        let typed = ["moon river", "blue", "bjork", "one little", "tplp 4", "5012", "坂本龍一", "zzz"]
        let prefixes = typed.flatMap { text in (1...text.count).map { String(text.prefix($0)) } }
            .filter { !$0.hasSuffix(" ") }
        // Wall clock, and the process's CPU time too: on a machine shared with other work the
        // wall clock also counts the time the query waited for a core.
        var short: (wall: [Double], cpu: [Double]) = ([], [])
        var long: (wall: [Double], cpu: [Double]) = ([], [])
        let trace = ProcessInfo.processInfo.environment["CRATES_BENCH_TRACE"] != nil
        for _ in 0..<max(1, runs / 2) {
            for filter in prefixes {
                let (started, cpuStarted) = (now(), cpuNow())
                _ = try await store.window(CollectionQuery(
                    filter: filter, window: RowWindow(offset: 0, limit: 110), focus: state.selectedRecord, order: state.order,
                    descending: state.descending, flat: state.flat))
                let (elapsed, cpu) = (now() - started, cpuNow() - cpuStarted)
                if trace { print(String(format: "    %@: %.1f ms, CPU %.1f ms", filter, elapsed * 1000, cpu * 1000)) }
                if filter.split(separator: " ").contains(where: { $0.unicodeScalars.count >= 3 }) {
                    long.wall.append(elapsed)
                    long.cpu.append(cpu)
                } else {
                    short.wall.append(elapsed)
                    short.cpu.append(cpu)
                }
            }
        }
        // The first keystroke after another connection's commit (a note edited, as a lookup or
        // another process writes while a person types): the store cannot reuse what it read
        // for the keystrokes before, and reads the records again.
        var afterChange: (wall: [Double], cpu: [Double]) = ([], [])
        let other = try CollectionStore(path: database)
        let someRecord = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 1))).rows.first?.recordID
        for run in 0..<max(1, runs / 2) {
            for (n, text) in typed.enumerated() {
                if let someRecord { try await other.edit(someRecord, RecordEdit(note: .set("bench \(run) \(n)"))) }
                let filter = String(text.prefix(1))
                let (started, cpuStarted) = (now(), cpuNow())
                _ = try await store.window(CollectionQuery(
                    filter: filter, window: RowWindow(offset: 0, limit: 110), focus: state.selectedRecord, order: state.order,
                    descending: state.descending, flat: state.flat))
                afterChange.wall.append(now() - started)
                afterChange.cpu.append(cpuNow() - cpuStarted)
            }
        }
        // The unfiltered list's first window after another connection's commit, in the
        // arrangement: in sections a walk of an index as ever; flat, the order read again
        // (`FlatList`: no index holds it).
        var listAfterChange: (wall: [Double], cpu: [Double]) = ([], [])
        for run in 0..<max(3, runs) {
            if let someRecord { try await other.edit(someRecord, RecordEdit(note: .set("bench list \(run)"))) }
            let (started, cpuStarted) = (now(), cpuNow())
            _ = try await store.window(CollectionQuery(
                window: RowWindow(offset: records / 2, limit: 110), focus: state.selectedRecord, order: state.order,
                descending: state.descending, flat: state.flat))
            listAfterChange.wall.append(now() - started)
            listAfterChange.cpu.append(cpuNow() - cpuStarted)
        }
        reportPercentiles("list window after another connection's change", listAfterChange.wall, target: nil, unit: "queries")
        reportPercentiles("      its CPU time", listAfterChange.cpu, target: nil, unit: "queries")
        let filterTarget = 0.020 * max(1, Double(records) / 100_000)
        let groups: [(String, wall: [Double], cpu: [Double])] = [
            ("filter query, every prefix of \(typed.count) filters typed", short.wall + long.wall, short.cpu + long.cpu),
            ("   of them, words of 1–2 characters only", short.wall, short.cpu),
            ("   of them, a word of 3 characters or more", long.wall, long.cpu),
            ("filter query, first keystroke after another connection's change", afterChange.wall, afterChange.cpu),
        ]
        for (name, wall, cpu) in groups {
            reportPercentiles(name, wall, target: filterTarget, unit: "queries")
            reportPercentiles("      its CPU time", cpu, target: filterTarget, unit: "queries")
        }
        if filterOnly { return }

        // 2c. The statistics screen, as the session answers it: `#` handled, the totals and
        // the genres' chart (SQLite aggregates, as `crates stats` counts) applied and drawn:
        // the first screen; then the other charts, drawn; then Enter on the first bar: the
        // list narrowed to it, its first screen drawn.
        var openTimes: [Double] = []
        var openCPU: [Double] = []
        var everyChartTimes: [Double] = []
        var everyChartCPU: [Double] = []
        var narrowTimes: [Double] = []
        for run in 0..<runs {
            t += 1
            let (started, cpuStarted) = (now(), cpuNow())
            let opened = state.handle(.key(.character("#"), at: t))
            _ = state.render()
            guard opened.contains(.session(.loadStatistics)) else { fatalError("# did not ask for the statistics") }
            _ = state.handle(.session(.statistics(try await store.statistics(dimensions: [.genre]))))
            _ = state.render()
            openTimes.append(now() - started)
            openCPU.append(cpuNow() - cpuStarted)
            _ = state.handle(.session(.statistics(try await store.statistics(
                dimensions: StatisticsDimension.allCases.filter { $0 != .genre }))))
            _ = state.render()
            everyChartTimes.append(now() - started)
            everyChartCPU.append(cpuNow() - cpuStarted)
            guard case .statistics(let screen) = state.mode, screen.statistics != nil else {
                fatalError("the statistics screen did not open")
            }
            t += 1
            let entered = now()
            var commands = state.handle(.key(.enter, at: t))
            _ = state.render()
            try await answer(&commands, &state, store, &fetches)
            narrowTimes.append(now() - entered)
            if run == 0 { print("  (statistics screen: Enter on the first bar showed \(state.list.rowCount.formatted()) copies)") }
            // Back to every record, for the next run and the figures below: Esc leaves the
            // bar's list for the chart, and a second Esc the chart for the list.
            for _ in 0..<2 {
                t += 1
                commands = state.handle(.key(.escape, at: t))
                try await answer(&commands, &state, store, &fetches)
                if case .list = state.mode { break }
            }
            guard case .list = state.mode else { fatalError("Esc did not lead back to the list") }
        }
        report("statistics screen: # → totals and first chart drawn", openTimes, target: 0.2)
        // Wall clock counts the waits for a core on a shared machine; the CPU time does not.
        report("   its CPU time", openCPU, target: 0.2)
        report("statistics screen: # → every chart drawn", everyChartTimes, target: nil)
        report("   its CPU time", everyChartCPU, target: nil)
        report("statistics screen: Enter on a bar → the list narrowed to it, drawn", narrowTimes, target: nil)

        // 3. A change arriving (a lookup finished): the observation re-runs the query.
        var changeSamples: [Double] = []
        for _ in 0..<runs {
            let started = now()
            let window = try await store.window(CollectionQuery(
                filter: "", window: RowWindow(offset: state.list.offset, limit: max(1, state.list.rows.count)), focus: state.selectedRecord,
                order: state.order, descending: state.descending, flat: state.flat))
            _ = state.handle(.session(.window(window)))
            _ = state.render()
            changeSamples.append(now() - started)
        }
        report("a store change: re-run the query with the focus located, apply, render", changeSamples, target: nil)

        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peak = Double(usage.ru_maxrss) / 1024
        print(String(format: "  peak memory (max RSS): %.0f MB  (target < 150 MB, ratio %.2f)", peak, peak / 150))

        // 4. Tags (after the memory figure, which is the list's): every record a filter shows
        // tagged and moved, with undo.
        print()
        try await TagBenchmark.run(store: store, records: records, runs: runs)
    }

    /// The CPU time the process has used (every thread), in seconds.
    static func cpuNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func report(_ name: String, _ samples: [Double], target: Double?) {
        let median = samples.sorted()[samples.count / 2]
        if let target {
            print(String(format: "  %@: median %.1f ms  (target < %.0f ms, ratio %.2f)", name, median * 1000, target * 1000, median / target))
        } else {
            print(String(format: "  %@: median %.1f ms", name, median * 1000))
        }
    }

    static func reportPercentiles(_ name: String, _ samples: [Double], target: Double?, unit: String = "keys") {
        let sorted = samples.sorted()
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        if let target {
            print(String(format: "  %@: p50 %.2f ms, p99 %.2f ms over %d %@  (target < %.0f ms: p50 ratio %.2f, p99 ratio %.2f)",
                         name, p50 * 1000, p99 * 1000, sorted.count, unit, target * 1000, p50 / target, p99 / target))
        } else {
            print(String(format: "  %@: p50 %.2f ms, p99 %.2f ms over %d queries", name, p50 * 1000, p99 * 1000, sorted.count))
        }
    }

    /// Answers the store queries among `commands` as the app's observation would.
    static func answer(_ commands: inout [AppCommand], _ state: inout AppState, _ store: CollectionStore, _ fetches: inout [Double]) async throws {
        while !commands.isEmpty {
            let command = commands.removeFirst()
            guard case .session(.query(let query)) = command else { continue }
            let started = now()
            let window = try await store.window(query)
            fetches.append(now() - started)
            commands += state.handle(.session(.window(window)))
            _ = state.render()
        }
    }
}

/// What `crates` does before its first frame: ask for the first window and lay it out.
enum FirstScreen {
    static func load(_ store: CollectionStore, width: Int, height: Int) async throws -> (state: AppState, records: Int) {
        var state = AppState(width: width, height: height)
        var fetches: [Double] = []
        var commands = state.handle(.resize(width: width, height: height))
        try await TUIBenchmark.answer(&commands, &state, store, &fetches)
        return (state, state.list.totalRecords)
    }
}
