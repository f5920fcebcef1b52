import ArgumentParser
import CratesApp
import CratesCore

/// `crates search`: Discogs' releases by catalogue number, artist, title…, for records
/// without a barcode. Nothing is added to the collection.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search Discogs for releases by catalogue number, artist, title, label…, without a barcode.",
        discussion: """
            For records without a barcode (most vinyl before 1980): give what the spine and \
            the label print. TEXT searches every field. Case and accents do not matter; a \
            catalogue number may be typed with or without its spaces and dashes ("CDP 7 46001 \
            2", "cdp7460012"): the number as typed costs one request, and when that finds \
            nothing it is sent again respaced, then the other fields alone with the number \
            compared locally: at most 3 requests. Year, country and format narrow a search \
            but cannot make one.

            Output: one line per release, best first (the exact catalogue number, then the \
            artist and title, then year, country and format as given), tab-separated:
              release_id  artist  title  country  year  format  label  catno  url
            On a terminal, aligned columns under a heading instead, the release as `crates \
            add` takes it (r20000001); --header puts a line of the column names before the \
            tab-separated lines. With --json, JSON Lines: one object per release with id, artist, title, \
            country, year, formats, label, catno, url, catnoMatches and source \
            ("catalogue" or "discogs"), owned (what the collection holds of it: copies and \
            the first one's place, or null) and wanted (on the wantlist). On a terminal a \
            HAVE column says the same. Add the one in your hands with \
            `crates add rRELEASE_ID`.

            The local catalogue of Discogs' data (--catalogue, $CRATES_CATALOGUE) answers \
            first when it finds something: no request, no account. --online asks Discogs \
            instead. Searching Discogs needs an account: sign in first with `crates auth`. A search that \
            cannot find anything (no field, a field over 200 characters, a control \
            character, a year outside 1877 to next year) is refused before any request.

            Exit status:
              0   found at least one release
              2   nothing found
              3   not signed in to Discogs, or Discogs refused the credentials
              4   Discogs could not be reached, or answered with an error
              64  the search is refused as it is (the message says why)

            Examples:
              crates search --catno 'SHVL 804'
              crates search --artist 'pink floyd' --title 'dark side' --country UK --year 1973
              crates search --catno cdp7460012 --json | jq -r .id
              crates add r20000001
            """)

    @Option(help: ArgumentHelp("The artist.", valueName: "artist"))
    var artist: String?

    @Option(help: ArgumentHelp("The title of the release.", valueName: "title"))
    var title: String?

    @Option(help: ArgumentHelp("The catalogue number, as printed or typed without spaces.", valueName: "catno"))
    var catno: String?

    @Option(help: ArgumentHelp("The label.", valueName: "label"))
    var label: String?

    @Option(help: ArgumentHelp("The year of the release (narrows).", valueName: "year"))
    var year: String?

    @Option(help: ArgumentHelp("The country of release (narrows).", valueName: "country"))
    var country: String?

    @Option(help: ArgumentHelp("The format: Vinyl, LP, CD, Cassette… (narrows).", valueName: "format"))
    var format: String?

    @Flag(help: "One JSON object per release and line (JSON Lines).")
    var json = false

    @OptionGroup var header: HeaderOption

    @OptionGroup var source: ReleaseSourceOptions

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("Free text searched in every field.", valueName: "text"))
    var text: [String] = []

    /// Checked before anything is sent: a refused search costs no request.
    func query() throws -> ReleaseSearchQuery {
        do {
            return try ReleaseSearchQuery(
                artist: artist, title: title, catno: catno, label: label, year: year, country: country, format: format,
                text: text.isEmpty ? nil : text.joined(separator: " "))
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        _ = try query()
        try header.check(json: json)
    }

    /// What a terminal shows: the release as `crates add` takes it (r1401), then what tells
    /// the pressings apart. The page's address is in the piped lines and --json.
    static let terminalColumns = [
        TableColumn(heading: "RELEASE", field: 0, cap: 10) { $0.isEmpty ? "" : "r" + $0 },
        TableColumn(heading: "ARTIST", field: 1, cap: 26),
        TableColumn(heading: "TITLE", field: 2, cap: 34),
        TableColumn(heading: "COUNTRY", field: 3, cap: 14),
        TableColumn(heading: "YEAR", field: 4, cap: 4),
        TableColumn(heading: "FORMAT", field: 5, cap: 14),
        TableColumn(heading: "LABEL", field: 6, cap: 20),
        TableColumn(heading: "CAT#", field: 7, cap: 18),
    ]

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("search")
        let query = try self.query()
        let (catalogue, access, web): ((any ReleaseCatalogue)?, DiscogsAccess?, String)
        do throws(DiscogsAccessError) {
            (catalogue, access, web) = try source.open("crates search")
        } catch {
            throw ExitCode.failing(error.description, 3)
        }
        let (finder, online) = (ReleaseFinder(access: access, catalogue: catalogue), source.online)
        let found: ReleaseFinder.Answer
        do {
            found = try blocking { try await finder.search(query, online: online) }
        } catch let failure as ReleaseFinderError {
            throw ExitCode.failing(failure.description, failure.exitStatus)
        }
        let marks = ReleaseListing.marks(store, found.hits.map(\.candidate.releaseID))
        if json {
            let encoder = ExportedRecord.makeJSONEncoder()
            try StandardStreams.out(jsonLines: try found.hits.map {
                try SearchListing.jsonLine($0, source: found.source, web: web, encoder: encoder, marks: marks[$0.candidate.releaseID])
            })
        } else {
            let rows = found.hits.map { (SearchListing.line($0, web: web), $0.candidate.releaseID) }
            try ReleaseListing.write(rows, marks: marks, names: SearchListing.columns, columns: Self.terminalColumns, header: header.header)
        }
        StandardStreams.errLine("crates search: \(SearchListing.summary(found))")
        if found.hits.isEmpty { throw ExitCode(2) }
    }
}
