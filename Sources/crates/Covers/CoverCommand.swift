import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates cover ID [-o FILE]`: a record's (or a release's) cover image.
struct CoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cover",
        abstract: "Write a record's cover image to a file, or show it in the terminal.",
        discussion: """
            ID is a record's id (the first column of `crates list`) or a Discogs release \
            (r249504). The cover comes from the cache ($XDG_CACHE_HOME/crates/covers/, \
            default ~/.cache/crates/covers/), else from Discogs, once: its address comes only \
            with a signed answer, so a cover not cached yet needs `crates auth`. With -o the \
            image is written as Discogs sent it (JPEG or PNG; the file is replaced \
            atomically); without, it is drawn in the terminal when standard output is one, \
            and its bytes are written to standard output otherwise (a pipe, a file). What \
            is not a JPEG or a PNG (a GIF, a WebP, an SVG, a web page answering for the \
            image's address) is not written.

            Exit status:
              0  written or shown
              1  no such record, or it is not matched to a Discogs release
              2  Discogs has no cover for it, or what it sent is no JPEG or PNG (or larger
                 than 16 MB)
              3  not signed in (and the cover is not cached)
              4  Discogs could not be reached
              5  today's covers are fetched (1,000 a day): more tomorrow
             73  the cover cache cannot be written (a full disk; the image is written or
                 shown all the same when it was fetched)
             74  the image could not be written

            Examples:
              crates cover 12
              crates cover r249504 -o cover.jpg
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("A record's id, or a Discogs release (r249504).", valueName: "id"))
    var id: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the image to this file (- for standard output).", valueName: "file"))
    var output: String?

    @OptionGroup var diagnostics: VerboseOption

    func validate() throws {
        if output == "" { throw ValidationError("-o needs a file name (- for standard output)") }
        guard CoverTarget(id) != nil else {
            throw ValidationError("\(id) is neither a record's id (a number, as `crates list` shows) nor a release (r249504)")
        }
    }

    func run() throws {
        diagnostics.install("cover")
        guard let target = CoverTarget(id) else { throw ExitCode(64) }
        if let output { try store.checkOutput(output) }
        let preferences = ConfigurationFile.current()
        guard let cache = CoverCache.configured(limitBytes: preferences.coverCacheBytes) else {
            throw CLIError("HOME is not set: set XDG_CACHE_HOME (where covers are kept)")
        }
        let store = try self.store.open()
        let library = CoverLibrary(cache: cache, budget: CoverBudget(cache: cache), store: store, access: try? DiscogsAccess.make())
        let image: CoverLibrary.Image
        do {
            image = try blocking { () async throws -> CoverLibrary.Image in try await library.cover(of: target) }
        } catch let problem as CoverError {
            throw ExitCode.failing("\(id): \(problem)", problem.exitStatus)
        }
        if output == nil, StandardStreams.outputIsTerminal {
            try show(image.bytes)
        } else {
            // A cover is a JPEG or a PNG: a web page or another format at the image's address
            // is not written under a cover's name.
            guard image.isCover else {
                throw ExitCode.failing("\(id): \(CoverError.notAnImage)", CoverError.notAnImage.exitStatus)
            }
            do {
                try ExportFile.write(bytes: image.bytes, to: output ?? "-", sparing: try self.store.path())
            } catch {
                throw ExitCode.failing("\(error)", 74)
            }
        }
        if let notKept = image.notKept {
            throw ExitCode.failing("\(id): \(notKept) (the cover is fetched again next time)", notKept.exitStatus)
        }
    }

    /// Draws the image in the terminal's width (at most 60 columns), in the colours it shows.
    private func show(_ bytes: [UInt8]) throws {
        let columns = min(60, max(8, StandardStreams.outputWidth - 1))
        let colours = CoverColours(environment: ProcessInfo.processInfo.environment)
        guard let renderer = CoverRenderers.terminal,
            let art = renderer.render(bytes, columns: columns, rows: columns / 2, colours: colours)
        else {
            throw ExitCode.failing("\(id): not an image crates can show (-o FILE writes it as it is)", 2)
        }
        try StandardStreams.out(drawing: art.ansiLines(colours: colours))
    }
}
