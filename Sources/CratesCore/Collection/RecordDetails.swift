import Foundation

/// One entry of a record's lookup history, for the details screen.
public struct LookupEvent: Hashable, Sendable, Identifiable {
    /// What happened. Lookup outcomes share their names with `LookupState`.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case matched, ambiguous, notFound, failed, skipped
        /// The user picked a release (from the candidates, or by id).
        case chosen
        /// The user asked for the record to be looked up again.
        case retryRequested
        /// The collector changed the record's own values, its note, grades or rating.
        case edited
        /// The collector entered the record by hand.
        case enteredByHand
    }

    public var id: Int64
    public var recordID: Int64
    public var at: Date
    public var kind: Kind
    /// A line a person can read: the error, the reason, the release chosen.
    public var message: String

    public init(id: Int64, recordID: Int64, at: Date, kind: Kind, message: String) {
        self.id = id
        self.recordID = recordID
        self.at = at
        self.kind = kind
        self.message = message
    }
}

/// Everything the details screen shows about one copy.
public struct RecordDetails: Hashable, Sendable {
    public var record: CollectionRecord
    /// The release the record resolved to, if any.
    public var release: Release?
    /// Oldest first.
    public var history: [LookupEvent]
    /// The Discogs instance the copy is synced with, if any.
    public var discogs: DiscogsCopyLink?
    /// How many instances of the copy's release the Discogs collection held at the last sync.
    public var discogsCopies: Int
    /// Why Discogs refused to add the copy (a release it does not have), when it did for
    /// the release the copy has now: it is not sent again until another is chosen.
    public var discogsRefusal: String?
    /// What Discogs' marketplace said the copy is worth, as last stored (`crates value`, a
    /// full release fetch), and the currency of those figures ("" when a release fetch gave
    /// them in the account's currency, not named then); nil when nothing is stored.
    public var value: (figure: CollectionValueReport.CopyFigure, currency: String)? {
        get { valueFigure.map { ($0, valueCurrency) } }
        set {
            valueFigure = newValue?.figure
            valueCurrency = newValue?.currency ?? ""
        }
    }
    private var valueFigure: CollectionValueReport.CopyFigure?
    private var valueCurrency = ""

    public init(
        record: CollectionRecord, release: Release?, history: [LookupEvent], discogs: DiscogsCopyLink? = nil,
        discogsCopies: Int = 0
    ) {
        self.record = record
        self.release = release
        self.history = history
        self.discogs = discogs
        self.discogsCopies = discogsCopies
    }
}

/// What a delete took away, kept so that an undo can put back exactly the same rows.
public struct DeletedRecord: Hashable, Sendable {
    public var record: CollectionRecord
    public var history: [LookupEvent]

    public init(record: CollectionRecord, history: [LookupEvent]) {
        self.record = record
        self.history = history
    }
}
