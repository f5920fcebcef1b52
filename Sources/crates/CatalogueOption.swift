import ArgumentParser
import CratesApp
import CratesCore
import CratesStore

/// `--catalogue PATH`: the local Discogs catalogue the command asks before Discogs. One
/// option group of one type for every command that uses it (the root and `crates import`
/// share it through `LookupOptions`, as ArgumentParser hands a root's group to a subcommand).
struct CatalogueOption: ParsableArguments {
    @Option(name: .customLong("catalogue"), help: ArgumentHelp(
        "The local Discogs catalogue (default: $CRATES_CATALOGUE, else $XDG_DATA_HOME/crates/discogs-catalogue.sqlite).",
        valueName: "path"))
    var path: String?

    /// The catalogue, or nil when there is none (a named one that cannot be read says so on
    /// standard error, after `command`, "crates import", and the command asks Discogs).
    func open(_ command: String) -> (any ReleaseCatalogue)? {
        let (catalogue, warning) = ReleaseCatalogueAccess.open(flag: path)
        if let warning { StandardStreams.errLine("\(command): \(warning)") }
        return catalogue
    }

    /// The catalogue's path (`--catalogue`, else `$CRATES_CATALOGUE`, else the default), or
    /// exits with the message: for the commands that make or inspect the catalogue itself.
    func resolvedPath() throws -> String {
        do {
            return try CatalogueLocation.resolve(flag: path)
        } catch {
            throw CLIError(error.description)
        }
    }
}
