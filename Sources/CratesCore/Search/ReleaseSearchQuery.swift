import Foundation

/// A search for releases (pressings) by Discogs' fields, checked before any request is spent:
/// a query that exists is one worth sending.
///
/// Values are kept as typed, trimmed of surrounding spaces (Discogs folds case and accents
/// itself); a blank field counts as not given.
public struct ReleaseSearchQuery: Hashable, Sendable {
    /// The longest field accepted, in characters. A title on a sleeve rarely passes 100;
    /// 200 leaves room for long classical titles while refusing a pasted page.
    public static let maximumLength = 200
    /// 1877, Edison's phonograph: no recording is older, so an earlier year is a typo.
    public static let earliestYear = 1877

    public internal(set) var artist: String?
    public internal(set) var title: String?
    /// The catalogue number as typed ("CDP 7 46001 2", "cdp7460012").
    public internal(set) var catno: String?
    public internal(set) var label: String?
    public internal(set) var year: Int?
    public internal(set) var country: String?
    public internal(set) var format: String?
    /// Free text over every field (Discogs' `q`).
    public internal(set) var text: String?

    /// Checks and keeps the fields given. `year` is text as typed ("1973"); `currentYear`
    /// bounds it (a release can be announced for next year).
    ///
    /// Refused, without a request: no field; only year, country or format; a field over
    /// `maximumLength` characters; a control or invisible formatting character (shown as an
    /// escape); a field without any letter or digit; a year that is not a number or not in
    /// `earliestYear…currentYear + 1`.
    public init(
        artist: String? = nil, title: String? = nil, catno: String? = nil, label: String? = nil,
        year: String? = nil, country: String? = nil, format: String? = nil, text: String? = nil,
        currentYear: Int = ReleaseSearchQuery.currentYear()
    ) throws(ReleaseSearchError) {
        self.artist = try Self.checked(artist, .artist)
        self.title = try Self.checked(title, .title)
        self.catno = try Self.checked(catno, .catno)
        self.label = try Self.checked(label, .label)
        self.country = try Self.checked(country, .country)
        self.format = try Self.checked(format, .format)
        self.text = try Self.checked(text, .text)
        self.year = try Self.checkedYear(year, currentYear: currentYear)
        let given = self.fields
        if given.isEmpty { throw .noField }
        if !given.contains(where: \.identifies) { throw .onlyNarrowingFields(given) }
    }

    /// The value of `field`, as it will be sent.
    public func value(of field: ReleaseSearchField) -> String? {
        switch field {
        case .artist: artist
        case .title: title
        case .catno: catno
        case .label: label
        case .year: year.map(String.init)
        case .country: country
        case .format: format
        case .text: text
        }
    }

    /// The fields given, in `ReleaseSearchField.allCases` order.
    public var fields: [ReleaseSearchField] {
        ReleaseSearchField.allCases.filter { value(of: $0) != nil }
    }

    /// Discogs' query parameters for the fields given (`type`, `page` and `per_page` are the
    /// client's), in a fixed order so that the same query is the same request.
    public var parameters: [(name: String, value: String)] {
        fields.compactMap { field in value(of: field).map { (field.parameter, $0) } }
    }

    /// This query with `field` set to `value` (nil removes it), for the searches derived from
    /// the one a person typed; not checked again.
    func replacing(_ field: ReleaseSearchField, with value: String?) -> ReleaseSearchQuery {
        var copy = self
        switch field {
        case .artist: copy.artist = value
        case .title: copy.title = value
        case .catno: copy.catno = value
        case .label: copy.label = value
        case .year: copy.year = value.flatMap { Int($0) }
        case .country: copy.country = value
        case .format: copy.format = value
        case .text: copy.text = value
        }
        return copy
    }

    /// This year in UTC.
    public static func currentYear(now: Date = Date()) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.component(.year, from: now)
    }

    // MARK: - Checks

    private static func checked(_ input: String?, _ field: ReleaseSearchField) throws(ReleaseSearchError) -> String? {
        guard let input else { return nil }
        if input.unicodeScalars.contains(where: ControlCharacters.isInvisible) {
            throw .controlCharacter(field, shown: EscapedText.displayForm(of: input, limit: 40))
        }
        let trimmed = Self.trimmed(input)
        if trimmed.isEmpty { return nil }
        let length = trimmed.count
        if length > maximumLength { throw .tooLong(field, length: length, limit: maximumLength) }
        if !trimmed.contains(where: TextFolding.isWordCharacter) {
            throw .noWords(field, shown: EscapedText.displayForm(of: trimmed, limit: 40))
        }
        return trimmed
    }

    private static func checkedYear(_ input: String?, currentYear: Int) throws(ReleaseSearchError) -> Int? {
        guard let text = try checked(input, .year) else { return nil }
        // Digits of any width ("１９７３" folds to "1973"); nothing else, not even a sign.
        let folded = TextFolding.fold(text)
        guard folded.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .yearNotANumber(shown: EscapedText.displayForm(of: text, limit: 40))
        }
        let latest = currentYear + 1
        guard let year = Int(folded), (earliestYear...latest).contains(year) else {
            throw .yearOutOfRange(shown: EscapedText.displayForm(of: text, limit: 40), earliest: earliestYear, latest: latest)
        }
        return year
    }

    /// Without the spaces around it (any Unicode space, a no-break space included).
    static func trimmed(_ text: String) -> String {
        var s = Substring(text)
        while let first = s.first, first.isWhitespace { s = s.dropFirst() }
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
