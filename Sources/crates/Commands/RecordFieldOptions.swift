import ArgumentParser
import CratesCore

/// `--artist`, `--title`, `--genre`, `--year`, `--format`, `--label`, `--catno`, `--country`:
/// a record's fields, shared by `crates add --manual` and `crates edit`.
struct RecordFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The artist.", valueName: "artist"))
    var artist: String?

    @Option(help: ArgumentHelp("The title.", valueName: "title"))
    var title: String?

    @Option(help: ArgumentHelp("The genre: the section the record is listed under.", valueName: "genre"))
    var genre: String?

    @Option(help: ArgumentHelp("The year of the release.", valueName: "year"))
    var year: String?

    @Option(help: ArgumentHelp("The format (Vinyl, LP, Album…).", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("The label.", valueName: "label"))
    var label: String?

    @Option(help: ArgumentHelp("The catalogue number, as printed.", valueName: "catno"))
    var catno: String?

    @Option(help: ArgumentHelp("The country of release.", valueName: "country"))
    var country: String?

    /// The fields given, as typed.
    var values: [RecordField: String] {
        var values: [RecordField: String] = [:]
        values[.artist] = artist
        values[.title] = title
        values[.genre] = genre
        values[.year] = year
        values[.format] = format
        values[.label] = label
        values[.catno] = catno
        values[.country] = country
        return values
    }
}
