/// What the collection UI asks of the application (the use cases in CratesApp): the one
/// vocabulary between a UI and the work behind it, so that neither knows the other. None of
/// these runs on the UI thread.
public enum SessionRequest: Equatable, Sendable {
    /// Adds a copy of a barcode, or of a Discogs release (its barcode comes from Discogs,
    /// and the record is matched at once), into the current place when there is one. What
    /// the rules hold back comes back as a question (`SessionEvent.ask`), whose yes is this
    /// request again with more allowed. A crates label is not added: a place's makes it the
    /// current place (`SessionEvent.location`), a copy's selects that copy
    /// (`SessionEvent.select`).
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
    /// Matches a record to the pressing the person chose (from its candidates, or from a
    /// search made for it); the record's own values are kept.
    case choose(recordID: Int64, releaseID: Int)
    case openURL(String)
    /// Opens a record's Discogs page (`o` in the list, whose rows do not hold it); or says
    /// why not: not matched yet, or no browser here (with the page's address).
    case openPage(recordID: Int64)
    /// The collection's genre sections, for the entry by hand and the edit to offer as the
    /// genre is typed (`SessionEvent.genres`).
    case loadGenres
    /// Searches Discogs without a barcode (the TUI's `s`), for a new record or for the
    /// record `for` names (an ambiguous, not-found or hand-entered one): answered by
    /// `SessionEvent.found`. Checked already: a query exists only when worth a request.
    case search(ReleaseSearchQuery, for: Int64?)
    /// The same search in the local catalogue only, as the person types it: never a
    /// request; answered by `SessionEvent.found` with `preview` set (nothing when there is
    /// no catalogue).
    case searchCatalogue(ReleaseSearchQuery, for: Int64?)
    /// Enters a record by hand (`m`): a new one, or the record `for` names (one Discogs does
    /// not have), which keeps its barcode and becomes `handEntered`.
    case enterByHand(RecordFields, for: Int64?)
    /// Sets the collector's values of a record, gives fields back to Discogs, sets the note.
    case edit(Int64, RecordEdit)
    /// The records that need a person (ambiguous, not found, failed), oldest first:
    /// answered by `SessionEvent.needsPerson`.
    case loadNeedsPerson
    /// Moves records into a place (nil: out of any place); `SessionEvent.moved` names the
    /// move for `undo`.
    case move([Int64], to: Int64?)
    /// Makes a place the current one (the list shows what is in it; what is added next goes
    /// in it), or none: the whole collection.
    case setLocation(Int64?)
    /// Every place with its counts, for the tree view (`SessionEvent.locations`).
    case loadLocations
    /// The whole collection's statistics, for the statistics screen (`SessionEvent.statistics`).
    case loadStatistics
    /// The copies out on loan, for the loans view (`SessionEvent.loans`).
    case loadLoans
    /// Sets a copy's conditions, rating or note (the details view's pickers).
    case grade(recordID: Int64, CopyGradingChange)
    /// Syncs the collection with the user's Discogs collection, both ways (`S`).
    case sync
    /// The yes to the first sync's plan (`SessionEvent.syncPlan`): the sync itself, without
    /// planning again.
    case syncAsPlanned
    /// Removes from the Discogs collection these instances, whose copies were deleted in
    /// crates (the yes to the question a sync asks).
    case removeFromDiscogs(instanceIDs: [Int64])
    /// The sign-in form (`A`): answered by `SessionEvent.signIn`.
    case signIn(SignInRequest)
    /// The copies in conflict with the Discogs collection, as the last sync left them
    /// (`SessionEvent.syncConflicts`).
    case loadSyncConflicts
    /// Settles the conflicts of these copies toward one side: crates' values sent to
    /// Discogs, or Discogs' taken into crates; answered with the conflicts left.
    case settleConflicts(recordIDs: [Int64], toward: SyncPreference)
    /// A cover drawn as cells (`SessionEvent.cover`): from the cache on disk, else fetched
    /// from Discogs at background priority. The latest asked goes first.
    case cover(CoverRequest)
    /// Checks a code without adding anything (check mode): answered by
    /// `SessionEvent.checked` with the reference's serial. No request for a code the
    /// catalogue knows.
    case check(CheckReference)
    /// A checked release bought: a copy of it added to the collection (into the current
    /// place), then the code checked again.
    case addBought(releaseID: Int, gtin: GTIN?, recheck: CheckReference?)
    /// The wantlist (`w`, and the check panel's keys); the code checked again after.
    case want(WantRequest, recheck: CheckReference?)
    /// Asks Discogs' marketplace now for these releases' prices (the check panel's key),
    /// at background priority; the code checked again after.
    case refreshPrices([Int], recheck: CheckReference?)
    /// Tags every record the list shows for this query (its filter, place and bar of the
    /// statistics), however many: answered by `SessionEvent.tagged`.
    case tagShown(CollectionQuery)
    /// Tags the copy a copy label names (the UI's tag-by-scan mode): answered by
    /// `SessionEvent.tagged`, or a message when no record has that label. Nothing moves.
    case tagCopy(LabelCode)
    /// Sets the same grade or rating on these records, in one transaction with one undo
    /// (the UI's tagged records); records gone meanwhile are counted, not fatal.
    case gradeRecords([Int64], CopyGradingChange)
    /// Looks these records up again now (the UI's tagged records).
    case refresh([Int64])
    /// Writes these records to a CSV file (Discogs' columns and the barcode) in the
    /// directory the UI was started in, and says where.
    case exportRecords([Int64])
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
        /// With a place current, a barcode the collection has elsewhere: move that copy here?
        case moveHere(MoveHere)
    }

    /// The answers a question takes.
    public enum Answer: Equatable, Sendable {
        case yes, no
        /// To a move: keep that copy where it is and add another one, into the place current
        /// when the answer is carried out (the session's, as for any add).
        case anotherCopy
    }

    public var entry: CodeEntry
    /// The barcode asked about (a release's, when the entry is a release); nil for a release
    /// that lists none (then the copies counted are the release's).
    public var gtin: GTIN?
    public var method: AddMethod
    public var kind: Kind
    /// What was allowed already (a book that is also a duplicate asks twice).
    public var allowing: AddAllowance
    /// "Artist — Title" of the copy the collection has, for a question about another copy:
    /// the question names the record, not only its barcode; nil before its lookup.
    public var title: String?
    /// Where the copies the collection has are, and in what grade ("in Room › Shelf,
    /// VG+/VG"), for a question about another copy: "already have" names them.
    public var whereabouts: String?

    public init(
        entry: CodeEntry, gtin: GTIN?, method: AddMethod, kind: Kind, allowing: AddAllowance, title: String? = nil,
        whereabouts: String? = nil
    ) {
        self.entry = entry
        self.gtin = gtin
        self.method = method
        self.kind = kind
        self.allowing = allowing
        self.title = title
        self.whereabouts = whereabouts
    }

    /// What is asked about: the barcode, or "release 249504".
    public var subject: String {
        if let gtin { return gtin.canonical }
        if case .release(let id) = entry { return "release \(id)" }
        return ""
    }

    /// The request a yes sends.
    public var yes: SessionRequest {
        switch kind {
        case .anotherCopy: .add(entry, method: method, allowing: allowing.union(.anotherCopy))
        case .notARecord: .add(entry, method: method, allowing: allowing.union(.notARecord))
        case .moveHere(let move): .move([move.recordID], to: move.to.id)
        }
    }

    /// The request `answer` sends; nil for no, and for an answer the question does not take.
    public func request(for answer: Answer) -> SessionRequest? {
        switch (answer, kind) {
        case (.yes, _): yes
        case (.anotherCopy, .moveHere): .add(entry, method: method, allowing: allowing.union(.anotherCopy))
        case (.no, _), (.anotherCopy, _): nil
        }
    }

    /// What Enter (and a bare confirmation) answers: yes to a move, which is what scanning
    /// a record with a place current is for; no to adding what may be a mistake.
    public var defaultAnswer: Answer {
        if case .moveHere = kind { return .yes }
        return .no
    }

    /// The question, without its choices: "The Beatles — Abbey Road: already have 1 copy:
    /// add another?" (the barcode, "5099750442227: …", before its lookup), "This is a book
    /// (ISBN 9781617292156): add it anyway?", "Holovr — Holovr, in Crate A1: move it here?".
    public var text: String {
        switch kind {
        case .anotherCopy(let copies):
            "\(title ?? subject): already have \(copies == 1 ? "1 copy" : "\(copies) copies")\(whereabouts.map { " (\($0))" } ?? ""): add another?"
        case .notARecord(let code):
            code.question
        case .moveHere(let move):
            move.text
        }
    }
}

/// A record scanned with a place current, which the collection has in another place (or in
/// none): the copy to move here, where it is, and where here is.
public struct MoveHere: Equatable, Sendable {
    /// The copy that would move (of several, the latest added that is not here already).
    public var recordID: Int64
    /// How the question names it: "Artist — Title", or its barcode before its lookup.
    public var title: String
    /// Where it is now; nil: in no place.
    public var from: Location?
    /// The current place.
    public var to: Location
    /// Copies of the barcode in the collection.
    public var copies: Int

    public init(recordID: Int64, title: String, from: Location?, to: Location, copies: Int) {
        self.recordID = recordID
        self.title = title
        self.from = from
        self.to = to
        self.copies = copies
    }

    /// "Holovr — Holovr, in Crate A1: move it here?"; "…, in no place: move it here?".
    public var text: String {
        let place = from.map { "in \($0.name)" } ?? "in no place"
        let more = copies > 1 ? " (\(copies) copies)" : ""
        return "\(title)\(more), \(place): move it here?"
    }
}
