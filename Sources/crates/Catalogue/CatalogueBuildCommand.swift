import ArgumentParser
import CratesApp
import CratesStore

/// `crates catalogue build FILE`.
struct CatalogueBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the catalogue from a Discogs releases dump.",
        discussion: """
            FILE is a releases dump as Discogs publishes it (discogs_YYYYMMDD_releases.xml.gz), \
            the same uncompressed (.xml), or - for standard input. It is read as a stream, \
            never whole. The dump's date comes from the file's name, else from --date.

            The build writes a new file beside the catalogue and puts it in the catalogue's \
            place when complete: the catalogue in place answers throughout, and stays as it \
            was when the build fails or is stopped (Ctrl-C). It checks the free space first. \
            A release the dump holds that does not parse is skipped and named in the summary; \
            a damaged or truncated file stops the build.

            The build replaces only a catalogue, or nothing: never the collection (--db, \
            $CRATES_DB) nor any other file at the catalogue's path. A build that keeps no \
            release, or fewer than half the releases of the catalogue it would replace, is not \
            swapped in unless --force.

            Exit status: 0 when built; 1 when it could not be; 130 when stopped by Ctrl-C.

            Examples:
              crates catalogue build ~/Downloads/discogs_20260601_releases.xml.gz
              zcat dump.xml.gz | crates catalogue build --date 20260601 -
            """)

    @OptionGroup var catalogue: CatalogueOption

    @OptionGroup var store: StoreOptions

    @Option(name: .long, help: ArgumentHelp("The dump's date, when its name does not say it.", valueName: "YYYYMMDD"))
    var date: String?

    @Flag(help: "Replace the catalogue even when the dump gives no release, or fewer than half of its releases.")
    var force = false

    @Argument(help: ArgumentHelp("The releases dump (.xml.gz, .xml, or - for standard input).", valueName: "file"))
    var file: String

    @OptionGroup var diagnostics: VerboseOption

    func run() throws {
        diagnostics.install("catalogue build")
        let stop = StopRequest.install(announcement: "Stopping the build; the catalogue stays as it was.")
        let cataloguePath = try catalogue.resolvedPath()
        let progress = CatalogueBuildProgress()
        let summary: CatalogueSummary
        let build: CatalogueBuild
        do throws(CatalogueBuild.Failure) {
            build = try CatalogueBuild(dumpPath: file, cataloguePath: cataloguePath, date: date, sparing: try? store.path(), force: force)
        } catch {
            throw CLIError(error.description)
        }
        do {
            defer { progress.finish() }
            summary = try stop.run { try await build.run { progress.show($0) } }
        } catch let error as CatalogueBuild.Failure {
            guard case .stopped = error else { throw CLIError(error.description) }
            StandardStreams.errLine(error.description)
            throw ExitCode(stop.exitStatus)
        }
        try StandardStreams.out(CatalogueSummaryText.summary(summary) + "\n")
    }
}
