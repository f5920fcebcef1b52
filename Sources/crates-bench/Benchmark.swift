import CratesCore
import CratesStore
import Foundation
import Glibc

/// The store's figures, each a median over `runs`, printed next to its target.
struct Benchmark {
    var runs: Int
    var records: Int
    /// Where the databases go (default: a new directory under the system's temporary one).
    var directory: String?
    /// "insert", "list" or "stats": one part only (for profiling); "collection": build the
    /// collection and stop.
    var only: String?

    func run() async throws {
        let base = directory ?? NSTemporaryDirectory() + "crates-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: base) } }
        print("crates store benchmark: \(records.formatted()) records, median of \(runs) runs, databases in \(base)")

        // 1. A bulk import: GTINs only, as `crates import` would add them.
        var generator = SyntheticCollection(seed: 1)
        if only != "list", only != "stats", only != "collection" {
            let newRecords = (0..<records).map { _ in generator.newRecord(matched: false) }
            var insertTimes: [Double] = []
            for run in 0..<runs {
                let path = "\(base)/insert-\(run).sqlite"
                let store = try CollectionStore(path: path)
                let cpu = cpuSeconds()
                insertTimes.append(try await time { _ = try await store.addAll(newRecords) })
                if only == "insert" { print(String(format: "  run %d: %.2f s wall, %.2f s CPU", run, insertTimes.last ?? 0, cpuSeconds() - cpu)) }
                try remove(path)
            }
            report("insert \(records.formatted()) records (bulk, \(CollectionStore.defaultBatchSize)/transaction)", insertTimes, target: 2.0)
        }
        if only == "insert" { return }

        // 2. A collection as it will look once looked up: most records matched (some
        // copies share a release), the rest in every other state, in the Unknown section.
        let path = "\(base)/collection.sqlite"
        let setup = try await time { try await buildCollection(at: path) }
        print(String(format: "  (set-up: a %@-record collection built in %.2f s, %.0f MB on disk)",
                     records.formatted(), setup, Double(fileSize(path)) / 1_048_576))
        // The collection alone, for crates-tui-bench (scripts/bench.sh's million records).
        if only == "collection" { return }

        let screenful = RowWindow(offset: 0, limit: 60)
        var openTimes: [Double] = []
        for _ in 0..<runs {
            openTimes.append(try await time {
                let store = try CollectionStore(path: path)
                let window = try await store.window(screenful)
                precondition(window.rows.count == 60 && window.outline.rowCount >= records)
            })
        }
        report("open a \(records.formatted())-record database + first screenful (outline + 60 rows)", openTimes, target: 0.1)

        // 3. `crates stats`: the totals and every dimension's counts, SQL aggregates over
        // the whole collection (the target is the command's: under 1 s).
        var statsTimes: [Double] = []
        var statsCPU: [Double] = []
        for _ in 0..<runs {
            let store = try CollectionStore(path: path)
            let cpu = cpuSeconds()
            statsTimes.append(try await time {
                let statistics = try await store.statistics()
                precondition(statistics.totals.copies == records)
            })
            statsCPU.append(cpuSeconds() - cpu)
        }
        report("stats: totals + every dimension (fresh open)", statsTimes, target: 1.0)
        // On a machine shared with other work the wall clock also counts the waits for a core.
        report("   its CPU time", statsCPU, target: 1.0)
        if only == "stats" { return }

        let store = try CollectionStore(path: path)
        var windowTimes: [Double] = []
        var deepTimes: [Double] = []
        var fullTimes: [Double] = []
        for _ in 0..<runs {
            _ = try await store.add(generator.newRecord(matched: false))
            windowTimes.append(try await time { _ = try await store.window(screenful) })
            deepTimes.append(try await time { _ = try await store.window(RowWindow(offset: records - 60, limit: 60)) })
            fullTimes.append(try await time { _ = try await store.sections() })
        }
        report("sections after one insert: outline + first 60 rows", windowTimes, target: 0.05)
        report("sections after one insert: outline + last 60 rows", deepTimes, target: 0.05)
        report("sections after one insert: all \(records.formatted()) rows (sections())", fullTimes, target: 0.05)

        // 4. Another process's commit reaching an observer (two pools on one file behave as
        // two processes: neither sees the other's commits but through the file).
        let latencies = try await observationLatencies(path: path, samples: max(11, runs * 4))
        report("commit by another connection → observer (window)", latencies, target: 0.1)

        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        // ru_maxrss is in kilobytes.
        let peak = Double(usage.ru_maxrss) / 1024
        print(pad("peak memory (max RSS, whole benchmark)") + String(format: " %9.1f MB   target < 100 MB  (%.2f× target)", peak, peak / 100))
    }

