import CratesCore
import Foundation

/// What a catalogue is: which dump, how much it holds, when and how fast it was built
/// (`crates catalogue status`).
public struct CatalogueSummary: Hashable, Sendable {
    public var path: String
    public var edition: CatalogueEdition
    public var releases: Int
    /// Distinct barcodes indexed.
    public var barcodes: Int
    /// The file's size.
    public var bytes: Int64
    public var builtAt: Date
    /// How long the build took.
    public var seconds: Double
    /// Releases the build could not read (and releases listed twice).
    public var skipped: Int
    /// The first hundred of them, named ("release 123: not well-formed (invalid token)").
    public var skippedReleases: [String]

    public init(
        path: String, edition: CatalogueEdition, releases: Int, barcodes: Int, bytes: Int64, builtAt: Date, seconds: Double,
        skipped: Int, skippedReleases: [String]
    ) {
        self.path = path
        self.edition = edition
        self.releases = releases
        self.barcodes = barcodes
        self.bytes = bytes
        self.builtAt = builtAt
        self.seconds = seconds
        self.skipped = skipped
        self.skippedReleases = skippedReleases
    }

    /// ISO 8601 in UTC, to the second ("2026-06-03T14:02:11Z"). `UTCTimestamp`, not
    /// Foundation's formatter: opening a catalogue reads this date, and the formatter's
    /// first use loads ICU's data, a few milliseconds of every `crates check`.
    public static func timestamp(_ date: Date) -> String {
        UTCTimestamp.format(date, .iso8601)
    }

    static func date(_ text: String) -> Date? {
        UTCTimestamp.parse(text)
    }
}
