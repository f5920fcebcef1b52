/// `GET /database/search`: one page of results.
///
/// Decoding is lenient field by field: a result whose optional fields have an unexpected
/// shape keeps the fields that parse, so one odd entry cannot hide the others.
public struct DiscogsSearchPage: Decodable, Hashable, Sendable {
    public struct Pagination: Decodable, Hashable, Sendable {
        public var page: Int?
        public var pages: Int?
        public var items: Int?
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
        public var masterID: Int?
        public var uri: String?

        enum CodingKeys: String, CodingKey {
            case id, type, title, country, year, format, formats, label, catno, barcode, thumb, uri
            case masterID = "master_id"
        }

        public init(
            id: Int, type: String? = "release", title: String, country: String? = nil, year: Int? = nil,
            format: [String] = [], formats: [DiscogsFormat] = [], label: [String] = [], catno: String? = nil,
            barcode: [String] = [], thumb: String? = nil, masterID: Int? = nil, uri: String? = nil
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
            masterID = (try? c.decodeIfPresent(Int.self, forKey: .masterID)) ?? nil
            uri = try? c.decodeIfPresent(String.self, forKey: .uri)
        }

        /// True for a pressing (a `release` result, or an old result without a type).
        public var isRelease: Bool { type == nil || type == "release" }

        /// This hit as a candidate the user can choose from.
        public var candidate: ReleaseCandidate {
            let (artist, title) = DiscogsName.splitArtistTitle(ControlCharacters.cleaned(self.title))
            let formatTexts = formats.isEmpty
                ? (format.isEmpty ? [] : [format.map(ControlCharacters.cleaned).joined(separator: ", ")])
                : formats.map(\.summary)
            return ReleaseCandidate(
                releaseID: id, artist: artist, title: title,
                country: DiscogsText.nonEmpty(country), year: year.flatMap { $0 > 0 ? $0 : nil },
                formats: formatTexts,
                label: label.first.flatMap(DiscogsText.nonEmpty).map(DiscogsName.display),
                catno: DiscogsText.nonEmpty(catno).flatMap { $0.lowercased() == "none" ? nil : $0 },
                thumbURL: DiscogsText.nonEmpty(thumb))
        }
    }

    public var pagination: Pagination?
    public var results: [Result]

    public init(pagination: Pagination? = nil, results: [Result]) {
        self.pagination = pagination
        self.results = results
    }
}
