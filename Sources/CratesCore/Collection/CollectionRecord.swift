import Foundation

/// One physical copy in the collection: a row of the store, with its lookup state.
///
/// Named `CollectionRecord` rather than `Record` because GRDB, which the store imports next to
/// this module, exports a `Record` class: the short name would be ambiguous in every store file.
/// Two copies of the same GTIN are two records. A record may have no barcode: a record
/// entered by hand, a release found by search that lists none, an import row described by
/// its catalogue number, artist and title.
public struct CollectionRecord: Hashable, Sendable, Identifiable {
    /// The store's id. Never reused after a delete, so an undo restores the same id.
    public var id: Int64
    /// Nil for a record without a barcode.
    public var gtin: GTIN?
    public var addedAt: Date
    public var addMethod: AddMethod
    public var note: String?
    /// The place the copy is in (a crate, a shelf), with its path; nil: in no place.
    public var location: Location?
    /// The Discogs release this copy resolved to, if any.
    public var releaseID: Int?
    public var lookupState: LookupState
    /// The last failure's message, kept while the state is `failed`.
    public var lookupError: String?
    /// Lookups completed so far (each outcome counts one).
    public var lookupAttempts: Int
    /// A failed lookup is not retried before this time.
    public var retryAt: Date?
    /// Why no lookup is made, when the state is `skipped` (e.g. "an ISBN: a book, not a record").
    public var skipReason: String?
    /// While `lookingUp`: the claim's lease. Once passed, the record is due again (its claimer
    /// is presumed dead).
    public var claimedUntil: Date?
    /// The pressings to choose from, when the state is `ambiguous`.
    public var candidates: [ReleaseCandidate]
    public var updatedAt: Date
    /// The collector's own values (typed by hand, edited, or an import row's): each one set
    /// wins over Discogs' value, and no lookup changes them.
    public var collector: RecordFields
    /// The copy's media and sleeve conditions and rating (its notes are `note`).
    public var grading: CopyGrading
    /// The local Discogs catalogue that last answered for the record: while it is matched
    /// (or ambiguous), the catalogue it was matched from; while it waits for a lookup, the
    /// catalogue that does not know it. Nil: the catalogue had no say.
    public var catalogueEdition: CatalogueEdition?

    public init(
        id: Int64, gtin: GTIN?, addedAt: Date, addMethod: AddMethod, note: String? = nil,
        location: Location? = nil, releaseID: Int? = nil, lookupState: LookupState = .pending,
        lookupError: String? = nil, lookupAttempts: Int = 0, retryAt: Date? = nil,
        skipReason: String? = nil, claimedUntil: Date? = nil, candidates: [ReleaseCandidate] = [],
        updatedAt: Date, collector: RecordFields = .none, grading: CopyGrading = .none,
        catalogueEdition: CatalogueEdition? = nil
    ) {
        self.id = id
        self.gtin = gtin
        self.addedAt = addedAt
        self.addMethod = addMethod
        self.note = note
        self.location = location
        self.releaseID = releaseID
        self.lookupState = lookupState
        self.lookupError = lookupError
        self.lookupAttempts = lookupAttempts
        self.retryAt = retryAt
        self.skipReason = skipReason
        self.claimedUntil = claimedUntil
        self.candidates = candidates
        self.updatedAt = updatedAt
        self.collector = collector
        self.grading = grading
        self.catalogueEdition = catalogueEdition
    }

    /// "5099750442227", or what the record says about itself when it has no barcode
    /// ("Pink Floyd — The Dark Side Of The Moon (SHVL 804)", "record 12" when nothing).
    public var subject: String {
        if let gtin { return gtin.canonical }
        let described = collector.description
        return described.isEmpty ? "record \(id)" : described
    }
}

/// A copy about to be added: what the user (or an import) knows when it scans.
public struct NewRecord: Hashable, Sendable {
    /// Nil for a record without a barcode.
    public var gtin: GTIN?
    public var addedAt: Date
    public var addMethod: AddMethod
    public var note: String?
    /// The place the copy goes in, by id (the collection UI's current place).
    public var locationID: Int64?
    /// A place by its path or name, as an import names it (the rule of
    /// `LocationTree.placement(forImported:)`: it joins the place it names, or the places
    /// missing are made). Ignored when `locationID` is given.
    public var location: String?
    /// Conditions and rating known already (a Discogs collection export's columns).
    public var grading: CopyGrading
    /// Known already (e.g. added by Discogs release id): the record is stored `matched` and
    /// never enters the lookup queue. Nil: the record is stored `pending`.
    public var release: Release? {
        get { releaseBox?.value }
        set { releaseBox = newValue.map(ValueBox.init) }
    }

    /// The collector's own values (see `CollectionRecord.collector`).
    public var collector: RecordFields {
        get { collectorBox?.value ?? .none }
        set { collectorBox = newValue.isEmpty ? nil : ValueBox(newValue) }
    }

    /// Entered by hand: stored `handEntered`, never looked up (the collector's values are the
    /// record). Otherwise a record without a release is stored `pending`.
    public var handEntered: Bool

    /// The local catalogue `release` came from (an import's row known by its release id,
    /// matched there with no request), as a lookup from it records
    /// (`CollectionRecord.catalogueEdition`); nil: from Discogs, or no release.
    public var catalogueEdition: CatalogueEdition?

    /// Boxed: a `Release` inline would triple the size of every new record, and an import
    /// holds 100,000 of them, nearly all without a release.
    private var releaseBox: ValueBox<Release>?
    /// Boxed for the same reason: nearly every new record has none.
    private var collectorBox: ValueBox<RecordFields>?

    public init(
        gtin: GTIN?, addedAt: Date = Date(), addMethod: AddMethod, note: String? = nil,
        location: String? = nil, locationID: Int64? = nil, release: Release? = nil,
        collector: RecordFields = .none, handEntered: Bool = false, grading: CopyGrading = .none
    ) {
        self.gtin = gtin
        self.addedAt = addedAt
        self.addMethod = addMethod
        self.note = note
        self.location = location
        self.locationID = locationID
        self.grading = grading
        self.releaseBox = release.map(ValueBox.init)
        self.collectorBox = collector.isEmpty ? nil : ValueBox(collector)
        self.handEntered = handEntered
    }

    /// The state the record is stored in.
    public var initialState: LookupState {
        if release != nil { return .matched }
        return handEntered ? .handEntered : .pending
    }
}

/// An immutable box, compared and hashed by its content.
private final class ValueBox<Value: Hashable & Sendable>: Hashable, Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (lhs: ValueBox, rhs: ValueBox) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
