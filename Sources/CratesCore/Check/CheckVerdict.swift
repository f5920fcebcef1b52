/// Where the collector stands with a record checked at a fair, strongest first: a copy of
/// this very pressing is in the collection; a copy of another pressing of the same master
/// is; it is on the wantlist; none of these; or nothing is known of the code (not in the
/// catalogue, and Discogs could not be asked or knows no release with it).
public enum CheckVerdict: String, Hashable, Sendable, CaseIterable, Comparable {
    case owned, otherPressing, wanted, new, unknown

    /// The verdict line, as read at arm's length: "OWNED", "OTHER PRESSING", "WANTED",
    /// "NEW", "UNKNOWN".
    public var shout: String {
        switch self {
        case .owned: "OWNED"
        case .otherPressing: "OTHER PRESSING"
        case .wanted: "WANTED"
        case .new: "NEW"
        case .unknown: "UNKNOWN"
        }
    }

    /// Strongest first: `owned` < `otherPressing` < … (`min` of several is the one to say).
    public static func < (a: CheckVerdict, b: CheckVerdict) -> Bool {
        let order = allCases
        return (order.firstIndex(of: a) ?? 0) < (order.firstIndex(of: b) ?? 0)
    }
}
