import CratesCore

/// A row known only by a Discogs release id that is not in the collection, and why.
public struct ImportUnresolved: Hashable, Sendable {
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// `--no-lookup`.
        case lookupsOff
        /// No saved Discogs credentials.
        case notSignedIn
        /// No saved Discogs credentials, and the local catalogue does not list the release
        /// (released after its dump).
        case notInCatalogue(CatalogueEdition)
        /// Discogs has no such release (deleted or merged).
        case noSuchRelease
        case failed(String)
        case stopped(LookupDriver.Stop)

        public var description: String {
            switch self {
            case .lookupsOff:
                "its barcode comes from Discogs: import again without --no-lookup"
            case .notSignedIn:
                "its barcode comes from Discogs: run `crates auth`, then import again"
            case .notInCatalogue(let edition):
                "not in the catalogue of \(edition), and its barcode comes from Discogs: run `crates auth`, then import again"
            case .noSuchRelease:
                "Discogs has no such release (deleted or merged?): scan the record's barcode in crates"
            case .failed(let message):
                "\(message): import again later"
            case .stopped(.interrupted), .stopped(.timedOut):
                "the import was interrupted: import again"
            case .stopped(.unauthorized):
                "Discogs refused the credentials: run `crates auth`, then import again"
            case .stopped(.offline):
                "Discogs cannot be reached: import again later"
            }
        }
    }

    /// The row's line, barcode and release: all a report says of it (not the whole entry: a
    /// Discogs export of 200,000 rows imported without lookups lists them all).
    public var line: Int
    public var gtin: GTIN?
    public var releaseID: Int?
    public var reason: Reason

    public init(entry: ImportEntry, reason: Reason) {
        self.init(line: entry.line, gtin: entry.gtin, releaseID: entry.releaseID, reason: reason)
    }

    public init(line: Int, gtin: GTIN?, releaseID: Int?, reason: Reason) {
        self.line = line
        self.gtin = gtin
        self.releaseID = releaseID
        self.reason = reason
    }
}
