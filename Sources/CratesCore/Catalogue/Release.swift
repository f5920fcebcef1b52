import Foundation

/// What Discogs says about one release (one pressing), as crates keeps it.
public struct Release: Hashable, Sendable, Codable {
    /// A label credit: the label's name and the catalogue number it gave this release.
    public struct LabelCredit: Hashable, Sendable, Codable {
        public var name: String
        public var catno: String?
        public init(name: String, catno: String?) {
            self.name = name
            self.catno = catno
        }
    }

    public var id: Int
    /// For display: Discogs' " (2)" disambiguation suffixes and "*" name-variation markers
    /// removed (see `DiscogsName.display`). The raw names stay in `rawJSON`.
    public var artist: String
    public var title: String
    /// The first genre names the section the record is listed under.
    public var genres: [String]
    public var styles: [String]
    /// One entry per format, with its descriptions: "CD, Album", "Vinyl, LP, Album".
    public var formats: [String]
    public var year: Int?
    public var country: String?
    public var labels: [LabelCredit]
    /// The Discogs page, e.g. https://www.discogs.com/release/249504-…
    public var url: String?
    public var thumbURL: String?
    /// The JSON Discogs sent, kept so that nothing it said is lost.
    public var rawJSON: String

    public init(
        id: Int, artist: String, title: String, genres: [String] = [], styles: [String] = [],
        formats: [String] = [], year: Int? = nil, country: String? = nil, labels: [LabelCredit] = [],
        url: String? = nil, thumbURL: String? = nil, rawJSON: String = "{}"
    ) {
        self.id = id
        self.artist = artist
        self.title = title
        self.genres = genres
        self.styles = styles
        self.formats = formats
        self.year = year
        self.country = country
        self.labels = labels
        self.url = url
        self.thumbURL = thumbURL
        self.rawJSON = rawJSON
    }

    /// The section a record of this release is listed under.
    public var section: String { genres.first.flatMap { $0.isEmpty ? nil : $0 } ?? Section.unknown }
}

/// One of several pressings that share a barcode, kept for the user to choose from.
public struct ReleaseCandidate: Hashable, Sendable, Codable {
    public var releaseID: Int
    public var artist: String
    public var title: String
    public var country: String?
    public var year: Int?
    public var formats: [String]
    public var label: String?
    public var catno: String?
    public var thumbURL: String?

    public init(
        releaseID: Int, artist: String, title: String, country: String? = nil, year: Int? = nil,
        formats: [String] = [], label: String? = nil, catno: String? = nil, thumbURL: String? = nil
    ) {
        self.releaseID = releaseID
        self.artist = artist
        self.title = title
        self.country = country
        self.year = year
        self.formats = formats
        self.label = label
        self.catno = catno
        self.thumbURL = thumbURL
    }
}

/// Section names.
public enum Section {
    /// Records not yet matched, or whose release has no genre.
    public static let unknown = "Unknown"
}
