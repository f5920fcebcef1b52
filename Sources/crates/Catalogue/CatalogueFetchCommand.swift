import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates catalogue fetch [--date YYYYMMDD]`: downloads a releases dump from Discogs' data
/// site into the cache directory, verifies its SHA-256, then builds the catalogue from it.
struct CatalogueFetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download Discogs' newest releases dump, verify it, and build the catalogue from it.",
        discussion: """
            Finds the newest complete monthly dump on Discogs' data site (this month's when its
            checksum file is published, else last month's), downloads its releases file (about
            10.4 GB) into $XDG_CACHE_HOME/crates/ (default ~/.cache/crates/) and checks its
            SHA-256 against the checksum file (as it downloads; a file verified once is not read
            again). A download cut short resumes where the site allows it. Once the catalogue is
            built, older dumps in that directory are removed. The site refuses requests for
            about an hour after about 15 in 6 minutes: crates then says when to try again and
            asks nothing before that time.
            $CRATES_DISCOGS_DATA names another site (default https://data.discogs.com).

            Examples:
              crates catalogue fetch
              crates catalogue fetch --date 20260601
            """)

    @Option(help: ArgumentHelp("The dump of this date (the 1st of a month), rather than the newest.", valueName: "YYYYMMDD"))
    var date: String?

    @OptionGroup var catalogue: CatalogueOption

    @OptionGroup var store: StoreOptions

    @OptionGroup var diagnostics: VerboseOption

    func validate() throws {
        if let date {
            guard let dumpDate = DiscogsDumpDate(digits: date) else {
                throw ValidationError("--date takes a dump's date as Discogs names its files, YYYYMMDD (e.g. 20260601): \(date) is not one")
            }
            guard !dumpDate.isAfterToday(now: Date()) else {
                throw ValidationError("--date \(date) is after today: Discogs dates a dump the day it makes it (the 1st of the month)")
            }
        }
    }

    func run() throws {
        diagnostics.install("catalogue fetch")
        let cataloguePath = try catalogue.resolvedPath()
        let stop = StopRequest.install(announcement: "Stopping: the part downloaded is kept (Ctrl-C again to quit at once)")
        let outcome: CatalogueUpdate.Outcome
        do {
            let update = try CatalogueUpdate(cataloguePath: cataloguePath, sparing: try? store.path())
            let dumpDate = date.flatMap(DiscogsDumpDate.init(digits:))
            outcome = try stop.run { try await update.run(date: dumpDate, reporter: CatalogueUpdateLines()) }
        } catch {
            // Anything but the update's own failure is the root task's cancellation: a stop.
            let failure = error as? CatalogueUpdate.Failure ?? .fetch(.stopped(kept: 0, path: nil))
            guard failure.isStopped else { throw CLIError(failure.description) }
            StandardStreams.errLine(failure.description)
            throw ExitCode(failure.exitStatus(stoppedBy: stop))
        }
        try StandardStreams.out(CatalogueSummaryText.summary(outcome.summary) + "\n")
        for old in outcome.removed {
            try StandardStreams.out("Removed \(old.name) (\(ProgressText.bytes(old.bytes))), an older dump\n")
        }
    }
}
