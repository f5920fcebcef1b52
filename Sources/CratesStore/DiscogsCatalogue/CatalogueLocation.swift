import Foundation

/// Where the Discogs catalogue's file lives: beside the collection, in a file of its own.
///
/// Precedence: `--catalogue PATH` > `CRATES_CATALOGUE` >
/// `$XDG_DATA_HOME/crates/discogs-catalogue.sqlite` > `$HOME/.local/share/crates/…`.
public enum CatalogueLocation {
    public static let environmentVariable = "CRATES_CATALOGUE"
    public static let fileName = "discogs-catalogue.sqlite"

    /// The catalogue's path for a `--catalogue` value (nil when absent) and an environment.
    /// Does not touch the file system.
    public static func resolve(flag: String?, environment: [String: String]) throws(StoreError) -> String {
        guard let path = StoreLocation.dataFile(flag: flag, variable: environmentVariable, fileName: fileName, environment: environment)
        else {
            throw .cannotOpen(
                path: "~/.local/share/crates/\(fileName)",
                reason: "HOME is not set; pass --catalogue PATH or set \(environmentVariable)")
        }
        return path
    }

    /// `resolve(flag:environment:)` with this process's environment.
    public static func resolve(flag: String?) throws(StoreError) -> String {
        try resolve(flag: flag, environment: ProcessInfo.processInfo.environment)
    }

    /// The file a build writes before it becomes the catalogue: beside it, so that the swap
    /// is one rename on one file system.
    public static func buildingPath(for path: String) -> String { path + ".building" }
}
