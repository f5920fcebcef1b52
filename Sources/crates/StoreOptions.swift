import ArgumentParser
import CratesStore

/// `--db PATH`, shared by every command that opens the collection.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The collection database (default: $CRATES_DB, else $XDG_DATA_HOME/crates/crates.sqlite).",
        valueName: "path"))
    var db: String?

    /// Opens the store, or exits with the store's message (never a stack trace).
    func open() throws -> CatalogueStore {
        do {
            let path = try StoreLocation.resolve(flag: db)
            return try CatalogueStore(path: path)
        } catch {
            throw CLIError(error.description)
        }
    }
}

/// An error the command line reports as one line on stderr, with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
