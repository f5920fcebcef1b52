import ArgumentParser
import CratesApp
import CratesCore

/// `crates sync`: the collection and the signed-in user's Discogs collection kept as one.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the collection with your Discogs collection, both ways.",
        discussion: """
            Pull: every copy in your Discogs collection (folder 0, "All", 100 a page, oldest \
            first) is one crates copy, with its folder, rating, date added, and the media \
            condition, sleeve condition and notes of your collection's fields of those names. \
            Push: copies matched to a release and not on Discogs yet are added (to folder 1, \
            "Uncategorized", or --folder, or discogs_sync_folder in config.json beside the \
            credentials), and ratings, conditions and notes changed in crates are written to \
            their Discogs copies.

            The first sync links the copies you have on both sides, one to one, oldest with \
            oldest: only the extra copies on either side are pulled or pushed. A value changed \
            only in crates is pushed, one changed only on Discogs is taken; one changed on \
            both sides keeps crates' value, is not pushed, and is listed as a conflict until \
            --prefer settles it (or a choice in the collection UI's conflicts view, C). A copy \
            removed on Discogs is flagged "removed on Discogs" and listed, never deleted here \
            nor added there again unless --restore-removed asks, and only when Discogs' \
            listing added up (the pages \
            agree and show every copy it counts; a listing that does not is read again, up to \
            3 times, and otherwise nothing it did not show is flagged, added again or added); a copy deleted here is removed on Discogs only with \
            --delete, otherwise listed. Pushes wait in the database until Discogs has \
            answered: a sync stopped or killed goes on where it was, and never adds a copy \
            twice. A second sync right after the first sends only the listing requests and \
            changes nothing.

            The wantlist (`crates want`) is kept as one with your Discogs wantlist by the \
            same rules: wants only on Discogs are pulled, wants only here pushed, notes and \
            ratings merged (a value changed on both sides is a conflict, settled by \
            --prefer); a want removed on Discogs is removed here unless changed here since \
            (then it is a conflict); a want removed here is removed there. A wantlist \
            listing that does not add up removes and adds nothing it did not show. The \
            marketplace figures of wanted releases not asked today are then stored for \
            `crates check` (background priority).

            Output: one summary line (pulled, pushed, linked, updated, conflicts, removed, \
            requests used), then one line per conflict, per copy removed on Discogs and per \
            copy deleted here; then, when the wantlist changed, a "Wantlist:" line and one \
            line per wantlist conflict. Requests go at the rate Discogs allows (about 100 copies a \
            request for the listing).

            Exit status:
              0  synced (conflicts and removed copies are listed, not errors)
              1  the collection could not be opened, --folder or config.json names no
                 folder (or config.json does not parse), or Discogs refused a request in a
                 way crates cannot go on from
              3  not signed in to Discogs, refused, or signed in as another user than the
                 one this collection was synced with
              4  Discogs could not be reached, answered with an error that lasted past the
                 retries, or listed the collection in pages that did not add up (run it
                 again: it goes on where it stopped)
              5  synced, but Discogs refused to add one or more copies (a release it does
                 not have): each is named, marked on the copy, and not sent again until
                 you choose another release for it

            Examples:
              crates sync
              crates sync --dry-run
              crates sync --pull
              crates sync --push --folder Vinyl
              crates sync --prefer discogs
              crates sync --restore-removed
              crates sync --prefer crates --restore-removed
              crates sync --delete
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Say what each side would get; change nothing on either side.")
    var dryRun = false

    @Flag(help: "Only take Discogs' side: new copies and changes from Discogs (nothing is sent).")
    var pull = false

    @Flag(help: "Only send crates' side: new copies and changes to Discogs (nothing is taken).")
    var push = false

    @Option(help: ArgumentHelp("The Discogs folder new copies go to: its id or name (default: 1, Uncategorized).", valueName: "folder"))
    var folder: String?

    @Flag(help: "Remove on Discogs the copies that were deleted in crates.")
    var delete = false

    @Option(help: ArgumentHelp(
        "Settle conflicts (values changed differently on both sides): take Discogs' value, or send crates' (discogs or crates). Adds no copy.",
        valueName: "side"))
    var prefer: String?

    @Flag(help: "Add back to Discogs the copies removed there (listed as \"removed on Discogs\"). Settles no conflict.")
    var restoreRemoved = false

    func validate() throws {
        if pull, push { throw ValidationError("--pull and --push contradict each other: give one, or neither for both ways") }
        if let folder, folder.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--folder needs a Discogs folder's id or name; without --folder, copies go to 1, Uncategorized")
        }
        if delete, pull { throw ValidationError("--delete removes copies on Discogs, which --pull never changes: give one") }
        if restoreRemoved, pull {
            throw ValidationError("--restore-removed adds copies to Discogs, which --pull never changes: give one")
        }
        if let prefer, SyncPreference(rawValue: prefer.lowercased()) == nil {
            throw ValidationError("--prefer takes discogs or crates, not \"\(GTIN.displayForm(of: prefer))\"")
        }
    }

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("sync")
        let store = try self.store.open()
        let access: DiscogsAccess
        do {
            access = try DiscogsAccess.make()
        } catch {
            throw ExitCode.failing("\(error)", 3)
        }
        let options = DiscogsSync.Options(
            pull: !push, push: !pull, dryRun: dryRun, folder: folder, deleteOnDiscogs: delete,
            prefer: prefer.flatMap { SyncPreference(rawValue: $0.lowercased()) }, restoreRemoved: restoreRemoved)
        let progress = SyncProgressLine(limiter: access.client.rateLimiter)
        let sync = DiscogsSync(
            store: store, access: access, configuredFolder: SyncFolder.configured(), progress: { progress.show($0) })
        let report = try blocking {
            let report = await sync.run(options)
            await progress.finish()
            return report
        }
        try StandardStreams.out(lines: report.lines)
        if let failure = report.failure {
            throw ExitCode.failing("\(failure)", failure.exitStatus)
        }
        // The rest synced, but a copy did not go: a script must not read that as done.
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
}
