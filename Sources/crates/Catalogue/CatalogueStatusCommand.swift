import ArgumentParser
import CratesApp
import CratesStore

/// `crates catalogue status [--json]`.
struct CatalogueStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Say which dump the catalogue was built from and what it holds.",
        discussion: """
            Its path, the dump's date, the releases and distinct barcodes it holds, its size, \
            when it was built and how long that took, and the releases the build skipped.

            With --json, one object: "path", "date" (YYYY-MM-DD), "releases", "barcodes", \
            "bytes", "builtAt" (ISO 8601), "seconds", "skipped".

            Exit status: 0; 1 when there is no catalogue (or it cannot be read).

            Examples:
              crates catalogue status
              crates catalogue status --json | jq .releases
            """)

    @OptionGroup var catalogue: CatalogueOption

    @Flag(name: .long, help: "One JSON object.")
    var json = false

    func run() throws {
        let summary: CatalogueSummary
        do {
            summary = try DiscogsCatalogueFile(path: try catalogue.resolvedPath()).summary
        } catch let error as CatalogueFileError {
            throw CLIError(error.description)
        }
        try StandardStreams.out((json ? CatalogueSummaryText.json(summary) : CatalogueSummaryText.status(summary)) + "\n")
    }
}

/// `crates catalogue remove`.
struct CatalogueRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the catalogue (the collection is not touched).",
        discussion: """
            Lookups and searches go to Discogs again, as without a catalogue. Only a catalogue \
            crates built is removed: the collection (--db, $CRATES_DB), a directory or any \
            other file at that path is refused and left as it is.

            Exit status: 0 when removed; 1 when there was none, or what is there is no catalogue.

            Examples:
              crates catalogue remove
              crates catalogue remove --catalogue ~/old-catalogue.sqlite
            """)

    @OptionGroup var catalogue: CatalogueOption

    @OptionGroup var store: StoreOptions

    func run() throws {
        let path = try catalogue.resolvedPath()
        do {
            try DiscogsCatalogueFile.remove(path: path, sparing: try? store.path())
        } catch {
            throw CLIError(error.description)
        }
        try StandardStreams.out("Removed the Discogs catalogue \(path).\n")
    }
}
