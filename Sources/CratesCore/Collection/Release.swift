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
    /// The JSON Discogs sent, kept so that nothing it said is lost: the release
    /// (`GET /releases/{id}`), or the search result it was completed from.
    public var rawJSON: String
    /// True when the release itself was fetched (tracklist, credits, identifiers, notes are
    /// in `rawJSON`); false when it was completed from a search result, which carries only
    /// what the list shows.
    public var hasFullDetails: Bool

    public init(
        id: Int, artist: String, title: String, genres: [String] = [], styles: [String] = [],
        formats: [String] = [], year: Int? = nil, country: String? = nil, labels: [LabelCredit] = [],
        url: String? = nil, thumbURL: String? = nil, rawJSON: String = "{}", hasFullDetails: Bool = true
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
        self.hasFullDetails = hasFullDetails
    }

    enum CodingKeys: String, CodingKey {
        case id, artist, title, genres, styles, formats, year, country, labels, url, thumbURL, rawJSON, hasFullDetails
    }

    /// Decodes what `encode(to:)` wrote; `hasFullDetails` is true when absent (releases
    /// encoded before it existed were all fetched in full).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        artist = try c.decode(String.self, forKey: .artist)
        title = try c.decode(String.self, forKey: .title)
        genres = try c.decode([String].self, forKey: .genres)
        styles = try c.decode([String].self, forKey: .styles)
        formats = try c.decode([String].self, forKey: .formats)
        year = try c.decodeIfPresent(Int.self, forKey: .year)
        country = try c.decodeIfPresent(String.self, forKey: .country)
        labels = try c.decode([LabelCredit].self, forKey: .labels)
        url = try c.decodeIfPresent(String.self, forKey: .url)
        thumbURL = try c.decodeIfPresent(String.self, forKey: .thumbURL)
        rawJSON = try c.decode(String.self, forKey: .rawJSON)
        hasFullDetails = try c.decodeIfPresent(Bool.self, forKey: .hasFullDetails) ?? true
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
    /// The cover's full-size address (a search result's `cover_image`): the picker fetches
    /// this one rather than the thumbnail, because the cover cache keeps one image a release
    /// for every use (the details, `crates cover -o`). Nil in candidates stored before it was kept.
    public var coverURL: String?

    public init(
        releaseID: Int, artist: String, title: String, country: String? = nil, year: Int? = nil,
        formats: [String] = [], label: String? = nil, catno: String? = nil, thumbURL: String? = nil,
        coverURL: String? = nil
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
        self.coverURL = coverURL
    }
}

/// Section names.
public enum Section {
    /// Records not yet matched, or whose release has no genre.
    public static let unknown = "Unknown"
}
