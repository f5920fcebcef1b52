import CratesCore
import Foundation

/// The JSON readers' speed over Discogs' release JSON (the fixtures, repeated to a few
/// megabytes): compaction (the export's splice), the value parse (the restore) and the
/// outline (the configuration file), each in MB/s, median of `runs`. The readers run on the
/// export's and the restore's hot paths, so a change to the grammar is measured here first.
struct JSONBenchmark {
    var directory: String
    var runs: Int

    func run() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }.sorted()
        guard !names.isEmpty else { throw UsageError("no .json files in \(directory)") }
        let documents = try names.map { try String(contentsOfFile: "\(directory)/\($0)", encoding: .utf8) }
        let bytesEach = documents.map(\.utf8.count).reduce(0, +)
        let rounds = max(1, 8_000_000 / bytesEach)
        let megabytes = Double(bytesEach * rounds) / 1_000_000
        let arrays = documents.map { Array($0.utf8) }
        print(String(format: "JSON readers: %d documents × %d rounds, %.1f MB, median of %d runs", documents.count, rounds, megabytes, runs))
        report("compact (export splice)", megabytes) {
            for _ in 0..<rounds { for text in documents { precondition(JSONText.compacted(text) != nil) } }
        }
        report("parse to values (restore)", megabytes) {
            for _ in 0..<rounds { for bytes in arrays { precondition((try? JSONNode.parse(bytes[...])) != nil) } }
        }
        report("outline (configuration)", megabytes) {
            for _ in 0..<rounds { for bytes in arrays { precondition((try? JSONOutline(bytes)) != nil) } }
        }
    }

    private func report(_ name: String, _ megabytes: Double, _ body: () -> Void) {
        var seconds: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let median = seconds.sorted()[runs / 2]
        let padded = name.padding(toLength: 28, withPad: " ", startingAt: 0)
        print(String(format: "  %@ %7.1f MB/s  (%.3f s)", padded as NSString, megabytes / median, median))
    }
}
