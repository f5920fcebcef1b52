/// Why a release search was not sent: the input would cost a request and find nothing (or
/// everything). Each message says what to change.
public enum ReleaseSearchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No field was given (or every field was blank).
    case noField
    /// Only year, country or format: they narrow a search but cannot make one.
    case onlyNarrowingFields([ReleaseSearchField])
    /// A field longer than `ReleaseSearchQuery.maximumLength` characters.
    case tooLong(ReleaseSearchField, length: Int, limit: Int)
    /// A control or invisible formatting character; `shown` is the input with escapes.
    case controlCharacter(ReleaseSearchField, shown: String)
    /// A field with no letter or digit at all ("---"): a text index finds no word in it.
    case noWords(ReleaseSearchField, shown: String)
    /// A year that is not a number.
    case yearNotANumber(shown: String)
    /// A year before the first recordings were sold, or after next year.
    case yearOutOfRange(shown: String, earliest: Int, latest: Int)

    public var description: String {
        switch self {
        case .noField:
            return "nothing to search for: give an artist, a title, a catalogue number, a label or search text"
        case .onlyNarrowingFields(let fields):
            let names = fields.map(\.name).joined(separator: ", ")
            let verb = fields.count == 1 ? "narrows" : "narrow"
            return "\(names) only \(verb) a search: give an artist, a title, a catalogue number, a label or search text as well"
        case .tooLong(let field, let length, let limit):
            return "the \(field.name) is \(length) characters long; a search field takes at most \(limit)"
        case .controlCharacter(let field, let shown):
            return "the \(field.name) contains a control character: \"\(shown)\"; type it again without"
        case .noWords(let field, let shown):
            return "the \(field.name) \"\(shown)\" has no letter or digit: Discogs cannot search for it"
        case .yearNotANumber(let shown):
            return "the year \"\(shown)\" is not a year: give four digits, e.g. 1973"
        case .yearOutOfRange(let year, let earliest, let latest):
            return "the year \(year) is out of range: records are from \(earliest) to \(latest)"
        }
    }
}
