import Foundation

/// A field of a record that a collector can set over Discogs' value (`crates edit --year 1974`,
/// `--clear year`), and that a record entered by hand is made of. The raw values are the
/// command line's names.
public enum RecordField: String, CaseIterable, Hashable, Sendable, Codable {
    case artist, title, genre, year, format, label, catno, country

    /// The field's name in a message to a person.
    public var name: String {
        switch self {
        case .catno: "catalogue number"
        default: rawValue
        }
    }

    /// The field named `text` (its command-line name, any case; "catalogue number" too).
    public static func named(_ text: String) -> RecordField? {
        let folded = text.trimmingCharacters(in: .whitespaces).lowercased()
        return allCases.first { $0.rawValue == folded || $0.name == folded }
    }

    /// "artist, title, genre, year, format, label, catno, country".
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// What a record says about itself apart from its barcode: artist, title, genre, year,
/// format, label, catalogue number and country. Used three ways:
/// - the collector's own values (`CollectionRecord.collector`): each set field wins over
///   Discogs' value, and a lookup never touches them;
/// - Discogs' values, read from a release (`init(release:)`);
/// - the values shown, the collector's over Discogs' (`over(_:)`).
public struct RecordFields: Hashable, Sendable, Codable {
    public var artist: String?
    public var title: String?
    /// The genre names the section the record is listed under.
    public var genre: String?
    public var year: Int?
    /// "Vinyl, LP, Album"; several joined with " + ", as the list shows them.
    public var format: String?
    /// Label names, several joined with ", ".
    public var label: String?
    /// Catalogue numbers as printed, several joined with ", ".
    public var catno: String?
    public var country: String?

    public init(
        artist: String? = nil, title: String? = nil, genre: String? = nil, year: Int? = nil,
        format: String? = nil, label: String? = nil, catno: String? = nil, country: String? = nil
    ) {
        self.artist = artist
        self.title = title
        self.genre = genre
        self.year = year
        self.format = format
        self.label = label
        self.catno = catno
        self.country = country
    }

    /// No field given.
    public static let none = RecordFields()

    /// Discogs' values for a release, as the list and the exports show them: the first
    /// genre, the formats joined with " + ", the label names and catalogue numbers joined
    /// with ", ". Empty texts are absent.
    public init(release: Release) {
        func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }
        self.init(
            artist: nonEmpty(release.artist), title: nonEmpty(release.title),
            genre: release.genres.first.flatMap(nonEmpty), year: release.year,
            format: nonEmpty(release.formatsText), label: nonEmpty(release.labelNamesText),
            catno: nonEmpty(release.catalogNumbersText), country: release.country.flatMap(nonEmpty))
    }

    /// The value of `field` as text (the year in digits), nil when not given.
    public subscript(field: RecordField) -> String? {
        get {
            switch field {
            case .artist: artist
            case .title: title
            case .genre: genre
            case .year: year.map(String.init)
            case .format: format
            case .label: label
            case .catno: catno
            case .country: country
            }
        }
    }

    /// Sets `field` to a value already checked (`RecordFieldValue.checked`); nil removes it.
    public mutating func set(_ field: RecordField, _ value: String?) {
        switch field {
        case .artist: artist = value
        case .title: title = value
        case .genre: genre = value
        case .year: year = value.flatMap { Int($0) }
        case .format: format = value
        case .label: label = value
        case .catno: catno = value
        case .country: country = value
        }
    }

    /// The fields given, in `RecordField.allCases` order.
    public var fields: [RecordField] { RecordField.allCases.filter { self[$0] != nil } }

    public var isEmpty: Bool { fields.isEmpty }

    /// These values where given, `base`'s elsewhere: the collector's over Discogs'.
    public func over(_ base: RecordFields) -> RecordFields {
        RecordFields(
            artist: artist ?? base.artist, title: title ?? base.title, genre: genre ?? base.genre,
            year: year ?? base.year, format: format ?? base.format, label: label ?? base.label,
            catno: catno ?? base.catno, country: country ?? base.country)
    }

    /// The values shown for a record: `collector`'s over the release's (when matched).
    public static func shown(collector: RecordFields, release: Release?) -> RecordFields {
        collector.over(release.map(RecordFields.init(release:)) ?? .none)
    }

    /// What identifies a copy described without a barcode (an import row, a record entered
    /// by hand), for the duplicate rule: the catalogue-number key, the artist's words and
    /// the title's words, folded ("SHVL 804|pink floyd|the dark side of the moon" for any
    /// spelling of those). Nil when there is neither a catalogue number nor a title.
    public var entryKey: String? {
        let catnoKey = catno.map(CatalogueNumber.key) ?? ""
        let titleWords = title.map { TextFolding.words($0).joined(separator: " ") } ?? ""
        guard !catnoKey.isEmpty || !titleWords.isEmpty else { return nil }
        let artistWords = artist.map { TextFolding.words($0).joined(separator: " ") } ?? ""
        return [catnoKey, artistWords, titleWords].joined(separator: "|")
    }

    /// The search that finds the release these values describe (artist, title, catalogue
    /// number, label, year, country, format; the genre is crates' own), checked like any
    /// search; nil when they cannot make one (nothing that identifies a release).
    public var searchQuery: ReleaseSearchQuery? {
        try? ReleaseSearchQuery(
            artist: artist, title: title, catno: catno, label: label, year: year.map(String.init),
            country: country, format: format)
    }
}

extension RecordFields: CustomStringConvertible {
    /// "Pink Floyd — The Dark Side Of The Moon (SHVL 804)", "SHVL 804" when that is all.
    public var description: String {
        let name = title.map { DisplayTitle.of(artist: artist ?? "", title: $0) } ?? artist
        switch (name, catno) {
        case let (name?, catno?): return "\(name) (\(catno))"
        case let (name?, nil): return name
        case let (nil, catno?): return catno
        case (nil, nil): return ""
        }
    }
}
