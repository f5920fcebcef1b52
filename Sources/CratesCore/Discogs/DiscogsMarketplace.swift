import Foundation

/// A price in Discogs' marketplace answers: `{"currency": "USD", "value": 12.5}`.
public struct DiscogsPrice: Codable, Hashable, Sendable {
    public var currency: String
    public var value: Double

    public init(currency: String, value: Double) {
        self.currency = currency
        self.value = value
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

    /// The number in a value's text: the currency's letters and symbol before it ("A$",
    /// "€", "CHF "), "," grouping thousands and "." before the decimals, as Discogs' API
    /// writes every currency. Nil when the text holds no number.
    public static func amount(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.firstIndex(where: { $0.isASCII && ($0.isNumber || $0 == "-") }) else { return nil }
        let number = trimmed[first...].filter { $0 != "," && $0 != " " && $0 != "\u{00A0}" }
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return Double(number)
    }

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

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lowestPrice = try container.decodeIfPresent(DiscogsPrice.self, forKey: .lowestPrice)
        numForSale = try container.decodeIfPresent(Int.self, forKey: .numForSale)
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
