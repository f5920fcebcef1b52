import CratesCore
import CratesStore
import Foundation

/// The local Discogs catalogue of this run, as the commands and the collection UI use it:
/// `--catalogue PATH` > `$CRATES_CATALOGUE` > `$XDG_DATA_HOME/crates/discogs-catalogue.sqlite`
/// (> `$HOME/.local/share/crates/…`). With none there, everything works as without one:
/// Discogs is asked.
public enum ReleaseCatalogueAccess {
    /// The catalogue's path for a `--catalogue` value (nil when absent) and an environment;
    /// nil when nothing names one and HOME is not set.
    public static func path(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        try? CatalogueLocation.resolve(flag: flag, environment: environment)
    }

    /// The catalogue a run uses, and a warning when one was named (`--catalogue`,
    /// `$CRATES_CATALOGUE`) but is not there, or when the file there cannot be used (not a
    /// catalogue, not a regular file, writable by others): the run then asks Discogs, as
    /// without one. The default place having none is the ordinary case, and says nothing.
    public static func open(
        flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (catalogue: (any ReleaseCatalogue)?, warning: String?) {
        guard let path = path(flag: flag, environment: environment) else { return (nil, nil) }
        switch openReleaseCatalogue(path: path) {
        case .success(let catalogue): return (catalogue, nil)
        case .failure(.none):
            let named = !(flag ?? "").isEmpty || !(environment[CatalogueLocation.environmentVariable] ?? "").isEmpty
            let warning = named ? "no Discogs catalogue can be read at \(path) (`crates catalogue build` makes one): asking Discogs" : nil
            return (nil, warning)
        case .failure(let error):
            return (nil, "\(error) Asking Discogs instead.")
        }
    }
}

/// The one place the product opens a catalogue file (`crates catalogue build` makes it):
/// read-only; `.none` when there is none at `path`, else why it cannot be used (crates then
/// asks Discogs, as without one).
public func openReleaseCatalogue(path: String) -> Result<any ReleaseCatalogue, CatalogueFileError> {
    do throws(CatalogueFileError) {
        return .success(try DiscogsCatalogueFile(path: path))
    } catch {
        return .failure(error)
    }
}
