/// What the collection UI asks of the application (the use cases in CratesApp): the one
/// vocabulary between a UI and the work behind it, so that neither knows the other. None of
/// these runs on the UI thread.
public enum SessionRequest: Equatable, Sendable {
    /// Adds a copy of a barcode, or of a Discogs release (its barcode comes from Discogs,
    /// and the record is matched at once). What the rules hold back comes back as a
    /// question (`SessionEvent.ask`), whose yes is this request again with more allowed.
    case add(CodeEntry, method: AddMethod, allowing: AddAllowance = [])
    /// Fetch (and keep fetching, as the collection changes) this part of the list.
    case query(CollectionQuery)
    /// The record the selection is on, so that a refetch after a change locates it.
    case focus(Int64?)
    case delete([Int64])
    /// Puts back the records of the delete that `SessionEvent.deleted` named.
    case undo(Int)
    case loadDetails(Int64)
    /// Looks a record up again now.
    case retry(Int64)
    /// Matches a record to the pressing the person chose.
    case choose(recordID: Int64, releaseID: Int)
    case openURL(String)
    /// Sets a copy's conditions, rating or note (the details view's pickers).
    case grade(recordID: Int64, CopyGradingChange)
    /// Syncs the collection with the user's Discogs collection, both ways (`S`).
    case sync
    /// Removes from the Discogs collection these instances, whose copies were deleted in
    /// crates (the yes to the question a sync asks).
    case removeFromDiscogs(instanceIDs: [Int64])
}

/// What a person has allowed for one add, after being asked.
public struct AddAllowance: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Another copy of a barcode the collection already has.
    public static let anotherCopy = AddAllowance(rawValue: 1)
    /// A barcode of another kind than a record's (an ISBN…): see `BarcodeAdmission`.
    public static let notARecord = AddAllowance(rawValue: 2)
}

/// An add the application held back, waiting for the person's yes or no: another copy of a
/// barcode the collection has, or a barcode that is not a record's (an ISBN…).
public struct AddQuestion: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case anotherCopy(copies: Int)
        case notARecord(NotARecord)
    }

    public var entry: CodeEntry
    /// The barcode asked about (a release's, when the entry is a release).
    public var gtin: GTIN
    public var method: AddMethod
    public var kind: Kind
    /// What was allowed already (a book that is also a duplicate asks twice).
    public var allowing: AddAllowance

    public init(entry: CodeEntry, gtin: GTIN, method: AddMethod, kind: Kind, allowing: AddAllowance) {
        self.entry = entry
        self.gtin = gtin
        self.method = method
        self.kind = kind
        self.allowing = allowing
    }

    /// The request a yes sends.
    public var yes: SessionRequest {
        switch kind {
        case .anotherCopy: .add(entry, method: method, allowing: allowing.union(.anotherCopy))
        case .notARecord: .add(entry, method: method, allowing: allowing.union(.notARecord))
        }
    }

    /// The question, without "(y/N)": "5099750442227: already have 1 copy: add another?",
    /// "This is a book (ISBN 9781617292156): add it anyway?".
    public var text: String {
        switch kind {
        case .anotherCopy(let copies):
            "\(gtin.canonical): already have \(copies == 1 ? "1 copy" : "\(copies) copies"): add another?"
        case .notARecord(let code):
            code.question
        }
    }
}
