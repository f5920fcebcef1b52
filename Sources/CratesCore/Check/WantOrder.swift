/// The orders the wantlist is shown in: `crates want list --sort` and the wantlist view's `O`
/// (`R` and `--reverse` turn them round). The list comes from the store by artist, then
/// title; the other orders keep that order among equals.
public enum WantOrder: String, CyclingOrder, Sendable {
    /// By artist, then title (A–Z).
    case artist
    /// The earliest put on the wantlist first.
    case added
    /// The most wanted first (five stars), the unrated last.
    case rating
    /// The lowest price first; a release with no price known stays last either way round,
    /// since there is nothing to compare it by.
    case price

    /// How the order is said on the screen ("by rating, the most wanted first").
    public func described(reversed: Bool) -> String {
        switch (self, reversed) {
        case (.artist, false): "by artist, A–Z"
        case (.artist, true): "by artist, Z–A"
        case (.added, false): "by added, the earliest first"
        case (.added, true): "by added, the latest first"
        case (.rating, false): "by rating, the most wanted first"
        case (.rating, true): "by rating, the least wanted first"
        case (.price, false): "by price, the lowest first"
        case (.price, true): "by price, the highest first"
        }
    }

    /// `entries` (in the store's order: artist, then title) in this order, or the other way
    /// round.
    public func arranged(_ entries: [WantListing], reversed: Bool) -> [WantListing] {
        // A stable sort on the key alone keeps the store's order among equals; turning the
        // whole list round turns that too, as `crates list --reverse` does.
        var priced = entries
        var unpriced: [WantListing] = []
        switch self {
        case .artist:
            break
        case .added:
            priced = Self.stableSorted(entries) { $0.want.addedAt < $1.want.addedAt }
        case .rating:
            priced = Self.stableSorted(entries) { $0.want.rating.value > $1.want.rating.value }
        case .price:
            unpriced = entries.filter { $0.price?.lowest == nil }
            let known = entries.filter { $0.price?.lowest != nil }
            priced = Self.stableSorted(known) { ($0.price?.lowest ?? 0) < ($1.price?.lowest ?? 0) }
        }
        return (reversed ? priced.reversed() : priced) + unpriced
    }

    private static func stableSorted(_ entries: [WantListing], by less: (WantListing, WantListing) -> Bool) -> [WantListing] {
        entries.enumerated()
            .sorted { less($0.element, $1.element) || (!less($1.element, $0.element) && $0.offset < $1.offset) }
            .map(\.element)
    }
}
