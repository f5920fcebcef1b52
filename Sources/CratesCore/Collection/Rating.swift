/// A collector's rating of one copy: Discogs' 0 to 5 stars, where 0 means "not rated"
/// (Discogs' "Change Rating Of Release": "from 0 (unrated) to 5 (best)").
public struct Rating: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// 0…5.
    public let value: Int

    /// No rating (Discogs' 0).
    public static let unrated = Rating(uncheckedValue: 0)
    public static let range = 0...5

    /// A rating from a number, refused outside 0…5.
    public init(_ value: Int) throws(RatingError) {
        guard Self.range.contains(value) else { throw .outOfRange(value) }
        self.value = value
    }

    /// A rating from a number out of a source that may be wrong (Discogs' JSON): values
    /// outside 0…5 are clamped rather than refused, so one odd copy cannot stop a sync.
    public init(clamping value: Int) {
        self.value = min(max(value, Self.range.lowerBound), Self.range.upperBound)
    }

    /// Reads a rating as a person types it: a whole number from 0 to 5, spaces around it
    /// allowed.
    public init(parsing text: String) throws(RatingError) {
        let trimmed = text.unicodeScalars.filter { !$0.properties.isWhitespace }
        let digits = String(String.UnicodeScalarView(trimmed))
        guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            throw .notANumber(ControlCharacters.cleaned(text))
        }
        try self.init(number)
    }

    private init(uncheckedValue: Int) {
        value = uncheckedValue
    }

    public var isRated: Bool { value > 0 }

    public static func < (a: Rating, b: Rating) -> Bool { a.value < b.value }

    public var description: String { String(value) }

    public init(from decoder: any Decoder) throws {
        let number = try decoder.singleValueContainer().decode(Int.self)
        do {
            try self.init(number)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
