/// A field of a release search, as Discogs' `GET /database/search` names it.
public enum ReleaseSearchField: String, CaseIterable, Hashable, Sendable, Codable {
    case artist, title, catno, label, year, country, format
    /// Free text over every field (Discogs' `q`).
    case text

    /// The query parameter Discogs takes for this field.
    public var parameter: String {
        switch self {
        case .artist: "artist"
        case .title: "release_title"
        case .catno: "catno"
        case .label: "label"
        case .year: "year"
        case .country: "country"
        case .format: "format"
        case .text: "q"
        }
    }

    /// The field's name in a message to a person.
    public var name: String {
        switch self {
        case .catno: "catalogue number"
        case .text: "search text"
        default: rawValue
        }
    }

    /// Fields that identify a release (a name, a title, a number, free text), as opposed to
    /// those that only narrow a search (year, country, format): millions of releases share
    /// a year, a country or a format, so a search needs at least one identifying field.
    public var identifies: Bool {
        switch self {
        case .artist, .title, .catno, .label, .text: true
        case .year, .country, .format: false
        }
    }
}
