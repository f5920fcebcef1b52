import Foundation

/// One copy as `crates list` and `crates export` write it: the record, the release it
/// resolved to, and the section the collection lists it under.
public struct ExportedRecord: Hashable, Sendable {
    public var record: CollectionRecord
    /// Nil until the record is matched.
    public var release: Release?
    /// The genre section's name as the list shows it (`Section.unknown` for unmatched
    /// records).
    public var section: String
    /// The lookup history, oldest first; nil when it was not read (the list does not need it).
    public var history: [LookupEvent]?
    /// The Discogs instance the copy is synced with (`crates sync`), if any.
    public var discogs: DiscogsCopyLink?
    /// Read for a full export only (what a restore needs): the release an import named for
    /// the record while it waits for its lookup, and when the release was fetched.
    public var pinnedReleaseID: Int?
    public var releaseFetchedAt: Date?
    /// The ids of the copy's place and of the places it is in, from the top down (their
    /// label codes, in the CSV export's `Location Codes`); empty when it is in none or they
    /// were not read.
    public var placePath: [Int64] = []

    public init(
        record: CollectionRecord, release: Release?, section: String, history: [LookupEvent]? = nil,
        discogs: DiscogsCopyLink? = nil, pinnedReleaseID: Int? = nil, releaseFetchedAt: Date? = nil,
        placePath: [Int64] = []
    ) {
        self.placePath = placePath
        self.pinnedReleaseID = pinnedReleaseID
        self.releaseFetchedAt = releaseFetchedAt
        self.record = record
        self.release = release
        self.section = section
        self.history = history
        self.discogs = discogs
    }

    /// The values shown for the copy: the collector's own over the release's.
    public var shown: RecordFields { RecordFields.shown(collector: record.collector, release: release) }
}

/// Which records `crates list` and `crates export` write. Empty lists mean no restriction.
public struct ExportFilter: Hashable, Sendable {
    /// Section names, matched case-insensitively and otherwise exactly ("rock" is "Rock",
    /// "Roc" is nothing).
    public var sections: [String]
    /// Lookup states.
    public var states: [LookupState]
    /// A place: only the records in it and in the places inside it.
    public var location: Int64?
    /// Only the records directly in one of these places (not in the places inside them).
    public var directlyIn: Set<Int64>?
    /// Only the records of these years (the year shown: the collector's, else Discogs').
    public var years: ClosedRange<Int>?
    /// Only the records whose format shown holds this text (any case: "vinyl", "lp").
    public var format: String?
    /// The order within each section.
    public var order: ListOrder
    /// Only the records the query keeps (`crates list QUERY...`); empty: every record.
    public var query: RecordQuery
    /// The order the other way round (`--reverse`: the latest added first).
    public var descending = false
    /// One A–Z (or the order's) run of every record, without genre sections (`--flat`).
    public var flat = false
    /// Only these records (the UI's tagged ones); nil: every record the rest keeps.
    public var records: [Int64]?

    public init(
        sections: [String] = [], states: [LookupState] = [], location: Int64? = nil, directlyIn: Set<Int64>? = nil,
        years: ClosedRange<Int>? = nil, format: String? = nil, order: ListOrder = .default, query: RecordQuery = RecordQuery()
    ) {
        self.query = query
        self.years = years
        self.format = format
        self.order = order
        self.sections = sections
        self.states = states
        self.location = location
        self.directlyIn = directlyIn
    }

    /// Whether `section` is one of `sections` (always, when there are none).
    public func includes(section: String) -> Bool {
        sections.isEmpty || sections.contains { $0.lowercased() == section.lowercased() }
    }
}
