import ArgumentParser
import CratesApp
import CratesCore

/// `crates add CODE...`: adds records as the collection UI does, from a script.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add records by barcode or Discogs release, as scanning them in the collection UI does.",
        discussion: """
            Each CODE is a barcode in any form `crates barcode` reads (the record is added \
            at once and waits for its Discogs lookup), or a Discogs release, r249504 or a \
            release page URL (crates fetches the release, takes the barcode it lists, and \
            adds the record already matched).

            Output: one line per added record, tab-separated:
              id  gtin  state  detail
            state is the record's lookup state (pending until looked up; matched for a \
            release); detail says what Discogs found (Artist — Title, how many pressings \
            share the barcode, why the lookup failed), empty while pending.

            Codes that are not added are reported on standard error, one line each:
              crates add: CODE: reason
            A code is refused when it is not a valid barcode (the reason says what is \
            wrong), when it is a shop's price label (a restricted-circulation number) or a \
            crates label (a place's or a copy's, 290… and 291…), or \
            when Discogs has no such release. A release Discogs fails to give (a 5xx, an \
            answer cut short, a timeout, a dropped connection) is asked again after 1, 2, 4 \
            and 8 s; a fault that lasts past that adds nothing and exits 4. A barcode of another kind than a record's \
            (an ISBN, ISMN or ISSN, a coupon) is refused unless --force: Discogs lists some \
            audiobooks and book-and-CD sets under their ISBNs. A barcode already in the \
            collection is skipped, unless --copy adds it as another copy.

            With --manual, adds one record entered by hand, for a record Discogs does not \
            have: --artist and --title at least, and any of --genre (its section in the \
            list), --year, --format, --label, --catno and --country. It has no barcode, it is \
            marked as entered by hand, and no lookup ever changes it; link it to a Discogs \
            release later with s (search) on it in the collection UI, keeping its values. \
            One described as a record already there (same catalogue number, artist and \
            title) is skipped unless --copy.

            With --wait, crates looks the new records up on Discogs before it exits (as \
            the collection UI would, at the rate Discogs allows, after any lookups already \
            waiting in the queue) and prints each line with its outcome once all are done, \
            or when --timeout passes. Needs `crates auth` first. Records whose lookup did \
            not finish stay in the queue: the collection UI or `crates import` looks them up \
            later. Ctrl-C, SIGTERM or SIGHUP end the wait at once (exit 130, 143, 129), the \
            lookup in hand back in the queue.

            Exit status:
              0  every code was added (and, with --wait, every lookup finished)
              1  at least one code was refused (or not a record's, without --force)
              2  nothing was refused, but some barcode was already in the collection
                 (skipped)
              3  with --wait: some lookup did not finish (timed out, failed and will be
                 retried, not signed in, or Discogs refused the credentials)
              4  a release could not be had from Discogs: a fault that lasted past the
                 retries, or Discogs unreachable (nothing added for it: run it again later)
              74 the records were added and kept, but their lines could not be written to
                 standard output (a full disk, a closed output): said on standard error

            When several apply, the first in the order 1, 4, 3, 2, 74 wins.

            Examples:
              crates add 5099750442227 '0 77774 62002 4'
              crates add --wait 727361626525
              crates add --copy 5099750442227
              crates add r249504 https://www.discogs.com/release/1-The-Persuader-Stockholm
              crates add --manual --artist 'The Nice' --title 'Ars Longa Vita Brevis' --genre Rock --year 1968
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Add a barcode already in the collection as another copy (otherwise it is skipped).")
    var copy = false

    @Flag(help: "Add a barcode that is not a record's (an ISBN, ISSN, ISMN, a coupon) all the same.")
    var force = false

    @Flag(help: "Look the new records up on Discogs before exiting, and print their outcome.")
    var wait = false

    @Option(help: ArgumentHelp("With --wait: give up waiting after this many seconds (up to 86400).", valueName: "seconds"))
    var timeout: Double = 120

    @Argument(help: "Barcodes (as printed or scanned; quote codes with spaces) or Discogs releases (r249504, a release URL).")
    var codes: [String] = []

    @Flag(help: "Add one record entered by hand (needs --artist and --title): for a record Discogs does not have.")
    var manual = false

    @OptionGroup var fields: RecordFieldOptions

    func validate() throws {
        if manual {
            if !codes.isEmpty { throw ValidationError("--manual adds one record by its fields: give no barcode or release with it") }
            if wait { throw ValidationError("--wait has nothing to wait for with --manual: a record entered by hand is never looked up") }
        } else {
            if codes.isEmpty { throw ValidationError("give a barcode or a Discogs release to add, or --manual with --artist and --title") }
            if !fields.values.isEmpty { throw ValidationError("--artist, --title… describe a record entered by hand: add --manual (or change a record with `crates edit`)") }
        }
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be a number of seconds above 0 and at most 86400 (a day)")
        }
    }

    @OptionGroup var catalogue: CatalogueOption

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("add")
        // SIGHUP (the terminal closed) stops a wait as Ctrl-C does: the lookup in hand goes
        // back. Installed before the collection is opened (see `StoreOptions.open`).
        let stop = wait ? StopRequest.install(announcement: nil) : nil
        let store = try self.store.open()
        let needsDiscogs = wait || codes.contains { CodeEntry.namesRelease($0) }
        let access: DiscogsAccess?
        do {
            access = needsDiscogs ? try DiscogsAccess.make() : nil
        } catch {
            throw CLIError(error.description)
        }
        var allowing: AddAllowance = []
        if copy { allowing.insert(.anotherCopy) }
        if force { allowing.insert(.notARecord) }
        let adding = AddCodes(
            store: store, access: access, allowing: allowing, wait: wait ? timeout : nil,
            catalogue: wait ? catalogue.open("crates add") : nil)
        if wait, StandardStreams.errorIsTerminal {
            StandardStreams.errLine("Looking up the new records on Discogs (up to \(Int(timeout)) s)…")
        }
        let out: @Sendable (String) throws -> Void = { try StandardStreams.out($0) }
        let say: @Sendable (String) -> Void = { StandardStreams.errLine("crates add: \($0)") }
        let status = try StopRequest.run(stop) {
            manual ? try await adding.addByHand(fields.values, out: out, say: say) : try await adding.run(codes, out: out, say: say)
        }
        if let stop, stop.isRequested { throw ExitCode(stop.exitStatus) }
        if status != 0 { throw ExitCode(status) }
    }
}
