/// What the application reports to the collection UI, from any thread; the UI applies these
/// on its own thread only.
public enum SessionEvent: Sendable {
    /// The store answered a `SessionRequest.query` (asked for, or re-run after a change by
    /// any process).
    case window(CollectionWindow)
    /// An add held back by a rule: ask the person (another copy? a book?).
    case ask(AddQuestion)
    case details(RecordDetails)
    /// A record was added: the selection moves to it once the collection shows it.
    case added(recordID: Int64)
    /// Records were deleted; `undo` names the batch for `SessionRequest.undo`.
    case deleted(count: Int, undo: Int)
    case restored(count: Int)
    case discogs(DiscogsStatus)
    case camera(CameraStatus)
    /// Lookups waiting in the queue.
    case waiting(Int)
    case message(String, isError: Bool)
    /// Something needs a Discogs account and no one is signed in: `need` says what
    /// ("Sync needs Discogs"), nil when nothing more; the UI says how to sign in there.
    case notSignedIn(need: String?)
    /// What a `SessionRequest.search` found (or why it could not search).
    case found(ReleaseSearchAnswer)
    /// A local catalogue of Discogs' data answers searches (`s`) as the person types.
    case catalogue(CatalogueEdition)
    /// The records that need a person, oldest first (`SessionRequest.loadNeedsPerson`).
    case needsPerson([Int64])
    /// A code the camera daemon read: a barcode or a QR code holding a Discogs release URL is
    /// added as a typed one would be; any other code is shown and not added (`ScanIntent`).
    case cameraScan(ScanEvent)
    /// The current place changed (a place's label was scanned, or one was chosen); nil: none,
    /// the whole collection.
    case location(Location?)
    /// Every place with its counts (asked for with `SessionRequest.loadLocations`).
    case locations(LocationTree)
    /// The collection's statistics (asked for with `SessionRequest.loadStatistics`).
    case statistics(CollectionStatistics)
    /// Records were moved into `to` (nil: out of any place); `undo` names the move for
    /// `SessionRequest.undo`.
    case moved(count: Int, to: Location?, undo: Int)
    /// A record was edited (its values, note, grades or rating): `text` says what was set;
    /// `undo` names the edit for `SessionRequest.undo`.
    case edited(text: String, undo: Int)
    /// A copy's label was scanned: select that record.
    case select(recordID: Int64)
    /// The collection's genre sections, most records first (`SessionRequest.loadGenres`).
    case genres([String])
    /// A Discogs sync's progress, for the status line.
    case sync(SyncStatus)
    /// A question after a sync (y/N).
    case syncQuestion(SyncQuestion)
    /// The first sync's plan, worked out without writing anything: asked about (y/N) before
    /// `SessionRequest.syncAsPlanned` runs it.
    case syncPlan(SyncPlan)
    /// The time the running sync has left at Discogs' rate, in seconds (nil: not known).
    case syncTimeLeft(Double?)
    /// The sign-in form's answers (`SessionRequest.signIn`).
    case signIn(SignInEvent)
    /// The copies in conflict with the Discogs collection (`SessionRequest.loadSyncConflicts`).
    case syncConflicts([SyncCopyConflict])
    /// The answer to `SessionRequest.cover`: the cells, or a placeholder and why.
    case cover(CoverRequest, CoverState)
    /// A code checked (`SessionRequest.check`), by its serial in the fair's list.
    case checked(serial: Int, CheckOutcome)
    /// The wantlist, with prices (after `WantRequest.load`, and after each change).
    case wantlist([WantListing])
    /// The copies out on loan, by borrower (`SessionRequest.loadLoans`).
    case loans([LoanListing])
    /// What the collection holds of releases just listed (a record's pressings, a search's
    /// results, a record's release): owned, where, wanted.
    case marks([Int: ReleaseMarks])
    /// Records to tag (`SessionRequest.tagShown`, `tagCopy`); `title` names the one copy a
    /// label scan tagged.
    case tagged([Int64], title: String?)
}
