import ArgumentParser
import CratesApp
import CratesCore
import CratesStore
import Foundation

/// `crates stats`: totals and counts of the collection, as bar charts or one JSON object.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count the collection: totals, and bar charts by genre, decade, place and more.",
        discussion: """
            Totals first: records (the matched copies of one Discogs release count once, \
            every other copy by itself), copies (each line of `crates list`), matched, \
            waiting for a lookup (pending, being looked up, or failed and to be retried), \
            entered by hand, without a barcode, in places, and graded (a media or sleeve \
            grade). Then, for each dimension asked with --by (all by default), how many copies \
            have each value, as bars in the terminal's width (COLUMNS, else the terminal's, \
            else 80), largest first; decades and months (added) in time order. Every count is \
            of copies, over the values `crates list` shows (yours where set, else Discogs'): \
            a copy counts once in each of its styles and labels, and not at all in a dimension \
            it has no value for (a year not known, no place).

            Dimensions: \(StatisticsDimension.allCases.map(\.rawValue).joined(separator: ", ")). \
            location is the place a copy is in directly; added is copies added per month (UTC).

            With --json, one JSON object: "totals" (records, copies, matched, waiting, \
            handEntered, withoutBarcode, inPlaces, graded), then one array per dimension of \
            {"key", "count"} objects, in the order of the charts.

            Examples:
              crates stats
              crates stats --by decade --by genre
              crates stats --genre rock --by style
              crates stats --json | jq '.totals.copies'
            """)

    @OptionGroup var store: StoreOptions

    @Option(name: .customLong("by"), help: ArgumentHelp(
        "Only these counts (\(StatisticsDimension.allCases.map(\.rawValue).joined(separator: ", ")); repeat or separate with commas).",
        valueName: "dimension"))
    var dimensionNames: [String] = []

    @Flag(help: "One JSON object instead of bar charts.")
    var json = false

    @OptionGroup var records: RecordFilterOptions

    func validate() throws {
        _ = try dimensions()
    }

    /// The dimensions asked, in the order asked, each once; all when none.
    func dimensions() throws -> [StatisticsDimension] {
        let names = dimensionNames.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var chosen: [StatisticsDimension] = []
        for name in names {
            guard let dimension = StatisticsDimension(rawValue: name) else {
                throw ValidationError(
                    "--by \(name.isEmpty ? "\"\"" : name): not a dimension; use one of \(StatisticsDimension.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            if !chosen.contains(dimension) { chosen.append(dimension) }
        }
        return chosen.isEmpty ? StatisticsDimension.allCases : chosen
    }

    func run() throws {
        let store = try self.store.openForReading()
        let filter = try records.filter(in: store)
        let dimensions = try self.dimensions()
        let statistics = try blocking { try await store.statistics(filter, dimensions: dimensions) }
        if json {
            try StandardStreams.out(jsonLines: [statistics.json])
        } else {
            try StandardStreams.out(lines: Self.text(statistics, width: Self.outputWidth()))
        }
    }

    /// The report as lines: the totals, then a heading and a chart per dimension.
    static func text(_ statistics: CollectionStatistics, width: Int) -> [String] {
        StatisticsReport.lines(statistics, width: width).map(\.text)
    }

    /// COLUMNS when set to a number, else the width of the terminal standard output is on,
    /// else 80 (a pipe, a file).
    static func outputWidth() -> Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns > 0 {
            return min(columns, 1000)
        }
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return 80
    }
}
