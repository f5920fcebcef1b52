import ArgumentParser
import CratesApp
import CratesCore

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
            lookupError, retryAt, skipReason, updatedAt, candidates, catalogueEdition (null, \
            or the date of the local catalogue the record was matched from, or that did not \
            know it while it waits for Discogs), release (null until matched; Discogs' \
            values), collector (your own values, which win: artist, \
            title, genre, year, format, label, catno, country, each null where Discogs' value \
            stands), mediaCondition and sleeveCondition (Discogs' grade texts, or null), \
            rating (0: not rated, to 5) and discogsCollection (null, or the Discogs instance \
            `crates sync` linked the copy to: instanceID, folderID, folder, removedOnDiscogs). \
            gtin is null for a record without a barcode (such as a copy pulled from Discogs). \
            `crates export --json` writes the same objects \
            with Discogs' own release JSON and the lookup history added.

            On a terminal, the list is aligned columns under a heading (id, genre, artist, \
            title, format, year, label, catalogue number, and the state when not matched), \
            fitted to its width; an empty collection says how to add the first record. To a \
            pipe or a file, the tab-separated lines above, and --header puts a line of the \
            column names first.

            To a pipe, an empty collection (or a filter nothing passes) prints nothing and exits 0. The \
            list is read a page at a time from one snapshot of the database, so it starts at \
            once and stays small in memory at 100,000 records, and a TUI or an import writing \
            meanwhile does not make a record appear twice.

            A query after the options keeps the records that pass every term: words, \
            found as the UI's filter finds them (artist, title, labels, catalogue numbers, \
            barcode, your values; accents and case folded; a year or a format word such as \
            1977 or lp keeps that year or format), and field:value terms: artist:, title:, \
            label:, catno:, genre:, style:, format:, country:, year:1970..1979, \
            added:2026-11 or added:..30d, place:"Crate A1" (and the places inside it), \
            state:, media:VG+.., sleeve:, rating:4.., paid:10.., lent: or lent:anna \
            wanted: (its release on the wantlist). -term negates; an empty value asks for the field \
            at all (lent:, paid:). A term crates cannot read exits 64, saying which and why.

            Examples:
              crates list
              crates list artist:queen year:1970..1979 -live
              crates list place:"Crate A1" media:VG+..
              crates list --genre rock --state matched | cut -f5,6
              crates list --state ambiguous,notFound
              crates list --location "Living Room"
              crates list --sort year --format vinyl --year 1975-1979
              crates list --sort added --reverse --flat     # the latest added first
              crates list --json | jq -r 'select(.release != null) | .release.title'
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "One JSON object per record and line (JSON Lines) instead of tab-separated columns.")
    var json = false

    @OptionGroup var records: RecordFilterOptions

    @Option(help: ArgumentHelp(
        "The order within each genre section (artist: as a record shop files it, then year and title); default: the configuration's `sort`, else artist.", valueName: "order"))
    var sort: ListOrder?

    @Flag(help: "The order the other way round (--sort added --reverse: the latest added first).")
    var reverse = false

    @Flag(help: "One run in the order, without genre sections (an A–Z of the whole collection).")
    var flat = false

    @OptionGroup var header: HeaderOption

    @OptionGroup var query: QueryArguments

    func validate() throws {
        try header.check(json: json)
    }

    /// The tab-separated lines' columns, in order (the `--header` line).
    static let names = ["id", "gtin", "state", "section", "artist", "title", "format", "year", "label", "catno", "release_id", "added", "collector", "place"]

    /// The columns a terminal shows: fields of the tab-separated line, by index in `names`.
    static let terminalColumns = [
        TableColumn(heading: "ID", field: 0, cap: 8, rightAligned: true),
        TableColumn(heading: "GENRE", field: 3, cap: 18),
        TableColumn(heading: "ARTIST", field: 4, cap: 28),
        TableColumn(heading: "TITLE", field: 5, cap: 36),
        TableColumn(heading: "FORMAT", field: 6, cap: 14),
        TableColumn(heading: "YEAR", field: 7, cap: 4),
        TableColumn(heading: "LABEL", field: 8, cap: 20),
        TableColumn(heading: "CAT#", field: 9, cap: 16),
        TableColumn(heading: "PLACE", field: 13, cap: 24),
        TableColumn(heading: "STATE", field: 2, cap: 12, readable: ReadableWords.state),
    ]

    func run() throws {
        try QueryArguments.answering { try list() }
    }

    private func list() throws {
        // Read-only: never creates the collection, reads one the user may not write.
        let store = try self.store.openForReading()
        var filter = try records.filter(in: store, order: sort ?? ConfigurationFile.current().sort, query: try query.query())
        filter.descending = reverse
        filter.flat = flat
        let export = CollectionExport(store: store, filter: filter)
        for warning in try blocking({ try await export.unknownGenreWarnings() }) { StandardStreams.errLine(warning) }
        if json {
            try blocking { try await export.list(json: true) { try StandardStreams.out(json: $0) } }
            return
        }
        let output = ColumnOutput(names: Self.names, columns: Self.terminalColumns, header: header.header)
        try blocking { try await export.list(json: false) { try output.write($0) } }
        try output.finish()
        // Nothing listed, to a person: how to begin, or that the filter kept nothing. Only on
        // a terminal: to a pipe an empty list is a plain answer (a script's `crates list
        // --state failed` finding none), and a word on standard error would be noise in its log.
        guard case .aligned = output.form, !output.wroteRows else { return }
        try StandardStreams.out(try blocking { try await export.nothingListed() } + "\n")
    }
}

extension ListOrder: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
