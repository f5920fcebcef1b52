import ArgumentParser
import CratesApp

/// `crates refresh ID...` / `--all`: look records up again now, as r does in the collection UI.
struct RefreshCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Look records up on Discogs again now, as r does in the collection UI.",
        discussion: """
            Each ID (the first column of `crates list`), or every record with --all, goes \
            back to the lookup queue and is looked up before the command exits, at the rate \
            Discogs allows. A matched record is fetched again by its release, so Discogs' \
            values are refreshed; values you set with `crates edit` still win. A record \
            entered by hand is never looked up.

            Output: one line per record, as `crates add` prints: id  gtin  state  detail.

            Exit status:
              0  every record was looked up again
              1  an ID is not in the collection, or was entered by hand
              3  some lookup did not finish (timed out, failed and will be retried, not
                 signed in, or Discogs refused the credentials); it stays in the queue

            Examples:
              crates refresh 12 13
              crates refresh --all --timeout 600
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The records' ids, as `crates list` shows them.")
    var ids: [Int64] = []

    @Flag(help: "Every record (but those entered by hand).")
    var all = false

    @Option(help: ArgumentHelp("Give up waiting after this many seconds (up to 86400).", valueName: "seconds"))
    var timeout: Double = 120

    func validate() throws {
        if all == !ids.isEmpty { throw ValidationError(all ? "give ids or --all, not both" : "give the ids of the records to refresh, or --all") }
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be a number of seconds above 0 and at most 86400 (a day)")
        }
    }

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("refresh")
        let store = try self.store.open()
        let access = try? DiscogsAccess.make()
        let (ids, timeout) = (all ? nil : self.ids, self.timeout)
        let outcome = try blocking { try await Refresh.run(ids, store: store, access: access, timeout: timeout) }
        for message in outcome.messages { StandardStreams.errLine("crates refresh: \(message)") }
        try StandardStreams.out(outcome.lines.joined())
        if outcome.exitStatus != 0 { throw ExitCode(outcome.exitStatus) }
    }
}