    private func buildCollection(at path: String) async throws {
        try remove(path)
        let store = try CollectionStore(path: path)
        var generator = SyntheticCollection(seed: 2)
        var previous: Release?
        var index = 0
        while index < records {
            // Generated batch by batch: 70,000 releases with their raw JSON held at once
            // would dwarf what the store itself uses.
            var batch: [NewRecord] = []
            for _ in 0..<min(CollectionStore.defaultBatchSize, records - index) {
                let new = generator.newRecord(matched: index % 10 < 7, reuse: previous)
                previous = new.release ?? previous
                batch.append(new)
                index += 1
            }
            _ = try await store.addAll(batch)
        }
        // Put a share of the unmatched ones through the queue's other outcomes.
        let now = Date()
        for index in 0..<300 {
            guard let job = try await store.claimNext(now: now, lease: 60) else { break }
            let outcome: LookupOutcome
            switch index % 4 {
            case 0: outcome = .notFound
            case 1: outcome = .failed(message: "HTTP 503", retryAt: now.addingTimeInterval(600))
            case 2: outcome = .skipped(reason: "an ISBN: a book, not a record")
            default:
                outcome = .ambiguous([
                    ReleaseCandidate(releaseID: 1, artist: "Björk", title: "Homogenic"),
                    ReleaseCandidate(releaseID: 2, artist: "Björk", title: "Homogenic"),
                ])
            }
            try await store.complete(job, with: outcome)
        }
    }

    private func observationLatencies(path: String, samples: Int) async throws -> [Double] {
        let observing = try CollectionStore(path: path)
        let writing = try CollectionStore(path: path)
        let seen = Latest()
        let observation = try observing.observeWindow(
            RowWindow(offset: 0, limit: 60), onError: { print("observation error: \($0)") },
            onChange: { seen.set($0.outline.rowCount) })
        defer { observation.cancel() }
        var generator = SyntheticCollection(seed: 3)
        var latencies: [Double] = []
        for _ in 0..<samples {
            let before = try await writing.outline().rowCount
            try await Task.sleep(nanoseconds: 20_000_000 + UInt64.random(in: 0..<30_000_000))
            _ = try await writing.add(generator.newRecord(matched: false))
            let committed = DispatchTime.now().uptimeNanoseconds
            let deadline = committed + 5_000_000_000
            while seen.get() <= before, DispatchTime.now().uptimeNanoseconds < deadline {
                try await Task.sleep(nanoseconds: 200_000)
            }
            guard seen.get() > before else { throw UsageError("the observer missed a commit for 5 s") }
            // The observer may see the commit before `add` returns here (a busy machine runs the
            // observer's queue first): a latency of zero, not an overflow.
            let seenAt = seen.seenAt()
            latencies.append(seenAt > committed ? Double(seenAt - committed) / 1e9 : 0)
        }
        return latencies
    }

    private func time(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private func report(_ name: String, _ samples: [Double], target: Double) {
        let sorted = samples.sorted()
        let median = sorted[sorted.count / 2]
        let (value, unit, targetText) = target >= 1
            ? (median, "s ", String(format: "%g s", target))
            : (median * 1000, "ms", String(format: "%g ms", target * 1000))
        print(pad(name) + String(format: " %9.1f %@   target < %@  (%.2f× target)  [min %.1f, max %.1f]",
                     value, unit as NSString, targetText as NSString, median / target,
                     sorted[0] * (target >= 1 ? 1 : 1000), sorted[sorted.count - 1] * (target >= 1 ? 1 : 1000)))
    }

    private func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private func pad(_ name: String) -> String {
        name.count >= 70 ? name : name + String(repeating: " ", count: 70 - name.count)
    }

    private func remove(_ path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}

/// The last row count an observer saw, and when (shared with the observer's queue).
final class Latest: @unchecked Sendable {
    // `@unchecked Sendable`: `count` and `at` are only touched while holding `lock`.
    private let lock = NSLock()
    private var count = -1
    private var at: UInt64 = 0

    func set(_ value: Int) {
        lock.lock()
        defer { lock.unlock() }
        if value != count { count = value; at = DispatchTime.now().uptimeNanoseconds }
    }

    func get() -> Int { lock.lock(); defer { lock.unlock() }; return count }
    func seenAt() -> UInt64 { lock.lock(); defer { lock.unlock() }; return at }
}
