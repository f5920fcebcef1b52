import ArgumentParser
import CratesApp
import CratesCore
import CratesStore
import Foundation

/// `crates list`: the collection on standard output, one record per line, in the order the
/// collection UI shows it, for scripts (`cut`, `awk`, `jq`).
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print the collection, one record per line, in the order the collection UI shows it.",
        discussion: """
            Records come section by section (genres by name, Unknown last: records not \
            matched yet, in the order they were added), then in the order --sort names \
            within a section: artist (the default: by artist as a record shop files it, \
            "The Beatles" under B, then year, then title), title, year, added, label (and \
            catalogue number) or place. Each copy is its own line.

            Output: tab-separated columns, always these, in this order:
              id  gtin  state  section  artist  title  format  year  label  catno  release_id  added  collector  place
            A value crates does not know (an unmatched record's artist, say) is an empty \
            field. state is one of \(LookupStateOption.validValues); format joins several \
            formats with " + ", label and catno join several labels with ", "; added is \
            ISO 8601 in UTC. artist to catno are the values shown: yours (`crates edit`) where \
            you set one, else Discogs'; collector names the fields that are yours \
            ("title,year"). place is the place the copy is in, as a path ("Living Room › \
            Shelf 2 › Crate A3"), empty when it is in none: with --location, it says which \
            of the places inside that one holds each record. gtin is empty for a record \
            without a barcode (and is always the canonical digits, as stored). Tabs and line \
            breaks inside values become spaces.

            With --json, one JSON object per record and line (JSON Lines), with every field \
            crates keeps about the copy: id, gtin, state, section, addedAt, addMethod, note, \
            location (null, or the place: id, name, path and code), lookupAttempts, \
            lookupError, retryAt, skipReason, updatedAt, candidates, release (null until \
            matched; Discogs' values), collector (your own values, which win: artist, \
            title, genre, year, format, label, catno, country, each null where Discogs' value \
            stands), mediaCondition and sleeveCondition (Discogs' grade texts, or null), \
            rating (0: not rated, to 5) and discogsCollection (null, or the Discogs instance \
            `crates sync` linked the copy to: instanceID, folderID, folder, removedOnDiscogs). \
            gtin is null for a record without a barcode (such as a copy pulled from Discogs). \
            `crates export --json` writes the same objects \
            with Discogs' own release JSON and the lookup history added.

            An empty collection (or a filter nothing passes) prints nothing and exits 0. The \
            list is read a page at a time from one snapshot of the database, so it starts at \
            once and stays small in memory at 100,000 records, and a TUI or an import writing \
            meanwhile does not make a record appear twice.

            Examples:
              crates list
              crates list --genre rock --state matched | cut -f5,6
              crates list --state ambiguous,notFound
              crates list --location "Living Room"
              crates list --sort year --format vinyl --year 1975-1979
              crates list --json | jq -r 'select(.release != null) | .release.title'
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "One JSON object per record and line (JSON Lines) instead of tab-separated columns.")
    var json = false

    @OptionGroup var records: RecordFilterOptions

    @Option(help: ArgumentHelp(
        "The order within each genre section (artist: as a record shop files it, then year and title).", valueName: "order"))
    var sort: ListOrder = .default

    func run() throws {
        // Read-only: never creates the collection, reads one the user may not write (issue 12).
        let store = try self.store.openForReading()
        let export = CollectionExport(store: store, filter: try records.filter(in: store, order: sort))
        let json = self.json
        for warning in try blocking({ try await export.unknownGenreWarnings() }) { StandardStreams.errLine(warning) }
        try blocking { try await export.list(json: json) { try StandardStreams.out($0) } }
    }
}

extension ListOrder: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
