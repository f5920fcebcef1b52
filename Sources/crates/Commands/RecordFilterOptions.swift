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

    func validate() throws {
        _ = try LookupStateOption.parse(stateNames)
    }

    /// The filter these flags describe; a place is resolved in `store` (an unknown one is an
    /// error that names it).
    func filter(in store: CatalogueStore) throws -> ExportFilter {
        ExportFilter(
            sections: genres, states: try LookupStateOption.parse(stateNames),
            location: try location.map { name in try blocking { try await LocationDirectory(store: store).resolve(name).id } })
    }
}
