import ArgumentParser
import CratesApp
import CratesCore
import CratesNet
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
        let settings: CatalogueFetch.Settings
        let transport: CurlTransport
        do {
            settings = try CatalogueFetch.Settings.configured()
            transport = try CurlTransport(configuration: .init(userAgent: DiscogsUserAgent.make(version: CratesVersion.current), connections: 1))
        } catch {
            throw CLIError("\(error)")
        }
        let progress = DownloadProgress()
        let fetch = CatalogueFetch(settings: settings, transport: transport, progress: progress) { line in
            progress.note("crates catalogue fetch: \(line)")
        }
        let date = self.date.flatMap(DiscogsDumpDate.init(digits:))
        let outcome: Result<CatalogueFetch.Fetched, CatalogueFetchError> = try blocking {
            let task = Task { () async -> Result<CatalogueFetch.Fetched, CatalogueFetchError> in
                do throws(CatalogueFetchError) {
                    return .success(try await fetch.run(date: date))
                } catch {
                    return .failure(error)
                }
            }
            stop.onRequest { task.cancel() }
            return await task.value
        }
        switch outcome {
        case .success(let fetched):
            try StandardStreams.out("\(fetched.path): the releases dump of \(fetched.date), SHA-256 verified\n")
            if stop.isRequested { throw ExitCode(stop.exitStatus) }
            try CatalogueBuildCommand.build(
                from: fetched.path, into: cataloguePath, sparing: try? store.path(), date: fetched.date.digits, stop: stop)
            // Built: the older dumps in the cache are of no more use (10 GB each).
            for old in DumpCache.removeOlder(than: fetched.date, in: settings.cacheDirectory) {
                try StandardStreams.out("Removed \(old.name) (\(DownloadProgress.bytes(old.bytes))), an older dump\n")
            }
        case .failure(.stopped(let kept, let path)):
            StandardStreams.errLine(CatalogueFetchError.stopped(kept: kept, path: path).description)
            throw ExitCode(stop.isRequested ? stop.exitStatus : 130)
        case .failure(let error):
            if case .network(let transportError, _, _) = error, let detail = transportError.detail { Diagnostics.note(detail) }
            throw CLIError("\(error)")
        }
    }
}
