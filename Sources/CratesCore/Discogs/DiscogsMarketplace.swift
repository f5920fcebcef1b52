import Foundation

/// What a figure of Discogs' marketplace may be. A price below 0, or of a billion or more in
/// any currency (1e30 would be shown as 31 digits), is no price but a fault in the answer;
/// nor is a count below 0. Such a figure is refused where it is read, never stored or shown.
public enum MarketplaceFigure {
    /// A price is below this (in any of Discogs' currencies, the yen included).
    public static let priceLimit: Double = 1_000_000_000
    /// A count of copies for sale is at most this.
    public static let countLimit = 1_000_000_000
    /// The collection's value (many copies) is below this.
    public static let collectionLimit: Double = 1_000_000_000_000

    public static func isPrice(_ value: Double) -> Bool { value.isFinite && value >= 0 && value < priceLimit }
    public static func isCount(_ value: Int) -> Bool { (0...countLimit).contains(value) }
}

/// A price in Discogs' marketplace answers: `{"currency": "USD", "value": 12.5}`. One whose
/// value is no price (`MarketplaceFigure.isPrice`) does not decode.
public struct DiscogsPrice: Codable, Hashable, Sendable {
    public var currency: String
    public var value: Double

    public init(currency: String, value: Double) {
        self.currency = currency
        self.value = value
    }

    enum CodingKeys: String, CodingKey {
        case currency, value
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currency = try container.decode(String.self, forKey: .currency)
        value = try container.decode(Double.self, forKey: .value)
        guard MarketplaceFigure.isPrice(value) else {
            throw DecodingError.dataCorruptedError(forKey: .value, in: container, debugDescription: "\(value) is no price")
        }
    }
}

/// `GET /users/{username}/collection/value` (the owner only): the collection's minimum,
/// median and maximum as Discogs writes them, a currency symbol and grouped digits
/// ("A$1,597.46"). The text is kept as given; `amount` reads the number out of it.
public struct DiscogsCollectionValue: Codable, Hashable, Sendable {
    public var minimum: String
    public var median: String
    public var maximum: String

    public init(minimum: String, median: String, maximum: String) {
        self.minimum = minimum
        self.median = median
        self.maximum = maximum
    }

    /// The number in a value's text, as the currency's own writing has it: its letters and
    /// symbol before or after ("A$1,597.46", "1.597,46 €", "CHF 1'597.46"), digits grouped
    /// by thousands with ",", ".", "'" or a space, and the decimals after the last "," or "."
    /// when one or two digits follow it (money has two at most; three after a lone
    /// separator are a thousands group: "¥1,200"). Nil when the text holds no amount read so
    /// without doubt, a negative one, or one of a thousand billion or more.
    public static func amount(_ text: String) -> Double? {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: Self.isDigit), let last = scalars.lastIndex(where: Self.isDigit) else { return nil }
        // A sign (or anything but a currency's letters and symbols) before the number.
        if scalars[..<first].contains(where: { $0 == "-" || $0 == "\u{2212}" || Self.isDigit($0) }) { return nil }
        let body = scalars[first...last]
        var groups: [String] = [""]
        var separators: [Unicode.Scalar] = []
        for scalar in body {
            if Self.isDigit(scalar) {
                groups[groups.count - 1].unicodeScalars.append(scalar)
            } else if [",", ".", "'", " ", "\u{00A0}", "\u{202F}", "\u{2009}"].contains(scalar) {
                separators.append(scalar)
                groups.append("")
            } else {
                return nil  // "1e30", "12-50": not an amount
            }
        }
        guard !groups.contains(where: \.isEmpty) else { return nil }
        var decimals = ""
        if let mark = separators.last, mark == "," || mark == ".", let tail = groups.last, tail.count <= 2 {
            decimals = tail
            groups.removeLast()
            separators.removeLast()
        }
        // The rest group thousands: one kind of separator, three digits a group after the first.
        guard Set(separators).count <= 1, groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
        if let mark = separators.first, !decimals.isEmpty, let decimalMark = body.last(where: { $0 == "," || $0 == "." }), mark == decimalMark {
            return nil  // "1,597,46": one mark for the groups and the decimals
        }
        guard let value = Double(groups.joined() + (decimals.isEmpty ? "" : "." + decimals)),
              value < MarketplaceFigure.collectionLimit
        else { return nil }
        return value
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    public var minimumAmount: Double? { Self.amount(minimum) }
    public var medianAmount: Double? { Self.amount(median) }
    public var maximumAmount: Double? { Self.amount(maximum) }
}

/// `GET /marketplace/stats/{release_id}[?curr_abbr=…]`: the lowest price listed for a
/// release and how many copies are for sale. `lowest_price` is null when none is listed.
public struct DiscogsMarketplaceStats: Codable, Hashable, Sendable {
    public var lowestPrice: DiscogsPrice?
    public var numForSale: Int?
    public var blockedFromSale: Bool

    public init(lowestPrice: DiscogsPrice?, numForSale: Int?, blockedFromSale: Bool = false) {
        self.lowestPrice = lowestPrice
        self.numForSale = numForSale
        self.blockedFromSale = blockedFromSale
    }

    enum CodingKeys: String, CodingKey {
        case lowestPrice = "lowest_price"
        case numForSale = "num_for_sale"
        case blockedFromSale = "blocked_from_sale"
    }

    /// A price or count that is none (`MarketplaceFigure`) does not decode: the whole answer
    /// is unreadable, and the refresh names the release and goes on.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lowestPrice = try container.decodeIfPresent(DiscogsPrice.self, forKey: .lowestPrice)
        numForSale = try container.decodeIfPresent(Int.self, forKey: .numForSale)
        if let numForSale, !MarketplaceFigure.isCount(numForSale) {
            throw DecodingError.dataCorruptedError(forKey: .numForSale, in: container, debugDescription: "\(numForSale) is no count")
        }
        blockedFromSale = try container.decodeIfPresent(Bool.self, forKey: .blockedFromSale) ?? false
    }
}

/// `GET /marketplace/price_suggestions/{release_id}`: a suggested price for each media
/// grade, keyed by Discogs' grade names ("Very Good Plus (VG+)"). Discogs answers `{}` (or
/// 403) to an account without seller settings: `isEmpty` then, which says nothing of the
/// release.
public struct DiscogsPriceSuggestions: Hashable, Sendable {
    public var byGrade: [MediaCondition: DiscogsPrice]

    public init(byGrade: [MediaCondition: DiscogsPrice]) {
        self.byGrade = byGrade
    }

    public var isEmpty: Bool { byGrade.isEmpty }

    /// The answer's bytes read: members that are not a grade crates knows, or not a price,
    /// are left out.
    public static func decode(_ data: Data) throws -> DiscogsPriceSuggestions {
        let members = try JSONDecoder().decode([String: DiscogsPriceMember].self, from: data)
        var byGrade: [MediaCondition: DiscogsPrice] = [:]
        for (name, member) in members {
            if let grade = MediaCondition(rawValue: name), let price = member.price { byGrade[grade] = price }
        }
        return DiscogsPriceSuggestions(byGrade: byGrade)
    }
}

/// A member of the suggestions' object, which may be something other than a price.
struct DiscogsPriceMember: Decodable {
    var price: DiscogsPrice?

    init(from decoder: any Decoder) throws {
        price = try? DiscogsPrice(from: decoder)
    }
}
