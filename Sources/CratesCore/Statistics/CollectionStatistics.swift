/// What `crates stats` counts: totals over the copies a filter keeps, and for each dimension
/// asked, how many copies have each value. Every count is of copies (rows of the list, as
/// `crates list` prints them), so that each number agrees with `crates list --json` over the
/// same filter; only `records` counts distinct records (see `Totals.records`).
public struct CollectionStatistics: Hashable, Sendable {
    /// The totals. Matched, waiting and entered by hand are lookup states, so no copy is in
    /// two of them; the others (without a barcode, in places, graded) cut across them.
    public struct Totals: Hashable, Sendable {
        /// Distinct records: the matched copies of one Discogs release count once, every
        /// copy not matched to a release counts by itself (nothing says two are the same).
        public var records: Int
        /// Copies: every row of the list.
        public var copies: Int
        /// Copies matched to a Discogs release (`matched`).
        public var matched: Int
        /// Copies whose lookup has not ended: queued (`pending`), being looked up
        /// (`lookingUp`), or failed and waiting for their retry (`failed`).
        public var waiting: Int
        /// Copies entered by hand and not linked to a release since (`handEntered`).
        public var handEntered: Int
        /// Copies without a barcode.
        public var withoutBarcode: Int
        /// Copies in a place.
        public var inPlaces: Int
        /// Copies with a media or sleeve grade.
        public var graded: Int

        public init(
            records: Int = 0, copies: Int = 0, matched: Int = 0, waiting: Int = 0, handEntered: Int = 0,
            withoutBarcode: Int = 0, inPlaces: Int = 0, graded: Int = 0
        ) {
            self.records = records
            self.copies = copies
            self.matched = matched
            self.waiting = waiting
            self.handEntered = handEntered
            self.withoutBarcode = withoutBarcode
            self.inPlaces = inPlaces
            self.graded = graded
        }

        /// The totals as (JSON name, label, value), in the order they are printed.
        public var named: [(key: String, label: String, value: Int)] {
            [
                ("records", "records", records), ("copies", "copies", copies), ("matched", "matched", matched),
                ("waiting", "waiting for a lookup", waiting), ("handEntered", "entered by hand", handEntered),
                ("withoutBarcode", "without a barcode", withoutBarcode), ("inPlaces", "in places", inPlaces),
                ("graded", "graded", graded),
            ]
        }
    }

    /// How many copies have one value of a dimension.
    public struct Count: Hashable, Sendable {
        public var key: String
        public var count: Int
        /// The second level within this value, largest first (the format chart's
        /// descriptions within a medium: "Album", "Reissue"); empty for the other charts.
        public var children: [Count]
        public init(key: String, count: Int, children: [Count] = []) {
            self.key = key
            self.count = count
            self.children = children
        }
    }

    public var totals: Totals
    /// The dimensions asked, in the order asked, each with its counts in the order shown.
    public var dimensions: [(dimension: StatisticsDimension, counts: [Count])]
    /// The value charts (the statistics screen's), nil when not asked or no figure is stored.
    public var value: CollectionValueCharts?
    /// What was spent (per year, by where bought), nil when not asked.
    public var spending: Spending?

    public init(totals: Totals, dimensions: [(dimension: StatisticsDimension, counts: [Count])], value: CollectionValueCharts? = nil) {
        self.totals = totals
        self.dimensions = dimensions
        self.value = value
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.totals == rhs.totals && lhs.dimensions.map(\.dimension) == rhs.dimensions.map(\.dimension)
            && lhs.dimensions.map(\.counts) == rhs.dimensions.map(\.counts) && lhs.value == rhs.value
            && lhs.spending == rhs.spending
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(totals)
        hasher.combine(value)
        hasher.combine(spending)
        for entry in dimensions {
            hasher.combine(entry.dimension)
            hasher.combine(entry.counts)
        }
    }

    /// The counts of `dimension`, or nil when it was not asked.
    public func counts(_ dimension: StatisticsDimension) -> [Count]? {
        dimensions.first { $0.dimension == dimension }?.counts
    }

