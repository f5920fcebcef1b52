import CratesCore
import CratesStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `crates-bench list`: the reads of `crates list` and `crates export`
/// over collections of several sizes, each timed against the sqlite3 command-line shell
/// running the same query on the same file, so the figures say how far the store is from
/// SQLite itself and whether the time grows linearly.
///
/// The collections look like a shelf imported with `--no-lookup` and partly looked up:
/// most records unmatched (they all share one sort key, the case that made OFFSET and
/// two-column row-value paging quadratic), one in twenty matched to a release.
struct ListBenchmark {
    var sizes: [Int]
    var runs: Int
    var directory: String?

    func run() async throws {
        let base = directory ?? NSTemporaryDirectory() + "crates-bench-list-\(getpid())"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(atPath: base) } }
        guard let sqlite3 = Self.sqlite3() else { throw UsageError("the sqlite3 shell is not installed (scripts/install-deps.sh)") }
        print("crates list/export benchmark: median of \(runs) runs, output to /dev/null, against \(sqlite3) on the same file")
        print("(wall clock and CPU time; on a shared machine CPU time is the one that does not depend on other work)")
        var perRecord: [(Int, Double)] = []
        for size in sizes {
            let path = "\(base)/list-\(size).sqlite"
            let built = try await Self.time { try await build(size, at: path) }
            print(String(format: "  (%@ records built in %.1f s)", size.formatted(), built))
            let store = try CollectionStore(path: path)
            let null = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
            defer { try? null.close() }

            let list = try await median { try await Self.list(store, ExportFilter(), to: null) }
            let listSQL = try median { try Self.shell(sqlite3, path, Self.listQuery(state: nil)) }
            report("list, \(size.formatted()) records", list, against: listSQL)
            perRecord.append((size, list.cpu))

            let pending = try await median { try await Self.list(store, ExportFilter(states: [.pending]), to: null) }
            let pendingSQL = try median { try Self.shell(sqlite3, path, Self.listQuery(state: "pending")) }
            report("list --state pending, \(size.formatted()) records", pending, against: pendingSQL)

            let export = try await median { try await Self.exportJSON(store, to: null) }
            let exportSQL = try median { try Self.shell(sqlite3, path, Self.exportQuery) }
            report("export --json, \(size.formatted()) records", export, against: exportSQL)
        }
        if perRecord.count > 1, let first = perRecord.first, let last = perRecord.last {
            let growth = (last.1 / first.1) / (Double(last.0) / Double(first.0))
            print(String(format: "  list CPU time per record at %@ / at %@: %.2f (1.0 = linear)",
                         last.0.formatted(), first.0.formatted(), growth))
        }
    }

    /// As `crates list` does: one line per record, written a page at a time.
    static func list(_ store: CollectionStore, _ filter: ExportFilter, to file: FileHandle) async throws {
        try await store.forEachPage(filter, detail: .listing) { page in
            var text = ""
            for entry in page { text += entry.listingLine + "\n" }
            file.write(Data(text.utf8))
        }
    }

    /// As `crates export --json` does: every record with its release, Discogs' JSON and history.
    static func exportJSON(_ store: CollectionStore, to file: FileHandle) async throws {
        try await store.forEachPage(ExportFilter(), detail: .full) { page in
            // As CollectionExport.writeJSON: each page as bytes.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(page.count * 768)
            for entry in page {
                entry.appendJSONLine(includeDiscogs: true, to: &bytes)
                bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\n")])
            }
            file.write(Data(bytes))
        }
    }

    /// The rows `list` reads, as one statement.
    static func listQuery(state: String?) -> String {
        """
        SELECT r.id, r.gtin, r.addedAt, r.addMethod, r.note, r.location, r.releaseID, r.lookupState,
               r.lookupError, r.lookupAttempts, r.retryAt, r.skipReason, r.claimedUntil, r.candidatesJSON,
               r.updatedAt, r.sectionKey, r.rowKey, rel.artist, rel.title, rel.genresJSON, rel.stylesJSON,
               rel.formatsJSON, rel.year, rel.country, rel.labelsJSON, rel.url, rel.thumbURL
        FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
        \(state.map { "WHERE +r.lookupState = '\($0)'" } ?? "")
        ORDER BY r.sectionKey, r.rowKey, r.id;
        """
    }

    /// The rows `export --json` reads, as one statement (histories included).
    static let exportQuery = """
        SELECT r.*, rel.*, j.rawJSON,
               (SELECT json_group_array(json_array(e.at, e.kind, e.message)) FROM lookupEvent e WHERE e.recordID = r.id)
        FROM record r LEFT JOIN release rel ON rel.id = r.releaseID LEFT JOIN releaseJSON j ON j.id = r.releaseID
        ORDER BY r.sectionKey, r.rowKey, r.id;
        """

    /// A collection of `size` records: unmatched ones as an import adds them, and one in
    /// twenty matched (releases shared among copies, with a few kilobytes of JSON each).
    private func build(_ size: Int, at path: String) async throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try CollectionStore(path: path)
        var generator = SyntheticCollection(seed: 11)
        var releases: [Release] = []
        var done = 0
        while done < size {
            var batch: [NewRecord] = []
            for _ in 0..<min(CollectionStore.defaultBatchSize, size - done) {
                var new = generator.newRecord(matched: false)
                if done % 20 == 0 {
                    if releases.count < 2_000 { releases.append(generator.release()) }
                    new.release = releases[done % releases.count]
                }
                batch.append(new)
                done += 1
            }
            _ = try await store.addAll(batch)
        }
    }

    /// Medians of wall-clock and CPU seconds (on a machine shared with other work the wall
    /// clock says more about the others; CPU time is this work's own).
    struct Timing {
        var wall: Double
        var cpu: Double
    }

    /// In process: CPU time of this process (every thread).
    private func median(_ body: () async throws -> Void) async throws -> Timing {
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<runs {
            let cpu = Drivers.cpuSeconds(RUSAGE_SELF)
            walls.append(try await Self.time(body))
            cpus.append(Drivers.cpuSeconds(RUSAGE_SELF) - cpu)
        }
        return Timing(wall: walls.sorted()[runs / 2], cpu: cpus.sorted()[runs / 2])
    }

    /// The sqlite3 shell: CPU time of the waited-for child.
    private func median(_ body: () throws -> Void) throws -> Timing {
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<runs {
            let cpu = Drivers.cpuSeconds(RUSAGE_CHILDREN)
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            cpus.append(Drivers.cpuSeconds(RUSAGE_CHILDREN) - cpu)
        }
        return Timing(wall: walls.sorted()[runs / 2], cpu: cpus.sorted()[runs / 2])
    }

    private func report(_ name: String, _ ours: Timing, against sqlite: Timing) {
        let padded = name.count >= 40 ? name : name + String(repeating: " ", count: 40 - name.count)
        print(padded + String(
            format: " wall %6.2f s (sqlite3 %5.2f s, %5.2f×)   CPU %6.2f s (sqlite3 %5.2f s, %5.2f×)   target < 10 s at 1M",
            ours.wall, sqlite.wall, ours.wall / max(sqlite.wall, 1e-9), ours.cpu, sqlite.cpu, ours.cpu / max(sqlite.cpu, 1e-9)))
    }

    static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Runs `sqlite3 -readonly PATH SQL` with its output to /dev/null, and waits.
    static func shell(_ sqlite3: String, _ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3)
        process.arguments = ["-readonly", path, sql]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw UsageError("sqlite3 exited with status \(process.terminationStatus)") }
    }

    static func sqlite3() -> String? {
        ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
