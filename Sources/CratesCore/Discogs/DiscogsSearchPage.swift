import Foundation

/// `GET /database/search`: one page of results.
///
/// Decoding is lenient field by field: a result whose optional fields have an unexpected
/// shape keeps the fields that parse, so one odd entry cannot hide the others.
public struct DiscogsSearchPage: Decodable, Hashable, Sendable {
    public struct Pagination: Decodable, Hashable, Sendable {
        public var page: Int?
        public var pages: Int?
        public var items: Int?
        public var perPage: Int?

        enum CodingKeys: String, CodingKey {
            case page, pages, items
            case perPage = "per_page"
        }

        public init(page: Int? = nil, pages: Int? = nil, items: Int? = nil, perPage: Int? = nil) {
            self.page = page
            self.pages = pages
            self.items = items
            self.perPage = perPage
        }
    }

    /// One search hit. For `type=release`, one pressing.
    public struct Result: Decodable, Hashable, Sendable {
        public var id: Int
        /// "release", "master", "artist" or "label"; absent in some old responses.
        public var type: String?
        /// "Artist - Title", with Discogs' name markers ("Prodigy*", "Arthus (2)").
        public var title: String
        public var country: String?
        public var year: Int?
        /// Flat list: the format names and descriptions of every format, e.g. ["CD", "Album"].
        public var format: [String]
        /// Structured formats (modern responses only).
        public var formats: [DiscogsFormat]
        public var label: [String]
        public var catno: String?
        /// Every identifier Discogs holds for the release, as typed by its editors: the EAN,
        /// but also matrix/runout text, rights society codes… Never take `barcode[0]` for
        /// the EAN.
        public var barcode: [String]
        public var thumb: String?
        /// The primary image at full size (signed answers only).
        public var coverImage: String?
        public var masterID: Int?
        public var uri: String?
        public var genre: [String]
        public var style: [String]
        /// This result as Discogs sent it, re-encoded compactly with sorted keys (the search
        /// page is decoded as a whole, so the result's own bytes are not at hand): kept as
        /// the `rawJSON` of a release completed from it. Nil for a result built in code.
        public var rawJSON: String?

        enum CodingKeys: String, CodingKey {
            case id, type, title, country, year, format, formats, label, catno, barcode, thumb, uri, genre, style
            case masterID = "master_id"
            case coverImage = "cover_image"
        }

        public init(
            id: Int, type: String? = "release", title: String, country: String? = nil, year: Int? = nil,
            format: [String] = [], formats: [DiscogsFormat] = [], label: [String] = [], catno: String? = nil,
            barcode: [String] = [], thumb: String? = nil, masterID: Int? = nil, uri: String? = nil,
            genre: [String] = [], style: [String] = [], rawJSON: String? = nil, coverImage: String? = nil
        ) {
            self.id = id
            self.type = type
            self.title = title
            self.country = country
            self.year = year
            self.format = format
            self.formats = formats
            self.label = label
            self.catno = catno
            self.barcode = barcode
            self.thumb = thumb
            self.masterID = masterID
            self.uri = uri
            self.genre = genre
            self.style = style
            self.rawJSON = rawJSON
            self.coverImage = coverImage
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(Int.self, forKey: .id)
            type = try? c.decodeIfPresent(String.self, forKey: .type)
            title = (try? c.decodeIfPresent(String.self, forKey: .title)) ?? ""
            country = try? c.decodeIfPresent(String.self, forKey: .country)
            // A string ("2018") in every recorded search; a number in releases. Accept both.
            if let text = try? c.decodeIfPresent(String.self, forKey: .year) {
                year = Int(text)
            } else {
                year = (try? c.decodeIfPresent(Int.self, forKey: .year)) ?? nil
            }
            format = (try? c.decodeIfPresent([String].self, forKey: .format)) ?? []
            formats = (try? c.decodeIfPresent([DiscogsFormat].self, forKey: .formats)) ?? []
            label = (try? c.decodeIfPresent([String].self, forKey: .label)) ?? []
            catno = try? c.decodeIfPresent(String.self, forKey: .catno)
            barcode = (try? c.decodeIfPresent([String].self, forKey: .barcode)) ?? []
            thumb = try? c.decodeIfPresent(String.self, forKey: .thumb)
            coverImage = try? c.decodeIfPresent(String.self, forKey: .coverImage)
            masterID = (try? c.decodeIfPresent(Int.self, forKey: .masterID)) ?? nil
            uri = try? c.decodeIfPresent(String.self, forKey: .uri)
            genre = (try? c.decodeIfPresent([String].self, forKey: .genre)) ?? []
            style = (try? c.decodeIfPresent([String].self, forKey: .style)) ?? []
            rawJSON = (try? JSONValue(from: decoder)).flatMap(Self.encoded)
        }

        private static func encoded(_ value: JSONValue) -> String? {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
        }

        /// True for a pressing (a `release` result, or an old result without a type).
        public var isRelease: Bool { type == nil || type == "release" }

        /// This hit as a candidate the user can choose from.
        public var candidate: ReleaseCandidate {
            let (artist, title) = DiscogsName.splitArtistTitle(ControlCharacters.cleaned(self.title))
            return ReleaseCandidate(
                releaseID: id, artist: artist, title: title,
                country: DiscogsText.nonEmpty(country), year: year.flatMap { $0 > 0 ? $0 : nil },
                formats: formatSummaries,
                label: label.first.flatMap(DiscogsText.nonEmpty).map(DiscogsName.display),
                catno: catalogueNumber,
                thumbURL: DiscogsText.nonEmpty(thumb), coverURL: DiscogsText.nonEmpty(coverImage))
        }

        /// One text per format ("Vinyl, LP, Album"), from the structured formats when
        /// present, else the flat list as one format.
        public var formatSummaries: [String] {
            formats.isEmpty
                ? (format.isEmpty ? [] : [format.map(ControlCharacters.cleaned).joined(separator: ", ")])
                : formats.map(\.summary)
        }

        /// The catalogue number, cleaned; nil when blank or Discogs' "none".
        public var catalogueNumber: String? {
            DiscogsText.nonEmpty(catno).flatMap { CatalogueNumber.isNone($0) ? nil : $0 }
        }
    }

    public var pagination: Pagination?
    public var results: [Result]

    public init(pagination: Pagination? = nil, results: [Result]) {
        self.pagination = pagination
        self.results = results
    }
}
