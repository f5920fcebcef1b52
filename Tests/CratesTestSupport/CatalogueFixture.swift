import CratesCore
import Foundation

/// A catalogue file for the tests that run the `crates` binary: the releases given, each
/// with its barcodes, built as `crates catalogue build` builds one, so that the binary opens
/// it through the product's one way in (`openReleaseCatalogue(path:)`, `--catalogue PATH`).
///
/// The catalogue file and its builder come with `crates catalogue build`: until they are part
/// of this build, `canBuild` is false and the tests that need a file are skipped. Pointing
/// `build` at them (a generated dump of `releases`, then `crates catalogue build --date`) is
/// all they need.
public enum CatalogueFixture {
    /// Whether `build` can make a catalogue file in this build.
    public static let canBuild = false

    /// Builds a catalogue of `releases` at `path`, dated `edition` (`YYYYMMDD`).
    public static func build(_ releases: [(release: Release, barcodes: [GTIN])], edition: String = "20260601", at path: String) throws {
        throw Unavailable()
    }

    /// Why `build` cannot make a file yet.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String { "this build has no catalogue file to build (crates catalogue build)" }
    }
}
