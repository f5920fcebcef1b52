/// `GET /releases/{id}`: one release in full (the fields crates keeps; the whole body is
/// kept as `Release.rawJSON`).
public struct DiscogsRelease: Decodable, Hashable, Sendable {
    public struct Artist: Decodable, Hashable, Sendable {
        public var name: String
        /// The artist name variation printed on this release, or "".
        public var anv: String?
        /// How this credit joins the next: ",", "&", "Feat.", "Vs"… or "".
        public var join: String?
    }

    public struct Label: Decodable, Hashable, Sendable {
        public var name: String
        public var catno: String?
    }

    public struct Image: Decodable, Hashable, Sendable {
        public var type: String?
        public var uri150: String?
    }

    public struct Identifier: Decodable, Hashable, Sendable {
        public var type: String
        public var value: String
    }

    public var id: Int
    public var title: String
    public var year: Int?
    public var country: String?
    public var artists: [Artist]
    public var labels: [Label]
    public var formats: [DiscogsFormat]
    public var genres: [String]
    public var styles: [String]
    public var uri: String?
    public var thumb: String?
    public var images: [Image]
    public var identifiers: [Identifier]

    enum CodingKeys: String, CodingKey {
        case id, title, year, country, artists, labels, formats, genres, styles, uri, thumb, images, identifiers
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        title = (try? c.decodeIfPresent(String.self, forKey: .title)) ?? ""
        if let number = try? c.decodeIfPresent(Int.self, forKey: .year) {
            year = number
        } else {
            year = ((try? c.decodeIfPresent(String.self, forKey: .year)) ?? nil).flatMap { Int($0) }
        }
        country = try? c.decodeIfPresent(String.self, forKey: .country)
        artists = (try? c.decodeIfPresent([Artist].self, forKey: .artists)) ?? []
        labels = (try? c.decodeIfPresent([Label].self, forKey: .labels)) ?? []
        formats = (try? c.decodeIfPresent([DiscogsFormat].self, forKey: .formats)) ?? []
        genres = (try? c.decodeIfPresent([String].self, forKey: .genres)) ?? []
        styles = (try? c.decodeIfPresent([String].self, forKey: .styles)) ?? []
        uri = try? c.decodeIfPresent(String.self, forKey: .uri)
        thumb = try? c.decodeIfPresent(String.self, forKey: .thumb)
        images = (try? c.decodeIfPresent([Image].self, forKey: .images)) ?? []
        identifiers = (try? c.decodeIfPresent([Identifier].self, forKey: .identifiers)) ?? []
    }

    /// The credited artists as printed: each name variation (or name) without Discogs'
    /// markers, joined as Discogs joins them ("A & B", "A, B", "A Feat. B").
    public var artistDisplay: String {
        var out = ""
        for (i, artist) in artists.enumerated() {
            let printed = DiscogsText.nonEmpty(artist.anv) ?? ControlCharacters.cleaned(artist.name)
            out += DiscogsName.display(printed)
            guard i < artists.count - 1 else { break }
            let join = ControlCharacters.cleaned(artist.join ?? "").trimmingCharacters(in: " ")
            out += join.isEmpty || join == "," ? ", " : " \(join) "
        }
        return out
    }

    /// This release as crates keeps it. `rawJSON` is the body it was decoded from; `webBase`
    /// completes a relative `uri` (2014 responses sent "/release/1-…").
    public func release(rawJSON: String, webBase: String = "https://www.discogs.com") -> Release {
        let page: String? = DiscogsText.nonEmpty(uri).map { $0.hasPrefix("/") ? webBase + $0 : $0 }
        let thumbURL = DiscogsText.nonEmpty(thumb)
            ?? images.first(where: { $0.type == "primary" }).flatMap { DiscogsText.nonEmpty($0.uri150) }
            ?? images.first.flatMap { DiscogsText.nonEmpty($0.uri150) }
        return Release(
            id: id, artist: artistDisplay, title: ControlCharacters.cleaned(title),
            genres: genres.map(ControlCharacters.cleaned), styles: styles.map(ControlCharacters.cleaned),
            formats: formats.map(\.summary), year: year.flatMap { $0 > 0 ? $0 : nil },
            country: DiscogsText.nonEmpty(country),
            labels: labels.map {
                Release.LabelCredit(
                    name: DiscogsName.display(ControlCharacters.cleaned($0.name)),
                    // Discogs writes "none" for a release without a catalogue number.
                    catno: DiscogsText.nonEmpty($0.catno).flatMap { $0.lowercased() == "none" ? nil : $0 })
            },
            url: page, thumbURL: thumbURL, rawJSON: rawJSON)
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
