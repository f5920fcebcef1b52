import ArgumentParser
import CratesApp
import CratesCore

/// `crates export --csv FILE` / `--json FILE`: the collection in a file other programs read,
/// written atomically.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the collection as a Discogs-style CSV file or as JSON.",
        discussion: """
            --csv FILE writes Discogs' collection-export columns, then Barcode, Location and Collector Fields:
              \(DiscogsCollectionCSV.columns.joined(separator: ","))
            one row per copy, in the order of `crates list`. Artist, Title, Label, Catalog#, \
            Format, Released (the year) and release_id come from the Discogs release the \
            copy was matched to, and are empty while it is not matched (its Barcode, Date \
            Added and notes are always there), except where you set your own value with \
            `crates edit`: yours is written, and Collector Fields names those columns \
            ("Title,Released"). Barcode is empty for a record without one (such as a copy \
            pulled from Discogs by `crates sync`). Date Added is YYYY-MM-DD HH:MM:SS in UTC; \
            CollectionFolder is the copy's Discogs folder once `crates sync` has put it on \
            Discogs, else the name of the place the copy is in, and Location the place's \
            whole path ("Living Room › Shelf 2 › Crate A3"); Collection Notes is its note; \
            Rating (1 to 5, empty when not rated) and the two condition columns (Discogs' \
            grades, such as "Very Good Plus (VG+)") come from `crates edit` or a sync. \
            Genre and Country are the values shown; Entered By Hand is "yes" for a record \
            entered by hand. Fields holding commas, double quotes or line \
            breaks are quoted as RFC 4180 says; rows end with LF as Discogs' exports do \
            (--crlf for CRLF). A field starting with =, +, -, @, a tab or a CR gets a ' in \
            front, so that a spreadsheet does not run it as a formula. `crates import` reads \
            this file back (the collector's values and hand entries included, the ' taken off).

            --json FILE writes everything crates knows, to restore the collection from with \
            `crates import FILE`: one JSON object, a value per line. First a header (the \
            largest ids handed out), then every place (id, parent, name, path, its label's \
            code, createdAt; empty places too), the sync's tables (discogsAccount, \
            discogsFolder, discogsCopy, discogsOutbox, their rows as stored), and records: \
            one object per copy and line, the fields of `crates list --json` (id, gtin, \
            state, section, addedAt, addMethod, note, location, lookup attempts, error, \
            retry time and skip reason, candidates, release, collector, mediaCondition, \
            sleeveCondition, rating, discogsCollection), plus pinnedReleaseID, the \
            release's discogs (as Discogs sent it), fetchedAt and hasFullDetails, and \
            history (each lookup and choice, oldest first). Dates are ISO 8601 in UTC.

            FILE - writes to standard output. Otherwise the export goes to a temporary file \
            beside FILE that replaces it only when complete: an export that fails or is \
            stopped leaves FILE as it was. The whole export is one snapshot of the collection, \
            even while the collection UI or an import writes to it.

            Exit status: 0 when written; 1 when the collection or FILE could not be \
            opened or written (nothing is changed then).

            Examples:
              crates export --csv collection.csv
              crates export --json - | jq '.records | length'
              crates export --csv rock.csv --genre Rock --state matched
              crates export --csv lent.csv lent:
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Write Discogs' collection CSV (plus a Barcode column) to this file; - for standard output.", valueName: "file"))
    var csv: String?

    @Option(help: ArgumentHelp("Write everything crates knows about each copy as a JSON array to this file; - for standard output.", valueName: "file"))
    var json: String?

    @Flag(help: "End CSV rows with CRLF (RFC 4180) instead of LF.")
    var crlf = false

    @OptionGroup var records: RecordFilterOptions

    @OptionGroup var query: QueryArguments

    func validate() throws {
        guard (csv == nil) != (json == nil) else {
            throw ValidationError("give one of --csv FILE and --json FILE")
        }
        if crlf, csv == nil { throw ValidationError("--crlf applies to --csv only") }
    }

    func run() throws {
        try QueryArguments.answering { try export() }
    }

    private func export() throws {
        // The output is checked before the collection is opened: never one of its own files;
        // then the collection is opened read-only (never created, readable without
        // write permission).
        let output = csv ?? json ?? "-"
        try self.store.checkOutput(output)
        let store = try self.store.openForReading()
        let export = CollectionExport(store: store, filter: try records.filter(in: store, query: try query.query()))
        let (database, asCSV, crlf) = (try self.store.path(), csv != nil, self.crlf)
        do {
            let count = try blocking { try await export.export(to: output, csv: asCSV, crlf: crlf, sparing: database) }
            // A person at a terminal is told what was written; a script reads nothing new.
            if output != "-", StandardStreams.outputIsTerminal {
                try StandardStreams.out(WrittenFileText.export(count, to: output, csv: asCSV) + "\n")
            }
        } catch CollectionExport.Failure.query(let error) {
            throw error  // a usage error: exit 64
        } catch {
            throw CLIError("\(error)")
        }
        for warning in try blocking({ try await export.unknownGenreWarnings() }) { StandardStreams.errLine(warning) }
    }
}
