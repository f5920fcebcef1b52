import ArgumentParser
import CratesApp
import CratesCore

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
            location is the place a copy is in directly; added is copies added per month (UTC); \
            format is by medium (\(FormatMedium.allCases.map(\.rawValue).joined(separator: ", "))), \
            each with its descriptions (Album, Reissue…) indented under it.

            Without --by, what you spent on the copies whose price paid is known (`crates \
            edit --paid`) follows: per year bought and by where bought, summed per currency \
            (never converted).

            With --json, one JSON object: "totals" (records, copies, matched, waiting, \
            handEntered, withoutBarcode, inPlaces, graded), then one array per dimension of \
            {"key", "count"} objects, in the order of the charts (a format's with its \
            "descriptions", an array of the same); without --by, "spent": \
            {"perYear", "byPlaceBought"}, arrays of {"key", "currency", "amount", "copies"}.

            Examples:
              crates stats
              crates stats --by decade --by genre
              crates stats --genre rock --by style
              crates stats --by decade format:lp place:"Living Room"
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

    @OptionGroup var query: QueryArguments

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
        try QueryArguments.answering { try report() }
    }

    private func report() throws {
        let store = try self.store.openForReading()
        let filter = try records.filter(in: store, query: try query.query())
        let dimensions = try self.dimensions()
        // What was spent is a report of its own: with every chart, not with those --by picks.
        let spending = dimensionNames.isEmpty
        let statistics = try blocking { try await store.statistics(filter, dimensions: dimensions, spending: spending) }
        if json {
            try StandardStreams.out(jsonLines: [statistics.json])
        } else {
            try StandardStreams.out(lines: StatisticsReport.lines(statistics, width: StandardStreams.outputWidth).map(\.text))
        }
    }
}