    /// One JSON object: `totals`, then one array of `{"key", "count"}` per dimension, named
    /// as the dimension (the format's members with their `descriptions`, an array of the
    /// same), then `spent` (`Spending.json`) when it was asked.
    public var json: String {
        let totals = self.totals.named.map { "\(JSONStringLiteral.quoted($0.key)):\($0.value)" }.joined(separator: ",")
        var parts = ["\"totals\":{\(totals)}"]
        for entry in dimensions {
            func object(_ count: Count, second: Bool) -> String {
                let head = "\"key\":\(JSONStringLiteral.quoted(count.key)),\"count\":\(count.count)"
                guard second else { return "{\(head)}" }
                let children = count.children.map { object($0, second: false) }.joined(separator: ",")
                return "{\(head),\"descriptions\":[\(children)]}"
            }
            let counts = entry.counts.map { object($0, second: entry.dimension == .format) }
            parts.append("\(JSONStringLiteral.quoted(entry.dimension.rawValue)):[\(counts.joined(separator: ","))]")
        }
        if let spending { parts.append("\"spent\":\(spending.json)") }
        return "{" + parts.joined(separator: ",") + "}"
    }
}

/// A way to count the collection: each copy has one value of it (its genre section, its
/// decade), several (its styles, its labels) or none (a year not known).
public enum StatisticsDimension: String, Hashable, Sendable, CaseIterable {
    /// The genre section the list shows the copy in (the collector's genre, else Discogs'
    /// first; `Unknown` for a record not matched).
    case genre
    /// Discogs' styles: a copy counts once in each of its release's styles.
    case style
    /// The decade of the year shown ("1970s").
    case decade
    /// The year shown.
    case year
    /// The medium of the format shown (`FormatMedium`: LP, 12", CD…), each with its
    /// descriptions as a second level (the format shown is the collector's, else Discogs'
    /// formats joined with " + ").
    case format
    /// The country shown.
    case country
    /// The labels shown: the collector's, else each of Discogs' labels once.
    case label
    /// The place the copy is in (its path from the top).
    case location
    /// The month the copy was added (UTC, "2026-11").
    case added
    /// The media grade (Discogs' text).
    case grade

    /// Whether the counts come in time order (oldest first) rather than largest first.
    public var inTimeOrder: Bool { self == .decade || self == .added }

    /// The heading over the dimension's chart.
    public var heading: String {
        switch self {
        case .genre: "Genres"
        case .style: "Styles"
        case .decade: "Decades"
        case .year: "Years"
        case .format: "Formats"
        case .country: "Countries"
        case .label: "Labels"
        case .location: "Places"
        case .added: "Added per month"
        case .grade: "Media grades"
        }
    }

    /// Counts in the order shown: oldest first for time, else largest first and, among
    /// equal counts, by key.
    public func ordered(_ counts: [CollectionStatistics.Count]) -> [CollectionStatistics.Count] {
        if inTimeOrder { return counts.sorted { $0.key < $1.key } }
        return counts.sorted { $0.count != $1.count ? $0.count > $1.count : $0.key < $1.key }
    }
}

/// One bar of a statistics chart as a narrowing of the list: the copies that count in it (a
/// genre, a decade, a place…), by the same rule that counted them, so that the list then
/// shows exactly as many copies as the bar said.
public struct StatisticsFacet: Hashable, Sendable, CustomStringConvertible {
    public var dimension: StatisticsDimension
    /// The bar's key, as the statistics give it ("Rock", "1970s", a place's path).
    public var key: String
    /// A second level's key within `key` (a description within a format's medium), nil
    /// for a first-level bar.
    public var detail: String?

    public init(_ dimension: StatisticsDimension, _ key: String, detail: String? = nil) {
        self.dimension = dimension
        self.key = key
        self.detail = detail
    }

    /// The places chart's bar of the copies in no place (the statistics screen's; `crates
    /// stats` counts places only). In parentheses, as no place's path is written.
    public static let noPlace = "(no place)"

    /// "genre Rock", "added 2026-11", for a title line.
    public var description: String {
        let name: String =
            switch dimension {
            case .location: "place"
            case .grade: "media grade"
            default: dimension.rawValue
            }
        return "\(name) \(key)" + (detail.map { " › \($0)" } ?? "")
    }
}
