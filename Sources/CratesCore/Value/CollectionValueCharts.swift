import Foundation

/// The statistics screen's value charts, from the figures `crates value` stored: a copy is
/// worth the price Discogs suggests for its media grade where known, else the lowest price
/// listed for its release (the figures of `crates value --json`'s `suggestedPrice` and
/// `lowestPrice`); a copy with neither counts in no chart. Amounts are whole units of
/// `currency`, rounded, as the bars count them.
public struct CollectionValueCharts: Hashable, Sendable {
    public var currency: String
    /// The most valuable copies, the most valuable first: "#12 Artist — Title" (the id first,
    /// so that a key cut to the chart's width still says which copy).
    public var mostValuable: [CollectionStatistics.Count]
    /// The value of the copies of each genre section, largest first.
    public var byGenre: [CollectionStatistics.Count]
    /// The value of the copies directly in each place, largest first.
    public var byPlace: [CollectionStatistics.Count]
    /// The collection's median value (Discogs' collection value) per month, in time order.
    public var overTime: [CollectionStatistics.Count]

    public init(
        currency: String, mostValuable: [CollectionStatistics.Count], byGenre: [CollectionStatistics.Count],
        byPlace: [CollectionStatistics.Count], overTime: [CollectionStatistics.Count]
    ) {
        self.currency = currency
        self.mostValuable = mostValuable
        self.byGenre = byGenre
        self.byPlace = byPlace
        self.overTime = overTime
    }

    /// How many copies "most valuable" lists.
    public static let mostValuableCount = 10

    /// The charts with their headings, in the order shown; the dimension whose facet a bar
    /// narrows the list to (nil: none).
    public var charts: [(heading: String, dimension: StatisticsDimension?, counts: [CollectionStatistics.Count])] {
        let unit = currency.isEmpty ? "the account's currency" : currency
        return [
            ("Most valuable copies (\(unit))", nil, mostValuable),
            ("Value by genre (\(unit))", .genre, byGenre),
            ("Value by place (\(unit))", .location, byPlace),
            ("Collection value over time (median, \(unit))", nil, overTime),
        ]
    }
}
