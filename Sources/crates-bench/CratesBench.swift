import CratesCore
import CratesDumpGenerator
import CratesNet
import CratesStore
import Foundation

/// The store's benchmark, and the writer process the store's kill -9 test drives.
///
///     crates-bench [--runs N] [--records N] [--only insert|list|stats|collection]
///                                               the benchmark (build it in release mode:
///                                               scripts/bench.sh)
///     crates-bench writer --db PATH [--batch N] adds batches of records forever, printing
///                                               the number committed after each commit
///     crates-bench list [--records 100000,1000000] [--runs 3]
///                                               list and export reads against sqlite3
///     crates-bench query --db PATH [--runs N]   the query language's filter per keystroke
///                                               and a 10,000-record move (scripts/bench-query.sh)
///     crates-bench import|add|claim|read --db PATH …
///     crates-bench descriptors|scand …           the tests' driver processes (Drivers, NetDrivers)
///     crates-bench json [--dir Fixtures/discogs/releases] [--runs N]
///                                               the JSON readers' speed (compact, parse, outline)
///     crates-bench generate-dump --out FILE [--releases N] [--seed N] [--faults no]
///                                               a realistic releases dump (scripts/bench-catalogue.sh)
///     crates-bench seed-check --db PATH --catalogue PATH --file GTINS [--copies N]
///                                               the collection scripts/bench-check.sh checks against
///     crates-bench import-memory --file F [--db PATH]
///                                               an import's peak memory (scripts/bench-reliability.sh)
@main
struct CratesBench {
    /// Synchronous, so that descriptors 0–2 are filled before anything opens one, as `crates`
    /// must do (an `async` main has the concurrency runtime open its own descriptors first,
    /// which would take the free numbers 0–2).
    static func main() {
        StandardDescriptors.occupy()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await run()
            done.signal()
        }
        done.wait()
    }

    static func run() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        do {
            let drivers: [String: (Options) async throws -> Void] = [
                "import": Drivers.importFile, "add": Drivers.add, "claim": Drivers.claim, "read": Drivers.read,
                "descriptors": NetDrivers.descriptors, "scand": NetDrivers.scand, "import-memory": Drivers.importMemory,
                "write-gtins": Drivers.writeGTINs, "seed-check": CheckCollection.seed,
            ]
            if let name = arguments.first, let driver = drivers[name] {
                arguments.removeFirst()
                try await driver(try Options(
                    arguments,
                    known: ["--db", "--file", "--gtin", "--copies", "--wait", "--racy", "--socket", "--decoder", "--count", "--catalogue"]))
            } else if arguments.first == "list" {
                arguments.removeFirst()
                let options = try Options(arguments, known: ["--runs", "--records", "--dir"])
                let sizes = try (options.values["--records"] ?? "100000,1000000").split(separator: ",").map { text in
                    guard let size = Int(text), size > 0 else { throw UsageError("--records needs sizes like 100000,1000000") }
                    return size
                }
                try await ListBenchmark(sizes: sizes, runs: try options.int("--runs", default: 3), directory: options.values["--dir"]).run()
            } else if arguments.first == "query" {
                arguments.removeFirst()
                let options = try Options(arguments, known: ["--db", "--runs"])
                guard let path = options.values["--db"] else { throw UsageError("query needs --db PATH (scripts/bench-query.sh makes one)") }
                try await QueryBenchmark(path: path, runs: try options.int("--runs", default: 3)).run()
            } else if arguments.first == "json" {
                arguments.removeFirst()
                let options = try Options(arguments, known: ["--dir", "--runs"])
                try JSONBenchmark(directory: options.values["--dir"] ?? "Fixtures/discogs/releases", runs: try options.int("--runs", default: 5)).run()
            } else if arguments.first == "generate-dump" {
                arguments.removeFirst()
                let options = try Options(arguments, known: ["--releases", "--seed", "--out", "--faults"])
                guard let path = options.values["--out"] else { throw UsageError("generate-dump needs --out PATH (.xml.gz, .xml or -)") }
                let summary = try DumpGenerator.write(
                    count: try options.int("--releases", default: 200_000), seed: UInt64(try options.int("--seed", default: 1)),
                    faults: options.values["--faults"] != "no", to: path)
                FileHandle.standardError.write(Data((
                    "generated \(summary.releases) releases (\(summary.listed) listed, \(summary.unlisted) not accepted, "
                    + "\(summary.faulty.count) that do not parse: \(summary.faulty.map { "\($0.id) \($0.fault.rawValue)" }.joined(separator: ", "))), "
                    + "\(summary.barcodeValues) barcode values, \(summary.barcodeKeys) distinct barcodes, \(summary.bytes) bytes of XML\n").utf8))
            } else if arguments.first == "writer" {
                arguments.removeFirst()
                let options = try Options(arguments, known: ["--db", "--batch"])
                guard let path = options.values["--db"] else { throw UsageError("writer needs --db PATH") }
                try await Writer(path: path, batchSize: try options.int("--batch", default: 500)).run()
            } else {
                let options = try Options(arguments, known: ["--runs", "--records", "--dir", "--only"])
                try await Benchmark(
                    runs: try options.int("--runs", default: 5),
                    records: try options.int("--records", default: 100_000),
                    directory: options.values["--dir"],
                    only: options.values["--only"]
                ).run()
            }
        } catch {
            FileHandle.standardError.write(Data("crates-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `--name value` pairs.
struct Options {
    var values: [String: String] = [:]

    init(_ arguments: [String], known: Set<String>) throws {
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard known.contains(name) else { throw UsageError("unknown option \(name); known: \(known.sorted().joined(separator: ", "))") }
            guard let value = iterator.next() else { throw UsageError("\(name) needs a value") }
            values[name] = value
        }
    }

    func int(_ name: String, default value: Int) throws -> Int {
        guard let text = values[name] else { return value }
        guard let number = Int(text), number > 0 else { throw UsageError("\(name) needs a positive number, not \(text)") }
        return number
    }
}

/// The helper process of the kill -9 test: commits batches until killed, and after each
/// commit prints the total committed so far, so the test knows what must survive.
struct Writer {
    var path: String
    var batchSize: Int

    func run() async throws {
        let store = try CollectionStore(path: path)
        var synthetic = SyntheticCollection(seed: 7)
        var committed = 0
        while true {
            let batch = (0..<batchSize).map { _ in synthetic.newRecord(matched: false) }
            _ = try await store.addAll(batch, batchSize: batchSize)
            committed += batch.count
            // Unbuffered (write(2)): the test reads each line as soon as the batch commits.
            FileHandle.standardOutput.write(Data("\(committed)\n".utf8))
        }
    }
}
