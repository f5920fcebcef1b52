import CratesCore
import CratesStore
import Foundation

/// The query language's figures over a collection `crates-bench --only collection` built
/// (scripts/bench-query.sh): the UI's filter per keystroke with a three-term query against
/// the plain filter's words, and a move of 10,000 records a query keeps, in one transaction,
/// with its undo. Medians, and each as a ratio of its target.
struct QueryBenchmark {
    let path: String
    let runs: Int

    /// Three terms, as a person types them: a word of the artist, a format, a decade.
    static let query = "artist:bjork format:lp year:1970..1979"
    /// What the plain filter is measured with today (crates-tui-bench's first words).
    static let plain = "moon river"

    func run() async throws {
        let store = try CollectionStore(path: path)
        let total = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 1))).totalRecords
        print("query benchmark over \(total.formatted()) records (\(path))")

        // 1. The filter per keystroke: every prefix of the text, as the UI sends it (a
        // screenful and its margins); a prefix that is not a whole term yet is answered too.
        func keystrokes(_ text: String) async throws -> [Double] {
            var samples: [Double] = []
            let prefixes = (1...text.count).map { String(text.prefix($0)) }.filter { !$0.hasSuffix(" ") }
            for _ in 0..<runs {
                for filter in prefixes {
                    samples.append(try await Self.time {
                        _ = try await store.window(CollectionQuery(filter: filter, window: RowWindow(offset: 0, limit: 110)))
                    })
                }
            }
            return samples
        }
        let typed = try await keystrokes(Self.query)
        let words = try await keystrokes(Self.plain)
        let kept = try await store.recordIDs(matching: try RecordQuery(parsing: Self.query)).count
        report("UI filter per keystroke, \"\(Self.query)\" (\(kept) kept)", typed, target: 0.020)
        report("UI filter per keystroke, plain words \"\(Self.plain)\"", words, target: 0.020)
        print(String(format: "  three terms against the plain filter: %.2f×", Self.median(typed) / Self.median(words)))

        // 2. A query's records moved in one transaction, and the move undone (as the UI's
        // tagged move and its undo do): the first 10,000 the query keeps.
        let ids = Array(try await store.recordIDs(matching: try RecordQuery(parsing: "format:lp")).prefix(10_000))
        let place = try await store.addLocation(name: "Bench crate \(UUID().uuidString.prefix(8))", in: nil)
        var moves: [Double] = []
        var undos: [Double] = []
        var moveCPU: [Double] = []
        var undoCPU: [Double] = []
        for _ in 0..<runs {
            var moved: [CollectionStore.MovedRecord] = []
            var cpu = Self.cpuSeconds()
            moves.append(try await Self.time { moved = try await store.moveRecords(ids, to: place.id) })
            moveCPU.append(Self.cpuSeconds() - cpu)
            cpu = Self.cpuSeconds()
            undos.append(try await Self.time { try await store.restoreLocations(moved) })
            undoCPU.append(Self.cpuSeconds() - cpu)
        }
        report("move \(ids.count.formatted()) records a query keeps, one transaction", moves, target: 2.0)
        report("   its CPU time", moveCPU, target: 2.0)
        report("   its undo, one transaction", undos, target: 2.0)
        report("   its CPU time", undoCPU, target: 2.0)
    }

    /// The process's CPU time: on a machine shared with other work the wall clock also
    /// counts the waits for a core.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func median(_ samples: [Double]) -> Double {
        let sorted = samples.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    private func report(_ name: String, _ samples: [Double], target: Double) {
        let sorted = samples.sorted()
        guard let first = sorted.first, let last = sorted.last else { return }
        let median = Self.median(samples)
        let padded = name.count >= 72 ? name : name + String(repeating: " ", count: 72 - name.count)
        print(padded + String(
            format: " median %8.1f ms  target < %g ms  (%.2f× target)  [min %.1f, max %.1f, %d samples]",
            median * 1000, target * 1000, median / target, first * 1000, last * 1000, samples.count))
    }
}
