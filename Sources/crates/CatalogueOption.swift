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
        Self.open(flag: path, command)
    }

    private static func open(flag: String?, _ command: String) -> (any ReleaseCatalogue)? {
        let (catalogue, warning) = ReleaseCatalogueAccess.open(flag: flag)
        if let warning { StandardStreams.errLine("\(command): \(warning)") }
        return catalogue
    }

    /// `open`, for a run that lasts (the collection UI): a newer catalogue built at the same
    /// path meanwhile is taken between two lookup batches (`FollowedReleaseCatalogue`).
    func openFollowed(_ command: String) -> (any ReleaseCatalogue)? {
        guard let resolved = ReleaseCatalogueAccess.path(flag: path) else { return nil }
        let flag = self.path
        let first = LockedBox(true)
        return FollowedReleaseCatalogue.open(path: resolved) { path in
            // The first opening says what is wrong, as every command does; a newer file that
            // cannot be used later is not said on a screen curses owns.
            if first.withLock({ $0 }) {
                first.withLock { $0 = false }
                return Self.open(flag: flag, command)
            }
            if case .success(let catalogue) = openReleaseCatalogue(path: path) { return catalogue }
            return nil
        }
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
