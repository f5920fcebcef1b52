import ArgumentParser
import CratesStore

/// `--db PATH`, shared by every command that opens the collection.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The collection database (default: $CRATES_DB, else $XDG_DATA_HOME/crates/crates.sqlite).",
        valueName: "path"))
    var db: String?

    /// The database's path, or exits with the store's message.
    func path() throws -> String {
        do {
            return try StoreLocation.resolve(flag: db)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// Opens the store, or exits with the store's message (never a stack trace).
    func open() throws -> CatalogueStore {
        do {
            return try CatalogueStore(path: try path())
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(error)")
        }
    }
}

/// An error the command line reports as one line on stderr, with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
