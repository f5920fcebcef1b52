import Foundation

/// One physical copy in the collection: a row of the store, with its lookup state.
///
/// Named `CatalogueRecord` rather than `Record` because GRDB, which the store imports next to
/// this module, exports a `Record` class: the short name would be ambiguous in every store file.
/// Two copies of the same GTIN are two records.
public struct CatalogueRecord: Hashable, Sendable, Identifiable {
    /// The store's id. Never reused after a delete, so an undo restores the same id.
    public var id: Int64
    public var gtin: GTIN
    public var addedAt: Date
    public var addMethod: AddMethod
    public var note: String?
    /// Where the copy lives: a crate, a shelf.
    public var location: String?
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
    /// The copy's media and sleeve conditions and rating (its notes are `note`).
    public var grading: CopyGrading

    public init(
        id: Int64, gtin: GTIN, addedAt: Date, addMethod: AddMethod, note: String? = nil,
        location: String? = nil, releaseID: Int? = nil, lookupState: LookupState = .pending,
        lookupError: String? = nil, lookupAttempts: Int = 0, retryAt: Date? = nil,
        skipReason: String? = nil, claimedUntil: Date? = nil, candidates: [ReleaseCandidate] = [],
        updatedAt: Date, grading: CopyGrading = .none
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
        self.grading = grading
    }
}

/// A copy about to be added: what the user (or an import) knows when it scans.
public struct NewRecord: Hashable, Sendable {
    public var gtin: GTIN
    public var addedAt: Date
    public var addMethod: AddMethod
    public var note: String?
    public var location: String?
    /// Conditions and rating known already (a Discogs collection export's columns).
    public var grading: CopyGrading
    /// Known already (e.g. added by Discogs release id): the record is stored `matched` and
    /// never enters the lookup queue. Nil: the record is stored `pending`.
    public var release: Release? {
        get { releaseBox?.release }
        set { releaseBox = newValue.map(ReleaseBox.init) }
    }

    /// Boxed: a `Release` inline would triple the size of every new record, and an import
    /// holds 100,000 of them, nearly all without a release.
    private var releaseBox: ReleaseBox?

    public init(
        gtin: GTIN, addedAt: Date = Date(), addMethod: AddMethod, note: String? = nil,
        location: String? = nil, release: Release? = nil, grading: CopyGrading = .none
    ) {
        self.gtin = gtin
        self.addedAt = addedAt
        self.addMethod = addMethod
        self.note = note
        self.location = location
        self.grading = grading
        self.releaseBox = release.map(ReleaseBox.init)
    }
}

/// An immutable box, compared and hashed by its content.
private final class ReleaseBox: Hashable, Sendable {
    let release: Release

    init(_ release: Release) { self.release = release }

    static func == (lhs: ReleaseBox, rhs: ReleaseBox) -> Bool { lhs.release == rhs.release }
    func hash(into hasher: inout Hasher) { hasher.combine(release) }
}
