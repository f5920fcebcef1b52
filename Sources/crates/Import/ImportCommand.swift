import ArgumentParser
import CratesApp
import CratesCore

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
            Crate A3"), or the places missing are made; the summary names the folders that \
            became places, and --no-folder-places leaves them Discogs' folders only). Other \
            columns are ignored.

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

            crates' own `export --csv` file brings back the collector's own values (the \
            columns its Collector Fields names, Genre and Country included) and the records \
            entered by hand (Entered By Hand); a cell the export quoted against spreadsheet \
            formulas ('=…) reads as it was.

            crates' own `export --json` FILE is restored instead, into an empty collection: \
            every record and place with its id (so every label still names the same copy or \
            place), empty places, the Discogs links, grades, ratings, notes and history, as \
            they were. It is one transaction: a damaged, cut or filtered export, or Ctrl-C, \
            restores nothing, and a collection that already holds anything is refused \
            (restore into a new one with --db, or import the CSV export to merge).

            A CSV without barcodes works too, for records that have none: with artist, \
            title and catno columns (Discogs' Catalog# too), and optionally label, year \
            (or Released), country and format. Each row is searched on Discogs as `crates \
            search` does: matched when exactly one release has its catalogue number (or, \
            without one, its artist and title), otherwise ambiguous with the candidates, or \
            not found. A row that finds its release takes Discogs' values: the row's (a \
            catalogue number typed without its space, "LP") only served to find it, unless \
            --keep-values keeps them as yours. A row that finds a release the collection has \
            already is a copy already there, as a barcode already there is: not added again \
            (said so), unless --copies. A row not found keeps its values, so it still \
            shows what it is; --manual-missing enters those by hand. The records that \
            need a person are walked one by one by N in the collection UI.

            A quoted CSV field that runs over line breaks and holds what reads as further \
            rows (an unclosed quote, most likely) is warned about with its line numbers; with \
            --strict it is refused. Fields may be separated by commas, semicolons or tabs. A \
            header naming a key column twice (barcode,barcode) is refused.

            The file is read as it arrives, within bounds: a line longer than 4 KB (64 KB \
            for a CSV row) is refused and skipped unread, binary input (/dev/zero, \
            /dev/urandom) is refused at once, and Ctrl-C, SIGTERM or SIGHUP stops the \
            reading at once. A compressed list (gzip, xz, bzip2, zstd), a ZIP archive or \
            spreadsheet, an Excel workbook, a SQLite database (a `crates backup` copy), a \
            PDF or a picture is refused saying what it is and which command imports what it \
            holds (gunzip -c FILE | crates import -).

            Exit status:
              0    every line is in the collection (added now or before)
              1    nothing could be imported: the file or the database cannot
                   be read, or the collection could not be written (a full
                   disk): the message says how many records were added, and
                   running the same import again adds the rest
              2    some lines were refused (with --strict: nothing imported)
              3    some rows known only by a release id were not added
              4    the lookups stopped before the end: Discogs could not be
                   reached, or refused the credentials; the records wait in
                   the queue
              5    some lookups failed (the summary says why): their records
                   wait in the queue, to be retried
              64   the command line is wrong
              74   the records were added and kept, but the summary could not
                   be written to standard output (a full disk, a closed
                   output): said on standard error
              130  interrupted by Ctrl-C (143: by SIGTERM, 129: by SIGHUP);
                   what was added is kept

            With --dry-run, the status says whether lines would be refused (2) or not (0). \
            For crates' JSON export, --dry-run reads and checks the whole file as a restore \
            does and says what it would restore (records, places), writing nothing.

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

    @Flag(help: "Keep the values of CSV rows without a barcode as yours even when they find a release (else Discogs' stand).")
    var keepValues = false

    @Flag(name: .customLong("no-folder-places"), help: "Leave a Discogs export's folders (CollectionFolder) Discogs' alone: make no places of them.")
    var noFolderPlaces = false

    @Option(help: ArgumentHelp(
        "Write what needs a person (ambiguous, not found, not added, refused lines) to this file, tab-separated.",
        valueName: "file"))
    var report: String?

    func validate() throws {
        if file.isEmpty { throw ValidationError("name a file to import, or - for standard input") }
        if dryRun, report != nil { throw ValidationError("--report needs an import that runs: drop --dry-run") }
    }

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("import")
        let stop = StopRequest.install(announcement: "Stopping: the records added so far are kept (Ctrl-C again to quit at once)")
        // Every output path is checked before anything is read or added.
        if let report { try store.checkOutput(report) }
        var request = ImportRun.Request(path: file)
        request.strict = strict
        request.force = force
        request.copies = copies
        request.dryRun = dryRun
        request.lookups = !lookup.noLookup
        request.manualMissing = manualMissing
        request.keepValues = keepValues
        request.folderPlaces = !noFolderPlaces
        request.reportPath = report
        let run = ImportRun(
            request, progress: ImportProgress(), databasePath: try store.path(), openStore: { try store.open() },
            openCatalogue: { lookup.catalogue.open("crates import") },
            discogs: { Result { () throws(DiscogsAccessError) in try DiscogsAccess.make() } })
        let outcome: ImportRun.Outcome
        do {
            outcome = try stop.run { try await run.run() }
        } catch let failure as ImportRun.Failure {
            throw CLIError(failure.description)
        }
        let status = try Self.show(outcome)
        let exit = outcome.exitStatus(stoppedBy: stop, printed: status)
        if exit != 0 { throw ExitCode(exit) }
    }

    /// Prints what the run did; the status of a summary that could not be printed (74), else 0.
    private static func show(_ outcome: ImportRun.Outcome) throws -> Int32 {
        switch outcome {
        case .restored(let restored, let file, let dryRun):
            if let warning = restored.linksWarning(file: file) { StandardStreams.errLine(warning) }
            try StandardStreams.out(lines: restored.lines(file: file, dryRun: dryRun))
        case .planned(let plan, let summary, _):
            // Line by line: a plan of a million lines is never held as text.
            var chunk = ""
            try plan.forEachLine { line in
                chunk += ImportPlan.dryRunLine(line) + "\n"
                if chunk.utf8.count >= 65_536 {
                    try StandardStreams.out(chunk)
                    chunk = ""
                }
            }
            if !chunk.isEmpty { try StandardStreams.out(chunk) }
            StandardStreams.errLine(summary)
        case .refused(let message):
            StandardStreams.errLine(message)
        case .stopped(let message):
            if let message { StandardStreams.errLine(message) }
        case .imported(let imported, let name):
            var status: Int32 = 0
            do {
                try StandardStreams.out(lines: imported.summary)
            } catch {
                // Said on standard error, with a status of its own.
                StandardStreams.errLine(imported.notPrinted(name: name, because: error))
                status = AddCodes.outputFailed
            }
            if let message = imported.closingMessage { StandardStreams.errLine(message) }
            return status
        }
        return 0
    }
}
