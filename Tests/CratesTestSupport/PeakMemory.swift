import Foundation
import Glibc

/// A process measured for its peak memory: run under `/usr/bin/time -v`, whose "Maximum
/// resident set size" is the measure, and `prlimit --as` (1 GiB), so that a regression fails
/// fast instead of eating the machine.
public enum PeakMemory {
    /// Whether the machine has both tools.
    public static let measurable = ["/usr/bin/time", "/usr/bin/prlimit"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    /// The words that run a command at a raised priority, where the tests may raise it (as
    /// root); none elsewhere. The measured processes are the suite's longest chain (a
    /// million-line import, then its list; 400,000 releases generated and built), and they
    /// share two cores with some thirty other tests: the import and list end the test phase
    /// (82 s alone, some 280 s in the suite), so they get the larger share. The priority
    /// changes when they run, not what they hold.
    public static let raised = geteuid() == 0 ? ["/usr/bin/nice", "-n", "-5"] : []

    /// The words that run a command measured, `time` writing its report to `report`.
    public static func prefix(report: String) -> [String] {
        ["/usr/bin/time", "-v", "-o", report] + raised + ["/usr/bin/prlimit", "--as=\(1 << 30)"]
    }

    /// The peak resident memory in MB that `time` wrote to `report`.
    public static func megabytes(report: String) throws -> Double {
        let text = try String(contentsOfFile: report, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Maximum resident set size (kbytes):") }),
            let kilobytes = Double(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
        else { throw PeakMemoryError(report: text) }
        return kilobytes / 1024
    }

    /// Runs `command` measured; its result and peak in MB.
    public static func run(
        _ command: [String], environment: [String: String], report: String, deadline: Duration
    ) async throws -> (ProcessResult, Double) {
        let words = prefix(report: report) + command
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: words[0]), arguments: Array(words.dropFirst()), environment: environment, deadline: deadline)
        return (result, try megabytes(report: report))
    }
}

/// `time` wrote no peak: its report, whole.
public struct PeakMemoryError: Error, CustomStringConvertible {
    public let report: String
    public var description: String { "no peak in /usr/bin/time's report: \(report)" }
}
