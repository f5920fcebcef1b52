import ArgumentParser
import CratesApp
import CratesCore

/// `crates lookup CODE`: what Discogs says about a barcode (or a release), without adding
/// anything to the collection.
struct LookupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract: "Show what Discogs returns for a barcode, without adding it to the collection.",
        discussion: """
            CODE is a barcode in any form `crates barcode` reads, or a Discogs release \
            (r249504, or a release page URL). A barcode is searched on Discogs in each of its \
            printed forms, as the collection's lookups do, until one has results.

            Output: one line per release, tab-separated:
              outcome  release_id  artist  title  label  catno  format  year  country  url
            outcome is "matched" when the barcode names one release, "ambiguous" on each \
            line when several pressings share it (add the one in your hands with \
            `crates add rRELEASE_ID`). Empty fields are values Discogs does not give.

            With --json, one JSON object: input, gtin, outcome (matched, ambiguous or \
            notFound), matchedForm (the barcode form that had results), releases (id, \
            artist, title, label, catno, formats, year, country, url, owned: what the \
            collection holds of it, copies and the first one's place, or null; wanted: on \
            the wantlist) and source ("catalogue" or "discogs"). On a terminal, aligned \
            columns instead, with a HAVE column (owned, where; wanted).

            The local catalogue of Discogs' data (--catalogue, $CRATES_CATALOGUE) answers \
            first when it knows the code: no request, no account. --online asks Discogs \
            instead. Searching Discogs' database needs an account: sign in first with \
            `crates auth`. Requests go at the rate Discogs allows.

            Exit status:
              0  found: one release, or several to choose from
              1  CODE is not a valid barcode, or not a record's (an ISBN, a coupon…:
                 --force looks it up all the same)
              2  Discogs knows no release with this barcode (or no such release id)
              3  not signed in to Discogs (and not in the catalogue), or Discogs refused
                 the credentials
              4  Discogs could not be reached, or answered with an error

            Examples:
              crates lookup 5099750442227
              crates lookup '0 77774 62002 4' --json | jq -r '.releases[].title'
              crates lookup r249504
            """)

    @Flag(help: "Print one JSON object instead of tab-separated lines.")
    var json = false

    @Flag(help: "Look up a barcode that is not a record's (an ISBN, ISSN, ISMN, a coupon) all the same.")
    var force = false

    @OptionGroup var source: ReleaseSourceOptions

    @OptionGroup var store: StoreOptions

    @Argument(help: "The barcode (as printed or scanned), or a Discogs release (r249504 or its URL).")
    var code: String

    @OptionGroup var diagnostics: VerboseOption

    /// The tab-separated lines' columns.
    static let names = ["outcome", "release_id", "artist", "title", "label", "catno", "format", "year", "country", "url"]

    /// What a terminal shows: the release as `crates add` takes it, what tells the pressings
    /// apart, and what the collection holds of each (HAVE: owned, where; wanted).
    static let terminalColumns = [
        TableColumn(heading: "RELEASE", field: 1, cap: 10) { $0.isEmpty ? "" : "r" + $0 },
        TableColumn(heading: "ARTIST", field: 2, cap: 24),
        TableColumn(heading: "TITLE", field: 3, cap: 30),
        TableColumn(heading: "LABEL", field: 4, cap: 18),
        TableColumn(heading: "CAT#", field: 5, cap: 16),
        TableColumn(heading: "FORMAT", field: 6, cap: 14),
        TableColumn(heading: "YEAR", field: 7, cap: 4),
        TableColumn(heading: "COUNTRY", field: 8, cap: 12),
    ]

    func run() throws {
        diagnostics.install("lookup")
        let shown = GTIN.displayForm(of: code)
        let entry: CodeEntry
        do throws(DiscogsAnswerError) {
            entry = try DiscogsAnswer.entry(code, force: force)
        } catch {
            throw ExitCode.failing("\(shown): \(error)", error.exitStatus)
        }
        let (catalogue, access, web): ((any ReleaseCatalogue)?, DiscogsAccess?, String)
        do throws(DiscogsAccessError) {
            (catalogue, access, web) = try source.open("crates lookup")
        } catch {
            throw CLIError(error.description)
        }
        let answer: DiscogsAnswer
        do {
            answer = try blocking { try await DiscogsAnswer.ask(entry, access: access, catalogue: catalogue) }
        } catch let failure as DiscogsAnswerError {
            if case .noSuchRelease = failure { throw ExitCode.failing(failure.description, failure.exitStatus) }
            throw ExitCode.failing("\(shown): \(failure)", failure.exitStatus)
        }
        let marks = ReleaseListing.marks(store, answer.releases.map(\.id))
        if json {
            try StandardStreams.out(jsonLines: [try answer.json(input: shown, web: web, marks: marks)])
        } else {
            try ReleaseListing.write(answer.lines(web: web), marks: marks, names: Self.names, columns: Self.terminalColumns, header: false)
        }
        if answer.releases.isEmpty { throw ExitCode.failing(answer.nothingFound(shown: shown), 2) }
    }
}
