import ArgumentParser
import CratesApp
import CratesCore
import CratesStore

/// The flags that choose which records `crates list` and `crates export` write: by genre
/// section, by place (and the places inside it) and by lookup state. One definition, so that
/// both commands take the same names and the same values.
struct RecordFilterOptions: ParsableArguments {
    @Option(name: .customLong("genre"), help: ArgumentHelp(
        "Only the records of this genre section (its name as the list shows it, any case; repeat for several).",
        valueName: "genre"))
    var genres: [String] = []

    @Option(name: .customLong("location"), help: ArgumentHelp(
        "Only the records in this place and the places inside it (a name, a path, #id or its label code).",
        valueName: "name"))
    var location: String?

    @Option(name: .customLong("state"), help: ArgumentHelp(
        "Only records in this lookup state (\(LookupStateOption.validValues); repeat or separate with commas).",
        valueName: "state"))
    var stateNames: [String] = []

    @Option(name: .customLong("format"), help: ArgumentHelp(
        "Only the records whose format holds this word (\"vinyl\", \"lp\", \"cd\", \"7\\\"\"; any case).",
        valueName: "format"))
    var format: String?

    @Option(name: .customLong("year"), help: ArgumentHelp(
        "Only the records of this year, or of these years (1975-1979).", valueName: "year"))
    var year: String?

    func validate() throws {
        _ = try LookupStateOption.parse(stateNames)
        _ = try years()
        if let format, format.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--format needs a word, such as vinyl or cd")
        }
    }

    /// `--year` as a range: "1977" or "1975-1979".
    func years() throws -> ClosedRange<Int>? {
        guard let year else { return nil }
        guard let range = ListFilterTerms.years(Substring(year.trimmingCharacters(in: .whitespaces)), within: 1...9999) else {
            throw ValidationError("--year \(year): give a year (1977) or two joined by a hyphen (1975-1979)")
        }
        return range
    }

    /// The filter these flags describe; a place is resolved in `store` (an unknown one is an
    /// error that names it).
    func filter(in store: CollectionStore, order: ListOrder = .default, query: RecordQuery = RecordQuery()) throws -> ExportFilter {
        ExportFilter(
            sections: genres, states: try LookupStateOption.parse(stateNames),
            location: try location.map { name in try blocking { try await LocationDirectory(store: store).resolve(name).id } },
            years: try years(), format: format?.trimmingCharacters(in: .whitespaces), order: order, query: query)
    }
}
