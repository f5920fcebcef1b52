import ArgumentParser
import CratesCore
import CratesNet
import CratesStore
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
            Date Added the date; CollectionFolder the location). Other columns are ignored.

            Every line is checked before anything is written. A line that is not a barcode, \
            or is a barcode but not a record's (an ISBN, an ISSN, a coupon, a shop's price \
            label), is reported on standard error as FILE:LINE: TEXT: REASON and skipped; with \
            --strict nothing at all is imported then.

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
            not signed in, they are listed and not added.

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
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The file to import, or - for standard input.", valueName: "file"))
    var file: String

    @Flag(help: "Import nothing when any line is refused.")
    var strict = false

    @Flag(help: "Add every line as a new copy, even when the collection already has that record.")
    var copies = false

    @Flag(help: "Print what would happen to each line, and write nothing (not even a new database file).")
    var dryRun = false

    @OptionGroup var lookup: LookupOptions

    @Option(help: ArgumentHelp(
        "Write what needs a person (ambiguous, not found, not added, refused lines) to this file, tab-separated.",
        valueName: "file"))
    var report: String?

    func validate() throws {
        if file.isEmpty { throw ValidationError("name a file to import, or - for standard input") }
        if dryRun, report != nil { throw ValidationError("--report needs an import that runs: drop --dry-run") }
    }

    func run() throws {
        let interrupt = ImportInterrupt.install()
        let name = file == "-" ? "stdin" : file
        let parsed: ImportFile
        do {
            parsed = try ImportFile.parse(try readInput())
        } catch let error as ImportError {
            throw CLIError("\(name): \(error)")
        }
        // Every line is checked before anything is written; the refused ones are reported
        // first, in file order.
        for refusal in parsed.refusals { ImportOutput.error(refusal.message(file: name)) }
        if interrupt.isRequested { throw ExitCode(interrupt.exitStatus) }
        let keys = Set(parsed.entries.map(\.key))

        if dryRun { return try runDry(parsed, keys: keys, name: name) }
        if strict, !parsed.refusals.isEmpty {
            ImportOutput.error("\(name): \(Self.count(parsed.refusals.count, "line")) refused: nothing imported (--strict)")
            throw ExitCode(2)
        }

        let store = try self.store.open()
        let copies = self.copies
        let plan = try blocking { ImportPlan(file: parsed, present: try await store.copies(of: keys), copies: copies) }
        let progress = ImportProgress()
        let newEntries = plan.newEntries
        let ids = try blocking {
            try await store.importEntries(
                newEntries, shouldContinue: { !interrupt.isRequested },
                progress: { done in progress.adding(done, of: newEntries.count) })
        }
        progress.finish()
        var summary: [String] = []

        var unresolved: [ImportUnresolved] = []
        var lookups: ImportLookups.Outcome?
        let releaseRows = plan.needsDiscogs
        if interrupt.isRequested {
            unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .stopped(.interrupted)) }
        } else if lookup.noLookup {
            unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .lookupsOff) }
        } else {
            switch Result(catching: { try DiscogsAccess.make() }) {
            case .success(let access) where access.signedIn:
                let session = ImportLookups(store: store, client: access.client, progress: progress, interrupt: interrupt)
                let outcome = try blocking { await session.run(releaseRows: releaseRows) }
                lookups = outcome
                unresolved = outcome.unresolved
                summary.append(Self.lookupSummary(outcome))
            case .success:
                unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .notSignedIn) }
                summary.append(
                    "Not signed in to Discogs: run `crates auth`, then `crates` (or this import again) to look the records up.")
            case .failure(let error):
                // Unreadable credentials or a bad CRATES_DISCOGS_API: the import stands, the
                // lookups wait, and the user learns why.
                unresolved = releaseRows.map { ImportUnresolved(entry: $0, reason: .failed("\(error)")) }
                summary.append("No lookups: \(error)")
            }
        }

        let added = ids.count + (lookups?.addedGTINs.count ?? 0)
        summary.insert("\(name): \(Self.lineSummary(plan, added: added, unresolved: unresolved.count))", at: 0)
        var gtins = Set(parsed.entries.compactMap(\.gtin))
        gtins.formUnion(lookups?.addedGTINs ?? [])
        let importedGTINs = gtins
        let followUp = try blocking { try await store.importFollowUp(gtins: importedGTINs) }
        let waiting = followUp.pending + followUp.failed
        if waiting > 0 {
            summary.append(
                "\(Self.count(waiting, "lookup")) \(waiting == 1 ? "waits" : "wait") in the queue"
                    + (followUp.failed > 0 ? " (\(followUp.failed) failed, to be retried)" : "")
                    + ": `crates`, or this import again, looks them up.")
        }
        var firstLines: [GTIN: Int] = [:]
        for entry in parsed.entries { if let gtin = entry.gtin, firstLines[gtin] == nil { firstLines[gtin] = entry.line } }
        let report = ImportReport(refusals: parsed.refusals, unresolved: unresolved, followUp: followUp, lines: firstLines)
        try ImportOutput.out(summary + report.listing(file: name, reportPath: self.report))
        if let path = self.report { try report.write(to: path) }

        if interrupt.isRequested {
            ImportOutput.error("Interrupted: \(Self.count(added, "record")) added and kept; run the same import again to finish.")
            throw ExitCode(interrupt.exitStatus)
        }
        if !parsed.refusals.isEmpty { throw ExitCode(2) }
        if !unresolved.isEmpty { throw ExitCode(3) }
    }

    /// `--dry-run`: the plan, line by line, against the collection as it is; nothing opened
    /// for writing, no file created.
    private func runDry(_ parsed: ImportFile, keys: Set<ImportKey>, name: String) throws {
        let present: [ImportKey: Int]
        do {
            present = try CatalogueStore.copies(of: keys, inFileAt: try StoreLocation.resolve(flag: store.db))
        } catch {
            throw CLIError(error.description)
        }
        let plan = ImportPlan(file: parsed, present: present, copies: copies)
        try ImportOutput.out(plan.lines.lazy.map { "\($0.line)\t\($0.verdict)\t\($0.subject)\t\($0.detail)" })
        var summary = "\(name) (dry run): would add \(Self.count(plan.newCount, "record"))"
        if plan.needsDiscogsCount > 0 { summary += ", and \(plan.needsDiscogsCount) more once Discogs names their barcodes" }
        summary += "; \(plan.presentCount) already in the collection"
        if !plan.refusals.isEmpty {
            summary += "; \(Self.count(plan.refusals.count, "line")) refused"
            if strict { summary += ", so --strict would import nothing" }
        }
        ImportOutput.error(summary)
        if !plan.refusals.isEmpty { throw ExitCode(2) }
    }

    /// The file's bytes, or a message naming what is wrong.
    private func readInput() throws -> [UInt8] {
        if file == "-" {
            do {
                return Array(try FileHandle.standardInput.readToEnd() ?? Data())
            } catch {
                throw CLIError("cannot read standard input: \(error.localizedDescription)")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw CLIError("\(file): no such file")
        }
        if isDirectory.boolValue { throw CLIError("\(file) is a directory: name a file of barcodes") }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw CLIError("\(file): cannot be read (permissions?)")
        }
        defer { try? handle.close() }
        do {
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw CLIError("\(file): \(error.localizedDescription)")
        }
    }

    /// `120 added, 12 already in the collection, 2 not added (known by release id only),
    /// 3 refused (2 invalid, 1 not a record).`
    static func lineSummary(_ plan: ImportPlan, added: Int, unresolved: Int) -> String {
        var parts = ["\(added) added", "\(plan.presentCount) already in the collection"]
        let interrupted = plan.newCount + plan.needsDiscogsCount - added - unresolved
        if interrupted > 0 { parts.append("\(interrupted) not added (interrupted)") }
        if unresolved > 0 { parts.append("\(unresolved) not added (known by release id only)") }
        if !plan.refusals.isEmpty {
            var refused = "\(plan.refusals.count) refused"
            if plan.notARecordCount > 0 { refused += " (\(plan.invalidCount) invalid, \(plan.notARecordCount) not a record)" }
            parts.append(refused)
        }
        return parts.joined(separator: ", ") + "."
    }

    static func lookupSummary(_ outcome: ImportLookups.Outcome) -> String {
        let c = outcome.counts
        var line = "Discogs: \(count(c.done, "lookup")): \(c.matched) matched, \(c.ambiguous) ambiguous, "
            + "\(c.notFound) not found"
        if c.skipped > 0 { line += ", \(c.skipped) skipped" }
        line += ", \(c.failed) failed."
        switch outcome.stop {
        case .unauthorized(let message)?: line += " Stopped: Discogs refused the credentials (\(message)): run `crates auth`."
        case .offline(let message)?: line += " Stopped: \(message)."
        case .interrupted?: line += " Interrupted."
        case nil: break
        }
        return line
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
