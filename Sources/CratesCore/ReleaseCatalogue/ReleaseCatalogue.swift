/// Discogs' releases as its monthly data dump publishes them, kept on this machine: it answers
/// barcode, catalogue-number and artist/title questions with no request, offline and without
/// an account. Read-only; a newer dump replaces it whole (Discogs publishes no deltas).
///
/// The collection is what a person owns; the catalogue is everything that exists. Releases it
/// answers with are completed from the dump's fields (`Release.hasFullDetails` false: the
/// tracklist, notes and images still come from Discogs on demand).
public protocol ReleaseCatalogue: Sendable {
    /// The dump it was built from.
    var edition: CatalogueEdition { get }

    /// Every release that lists `barcode` among its identifiers, in release-id order. A UPC-A
    /// and its EAN-13 are one barcode (`GTIN.gtin14Value` is the key).
    ///
    /// The three `blocking` reads hold the calling thread for as long as the file takes (an
    /// index read, or a full-text search over millions of releases): async code asks through
    /// `releases(barcode:)`, `search(_:limit:)` and `release(id:)`, which run them off the
    /// cooperative pool. Only work that already runs on a thread of its own calls them
    /// directly: the catalogue pass, inside the store's write transaction on its queue.
    func blockingReleases(barcode: GTIN) throws(ReleaseCatalogueError) -> [Release]

    /// Releases answering `query`, best first, at most `limit`: artist and title by full-text
    /// search (accents and case folded), a catalogue number by `CatalogueNumber.key` (so
    /// "SOMA92", "soma 92" and "SOMA-92" find "SOMA 92"), free text over artist and title,
    /// narrowed by label, year, country and format when given.
    func blockingSearch(_ query: ReleaseSearchQuery, limit: Int) throws(ReleaseCatalogueError) -> [Release]

    /// The release `id` as the dump had it; nil when the dump did not list it.
    func blockingRelease(id: Int) throws(ReleaseCatalogueError) -> Release?

    /// Takes a newer catalogue built in this one's place since it was opened (`crates
    /// catalogue build` while the collection UI runs), so that what is asked next is answered
    /// from it; true when it did. The lookup worker asks between two batches, never within
    /// one: a batch's records are answered by one edition. A catalogue that cannot be
    /// replaced (by default) says false.
    func takeReplacement() -> Bool
}

extension ReleaseCatalogue {
    public func takeReplacement() -> Bool { false }

    /// `blockingReleases(barcode:)`, off the cooperative pool.
    public func releases(barcode: GTIN) async throws(ReleaseCatalogueError) -> [Release] {
        try await CatalogueReads.run { () throws(ReleaseCatalogueError) in try self.blockingReleases(barcode: barcode) }
    }

    /// `blockingSearch(_:limit:)`, off the cooperative pool.
    public func search(_ query: ReleaseSearchQuery, limit: Int) async throws(ReleaseCatalogueError) -> [Release] {
        try await CatalogueReads.run { () throws(ReleaseCatalogueError) in try self.blockingSearch(query, limit: limit) }
    }

    /// `blockingRelease(id:)`, off the cooperative pool.
    public func release(id: Int) async throws(ReleaseCatalogueError) -> Release? {
        try await CatalogueReads.run { () throws(ReleaseCatalogueError) in try self.blockingRelease(id: id) }
    }
}

/// Which dump a catalogue was built from.
public struct CatalogueEdition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The dump's date as Discogs names its files, `YYYYMMDD`.
    public var dumpDate: String

    public init(dumpDate: String) {
        self.dumpDate = dumpDate
    }

    /// The edition written as `description` shows it (`2026-06-01`), or as Discogs names its
    /// files (`20260601`); nil for anything else.
    public init?(shown: String) {
        let digits = shown.count == 10 ? shown.split(separator: "-").joined() : shown
        guard digits.count == 8, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              shown.count == 8 || (shown.split(separator: "-").map(\.count) == [4, 2, 2])
        else { return nil }
        self.init(dumpDate: digits)
    }

    /// `2026-06-01`: how people read the date ("from Discogs' data of 2026-06-01").
    public var description: String {
        let digits = Array(dumpDate)
        guard digits.count == 8 else { return dumpDate }
        return "\(String(digits[0..<4]))-\(String(digits[4..<6]))-\(String(digits[6..<8]))"
    }
}

/// Why the catalogue could not answer. The collection never depends on it: a failing
/// catalogue means asking Discogs, as without one.
public enum ReleaseCatalogueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file cannot be read (missing since opened, damaged, not a catalogue).
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "The Discogs catalogue \(path) cannot be read: \(reason)."
        }
    }
}
