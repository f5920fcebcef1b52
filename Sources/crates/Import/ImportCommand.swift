import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates import FILE`: a shelf scanned into a file (or a Discogs collection export) into
/// the collection at once, then looked up on Discogs at the rate it allows.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the records of a file of barcodes, or of a Discogs collection export, and look them up.",
        discussion: """
            FILE (or - for standard input) holds one barcode per line, in any form `crates \
            barcode` reads (spaces or dashes between groups, UPC-E, an add-on, (01)…), or a \
            Discogs release as r249504 or a release URL. Blank lines and # comments are \
            ignored; CRLF line ends, a UTF-8 byte order mark and surrounding spaces are fine.

            A CSV file works too, when its first line is a header with a barcode, gtin, upc \
            or ean column, or a release_id column: Discogs' collection export and `crates \
            export --csv` are read as they are (a row is keyed on its release_id when it has \
            one, else on its barcode; Collection Notes, or a note column, becomes the note; \
            Date Added the date; a location column, else CollectionFolder, the place: it \
            joins the place it names (a name, or a path such as "Living Room › Shelf 2 › \
            Crate A3"), or the places missing are made). Other columns are ignored.

            Every line is checked before anything is written. A line that is not a barcode, \
            or is a barcode but not a record's (an ISBN, an ISSN, a coupon, a shop's price \
            label, a crates label), is reported on standard error as FILE:LINE: TEXT: REASON and skipped; with \
            --strict nothing at all is imported then. --force takes the ISBNs, ISSNs, ISMNs \
            and coupons all the same (Discogs lists some audiobooks under their ISBNs), never \
            a shop's price label.

            A barcode (or release) listed n times is n copies. An import adds only the copies \
            the collection does not have yet, so the same import run twice, or again after \
            it was interrupted, adds nothing twice; --copies adds every line as a new copy.

            The records are added at once; then, unless --no-lookup, crates looks them up on \
            Discogs at the rate Discogs allows (about a record a second), with a progress bar \
            (plain lines when standard error is not a terminal). Ctrl-C stops cleanly: the \
            records stay, and their lookups wait for the next `crates` or `crates import`. \
            The end lists what needs a person: pressings to choose between (ambiguous), \
            barcodes Discogs does not know, and rows not added; --report FILE writes that list \
            (and the refused lines) as tab-separated lines.

            Rows known only by a Discogs release id (a Discogs export has no barcodes) need \
            Discogs to name their barcode before they can be added: with --no-lookup, or when \
            not signed in, they are listed and not added (a release that lists no barcode \
            makes a record without one).

            A CSV without barcodes works too, for records that have none: with artist, \
            title and catno columns (Discogs' Catalog# too), and optionally label, year \
            (or Released), country and format. Each row is searched on Discogs as `crates \
            search` does: matched when exactly one release has its catalogue number (or, \
            without one, its artist and title), otherwise ambiguous with the candidates, or \
            not found. The row's own values stay on the record as yours, so a row not found \
            still shows what it is; --manual-missing enters those by hand. The records that \
            need a person are walked one by one by N in the collection UI.

            Exit status:
              0    every line is in the collection (added now or before)
              1    nothing could be imported: the file or the database cannot be read
              2    some lines were refused (with --strict: so nothing was imported)
              3    some rows known only by a release id were not added (see the list)
              64   the command line is wrong
              130  interrupted by Ctrl-C (143: by SIGTERM); what was added is kept
            With --dry-run, the status says whether lines would be refused (2) or not (0).

            --dry-run prints, for each line, LINE, what would happen (new, present, \
            needs-discogs, invalid, not-a-record), the barcode, and a detail, tab-separated; \
            it writes nothing, not even a new database file.

            Examples:
              crates import gtins.txt
              crates import --dry-run gtins.txt
              crates import --no-lookup --db shop.sqlite scans.txt
              crates import discogs-collection-export.csv --report todo.tsv
              zbarimg -q --raw *.jpg | crates import -
              crates import --manual-missing shelf-without-barcodes.csv
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The file to import, or - for standard input.", valueName: "file"))
    var file: String

    @Flag(help: "Import nothing when any line is refused.")
    var strict = false

    @Flag(help: "Add every line as a new copy, even when the collection already has that record.")
    var copies = false

    @Flag(help: "Take barcodes that are not a record's (an ISBN, ISSN, ISMN, a coupon) all the same.")
    var force = false

    @Flag(help: "Print what would happen to each line, and write nothing (not even a new database file).")
    var dryRun = false

    @OptionGroup var lookup: LookupOptions

    @Flag(help: "Enter the CSV rows without a barcode that Discogs has no release for by hand (their values are the record).")
    var manualMissing = false

    @Option(help: ArgumentHelp(
        "Write what needs a person (ambiguous, not found, not added, refused lines) to this file, tab-separated.",
        valueName: "file"))
    var report: String?

    func validate() throws {
        if file.isEmpty { throw ValidationError("name a file to import, or - for standard input") }
        if dryRun, report != nil { throw ValidationError("--report needs an import that runs: drop --dry-run") }
    }

    func run() throws {
        let stop = StopRequest.install(announcement: "Stopping: the records added so far are kept (Ctrl-C again to quit at once)")
        let name = file == "-" ? "stdin" : file
        let parsed: ImportFile
        do {
            parsed = try ImportFile.parse(try ImportInput.read(file), force: force)
        } catch let error as ImportInput.Problem {
            throw CLIError(error.description)
        } catch {
            throw CLIError("\(name): \(error)")
        }
        // Every line is checked before anything is written; the refused ones are reported
        // first, in file order.
        for refusal in parsed.refusals { StandardStreams.errLine(refusal.message(file: name)) }
        if stop.isRequested { throw ExitCode(stop.exitStatus) }

        if dryRun {
            let plan: ImportPlan
            do {
                plan = try Importer.dryRun(parsed, databasePath: try store.path(), copies: copies)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("\(error)")
            }
            try StandardStreams.out(lines: plan.lines.lazy.map(ImportPlan.dryRunLine))
            StandardStreams.errLine(plan.dryRunSummary(name: name, strict: strict))
            if !plan.refusals.isEmpty { throw ExitCode(2) }
            return
        }
        if strict, !parsed.refusals.isEmpty {
            StandardStreams.errLine("\(name): \(counted(parsed.refusals.count, "line")) refused: nothing imported (--strict)")
            throw ExitCode(2)
        }

        let importer = Importer(store: try store.open(), progress: ImportProgress(), stopRequest: stop)
        let options = Importer.Options(copies: copies, lookups: !lookup.noLookup, reportPath: report, manualMissing: manualMissing)
        let outcome: Importer.Outcome
        do {
            outcome = try blocking {
                try await importer.run(parsed, name: name, options: options, discogs: { Result { () throws(DiscogsAccessProblem) in try DiscogsAccess.make() } })
            }
        } catch let error as ImportRunError {
            throw CLIError(error.description)
        }
        try StandardStreams.out(lines: outcome.lines)
        if let message = outcome.closingMessage { StandardStreams.errLine(message) }
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }
}
