import Foundation

/// What the collection is worth as Discogs prices it, for `crates value`: the collection's
/// own value (Discogs' minimum, median and maximum, their text kept), and for each copy the
/// lowest price listed for its release, how many are for sale, and the price suggested for
/// its media grade. Every figure carries the date it was asked; none is made up (a figure
/// Discogs did not give is nil, shown as unknown).
public struct CollectionValueReport: Hashable, Sendable {
    /// The collection's value as Discogs gave it.
    public struct CollectionFigure: Hashable, Sendable {
        public var value: DiscogsCollectionValue
        public var at: Date

        public init(value: DiscogsCollectionValue, at: Date) {
            self.value = value
            self.at = at
        }
    }

    /// One copy's figures.
    public struct CopyFigure: Hashable, Sendable {
        public var id: Int64
        public var releaseID: Int
        public var grade: MediaCondition?
        /// The lowest price listed for the release; nil: none listed, or not asked yet.
        public var lowestPrice: Double?
        public var forSale: Int?
        /// The price Discogs suggests for the copy's media grade (seller settings only).
        public var suggestedPrice: Double?
        /// When the release's figures were asked; nil: never.
        public var at: Date?
        /// "Artist — Title" as the list shows the copy (for a person's reading; not in the
        /// JSON).
        public var title: String?

        public init(
            id: Int64, releaseID: Int, grade: MediaCondition?, lowestPrice: Double?, forSale: Int?, suggestedPrice: Double?,
            at: Date?, title: String? = nil
        ) {
            self.title = title
            self.id = id
            self.releaseID = releaseID
            self.grade = grade
            self.lowestPrice = lowestPrice
            self.forSale = forSale
            self.suggestedPrice = suggestedPrice
            self.at = at
        }

        /// What the copy is worth by its figures: the price suggested for its grade, else the
        /// lowest listed; nil when Discogs gave neither.
        public var worth: Double? { suggestedPrice ?? lowestPrice }

        /// Each figure with where it comes from and its date, in words: "lowest listed
        /// 12.49 (3 for sale), 2026-11-25", "suggested for VG+ 7.20, 2026-11-25".
        public func labels(currency: String) -> [String] {
            let day = at.map { String(UTCTimestamp.format($0, .iso8601).prefix(10)) } ?? "never asked"
            var labels: [String] = []
            if let lowestPrice {
                let sale = forSale.map { ", \($0) for sale" } ?? ""
                labels.append("lowest listed \(CollectionValueReport.money(lowestPrice, currency))\(sale), \(day)")
            } else if at != nil {
                labels.append("none listed, \(day)")
            }
            if let suggestedPrice, let grade {
                labels.append("suggested for \(grade.abbreviation) \(CollectionValueReport.money(suggestedPrice, currency)), \(day)")
            }
            return labels
        }

        /// The details view's line: "lowest listed 12.00 EUR (3 for sale, 2026-11-25);
        /// suggested for VG+ 15.50 EUR"; nil when nothing is known. `currency` "" (the
        /// account's, not named when stored) leaves the amounts without a code.
        public func detailsText(currency: String) -> String? {
            guard let at else { return nil }
            let day = String(UTCTimestamp.format(at, .iso8601).prefix(10))
            func money(_ amount: Double) -> String { CollectionValueReport.money(amount, currency) }
            var parts: [String] = []
            if let lowestPrice {
                let sale = forSale.map { "\($0) for sale, " } ?? ""
                parts.append("lowest listed \(money(lowestPrice)) (\(sale)\(day))")
            } else {
                parts.append("none listed (\(day))")
            }
            if let suggestedPrice, let grade { parts.append("suggested for \(grade.abbreviation) \(money(suggestedPrice))") }
            return parts.joined(separator: "; ")
        }
    }

    public var currency: String
    public var collection: CollectionFigure?
    public var records: [CopyFigure]

    public init(currency: String, collection: CollectionFigure?, records: [CopyFigure]) {
        self.currency = currency
        self.collection = collection
        self.records = records
    }

    /// An amount with two decimals and its currency code: "12.49 USD"; without a code when
    /// the currency is not known ("", the account's when stored from a release fetch).
    public static func money(_ amount: Double, _ currency: String) -> String {
        currency.isEmpty ? String(format: "%.2f", amount) : String(format: "%.2f %@", amount, currency)
    }

    /// One JSON object: `currency`; `collection` with `minimum`, `median`, `maximum` as
    /// numbers, `text` (Discogs' strings as given) and `at` (null when never asked);
    /// `records`, one per copy, with `id`, `releaseId`, `lowestPrice`, `forSale`, `grade`,
    /// `suggestedPrice` (null where unknown) and `at`.
    public var json: String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        func date(_ value: Date?) -> String {
            value.map { JSONStringLiteral.quoted(UTCTimestamp.format($0, .iso8601)) } ?? "null"
        }
        let collection: String
        if let figure = self.collection {
            let value = figure.value
            let text = "{\"minimum\":\(JSONStringLiteral.quoted(value.minimum)),\"median\":\(JSONStringLiteral.quoted(value.median)),"
                + "\"maximum\":\(JSONStringLiteral.quoted(value.maximum))}"
            collection = "{\"minimum\":\(number(value.minimumAmount)),\"median\":\(number(value.medianAmount)),"
                + "\"maximum\":\(number(value.maximumAmount)),\"text\":\(text),\"at\":\(date(figure.at))}"
        } else {
            collection = "null"
        }
        let records = self.records.map { copy in
            "{\"id\":\(copy.id),\"releaseId\":\(copy.releaseID),\"lowestPrice\":\(number(copy.lowestPrice)),"
                + "\"forSale\":\(copy.forSale.map(String.init) ?? "null"),"
                + "\"grade\":\(copy.grade.map { JSONStringLiteral.quoted($0.rawValue) } ?? "null"),"
                + "\"suggestedPrice\":\(number(copy.suggestedPrice)),\"at\":\(date(copy.at))}"
        }
        return "{\"currency\":\(JSONStringLiteral.quoted(currency)),\"collection\":\(collection),"
            + "\"records\":[\(records.joined(separator: ","))]}"
    }
}
