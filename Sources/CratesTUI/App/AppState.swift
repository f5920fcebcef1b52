import CratesCore

/// The whole UI as a value: `handle(_:)` turns an event into a new state plus commands for the
/// workers, and `render(into:)` draws it. No I/O here, so every behaviour is unit-testable.
public struct AppState: Sendable {
    public enum Mode: Equatable, Sendable {
        case list
        case details(DetailsState)
        case picker(PickerState)
        case help(scroll: Int)
        /// A search form, an entry by hand, or an edit (see `FormState`).
        case form(FormState)
        /// The records that need a person, one at a time (see `walk`).
        case needs
        /// The places as a tree with their counts (`L`).
        case locations(LocationsState)
        /// The collection's statistics as bar charts (`#`).
        case statistics(StatisticsState)
        /// The sign-in form (`A`).
        case signIn(SignInState)
        /// The copies in conflict with the Discogs collection (`C`).
        case conflicts(ConflictsState)
        /// Check mode's list of every code checked this session, newest first (`c`).
        case fair(FairState)
        /// One checked code's verdict (a scan in check mode opens it).
        case verdict(VerdictState)
        /// The wantlist (`w`).
        case wantlist(WantlistState)
        /// The copies out on loan: who has them, since when (`B`).
        case loans(LoansState)
        /// The scans refused this session, newest first (`!`).
        case refusals(scroll: Int)
    }

    /// Where a form or the picker goes back to when it closes.
    public enum Back: Equatable, Sendable {
        case list
        case details(Int64)
        /// The "needs a person" view, on the record it was on (or the next one, once that
        /// one is settled).
        case needs
    }

    public struct DetailsState: Equatable, Sendable {
        public var recordID: Int64
        public var details: RecordDetails?
        public var scroll: Int
        /// A grade or rating being chosen (`M`, `V`, `*`), over the details.
        public var picker: GradePicker? = nil
    }

    public struct PickerState: Equatable, Sendable {
        /// The record the choice resolves; nil for a search whose choice adds a record.
        public var recordID: Int64?
        /// What the pressings are for, in the header: the barcode they share, or the search.
        public var subject: String
        /// Every candidate, ranked; `shown` are those the narrowing text keeps.
        public var candidates: [ReleaseCandidate]
        /// Index into `shown`.
        public var selected: Int
        public var scroll: Int
        /// Still waiting for the record's candidates from the store, or for the search.
        public var loading: Bool
        /// What the person typed to narrow the candidates (`CandidateFilter`).
        public var filter: String = ""
        /// The search that found the candidates (nil: a barcode's), to go back to its form.
        public var search: FormState?
        /// Requests the search cost.
        public var requests: Int = 0
        public var back: Back = .list

        public init(
            recordID: Int64?, subject: String, candidates: [ReleaseCandidate], selected: Int = 0, scroll: Int = 0,
            loading: Bool, search: FormState? = nil, back: Back = .list
        ) {
            self.recordID = recordID
            self.subject = subject
            self.candidates = candidates
            self.selected = selected
            self.scroll = scroll
            self.loading = loading
            self.search = search
            self.back = back
        }

        /// The candidates the narrowing text keeps, in their order.
        public var shown: [ReleaseCandidate] { CandidateFilter(filter).apply(candidates) }
    }

    /// The barcode prompt at the bottom (opened by `a`, or by a digit: a wedge scan).
    public struct Prompt: Equatable, Sendable {
        public var text: String
        public var error: String?
        /// When the first and latest keys arrived: a whole entry typed faster than a person
        /// can type is a wedge scan.
        public var firstKeyAt: Double
        public var lastKeyAt: Double
        public var allFast: Bool
    }

    /// How many rows to ask for around the screen: the screen plus a screen each side, so that
    /// scrolling rarely waits for the store.
    var windowMargin: Int { listHeight }

    public internal(set) var mode: Mode = .list
    public internal(set) var list: CollectionWindow = .empty
    /// The last query and focus sent, so that each is sent once.
    var sentQuery: CollectionQuery?
    var sentFocus: Int64??
    /// Whether the store has answered at all (an empty collection is an answer).
    var received = false
    public internal(set) var filter = ""
    /// The current place (its label was scanned, or it was chosen in the tree): the list
    /// shows what is in it and inside it, and what is added goes in it. Nil: none.
    public internal(set) var location: Location?
    /// One bar of the statistics the list is narrowed to (Enter on it in `#`); nil: none.
    public internal(set) var facet: StatisticsFacet?
    /// The statistics screen `facet` was chosen on, for Esc to go back to; nil: none.
    var facetChart: StatisticsState?
    public internal(set) var filterEditing = false
    /// The order of the rows within each section (`O` cycles it; the runner remembers it).
    public internal(set) var order: ListOrder = .default
    /// The rows of each section the other way round (`R`); the sections stay A–Z.
    public internal(set) var descending = false
    /// One list without genre sections (`F`). Both kept for the session.
    public internal(set) var flat = false
    /// The wantlist view's order (`O` there) and whether it is turned round (`R`): kept for
    /// the session, as the list's are.
    public internal(set) var wantOrder: WantOrder = .artist
    public internal(set) var wantReversed = false
    /// The selected line and the record on it: the record is what the selection follows when
    /// the list changes under it.
    public internal(set) var selectedLine = 0
    public internal(set) var selectedRecord: Int64?
    public internal(set) var scrollTop = 0
    /// A record just added, to select once the collection shows it.
    var selectWhenSeen: Int64?
    public internal(set) var prompt: Prompt?
    /// Every scan refused this session, oldest first (`!` lists them, newest first).
    public internal(set) var refusals: [Refusal] = []
    /// The last refusal, in sight over the bottom line until a person's key.
    public internal(set) var refusalShown: Refusal?
    /// "delete …? (y/N)" waiting in the status line.
    public internal(set) var confirmDelete: ConfirmDelete?
    /// Adds waiting for y/N, oldest first; the scans after them go on meanwhile.
    public internal(set) var questions: [AddQuestion] = []
    /// Camera scans that arrived while a dialog was open, applied in order once it closes.
    public internal(set) var queued: [QueuedScan] = []
    /// The last delete, for `u`.
    /// The session's deletes, moves and edits that can be undone, the last one last: `u`
    /// undoes them one by one, last first.
    public internal(set) var undoStack: [Undo] = []
    /// The walk through the records that need a person, while it lasts (also while a form
    /// or the picker opened from it is up).
    public internal(set) var walk: NeedsWalk?
    public internal(set) var discogs: DiscogsStatus = .notSignedIn
    /// The local catalogue the session has: the search form (`s`) asks it as the person types.
    public internal(set) var catalogue: CatalogueEdition?
    public internal(set) var camera: CameraStatus = .disabled
    /// A camera daemon was connected in this session: from then on its absence is news.
    public internal(set) var cameraSeen = false
    /// A Discogs sync's progress (`S`).
    public internal(set) var sync: SyncStatus = .idle
    /// The seconds the running sync has left at Discogs' rate (nil: not known yet).
    public internal(set) var syncSecondsLeft: Double?
    /// A sync's question waiting in the status line (y/N).
    public internal(set) var syncQuestion: SyncQuestion?
    public internal(set) var waiting = 0
    public internal(set) var message: Message?
    public internal(set) var width: Int
    public internal(set) var height: Int
    public internal(set) var hasQuit = false
    /// Covers in the details view (`I` shows and hides them; `--no-covers` and the
    /// configuration's `covers` start with them hidden).
    public internal(set) var coversOn = false
    /// The colours the terminal shows covers in; nil: none, so no covers.
    public internal(set) var coverColours: CoverColours?
    /// Check mode (`f`, `crates --check`): a scan or a typed code is checked, never added.
    public internal(set) var checkMode = false
    /// The tagged records (`t`, `T`, tag by scan): the list's actions take them all when
    /// there are any. Kept by id, so they stay tagged however the list is filtered.
    public internal(set) var tags: Set<Int64> = []
    /// Tag by scan (`b`): a copy label scanned tags its copy instead of shelving it.
    public internal(set) var tagByScan = false
    /// A grade or rating being chosen in the list, for the tagged records (or the selected
    /// one): `M`, `V`, `*`.
    public internal(set) var listGrading: ListGrading?
    /// What the collection holds of the releases listed (pressings, search results, a
    /// record's release), as the session last said.
    public internal(set) var releaseMarks: [Int: ReleaseMarks] = [:]
    /// Every code checked this session, newest first: the fair's list.
    public internal(set) var fair: [FairEntry] = []
    var nextCheckSerial = 1
    /// The covers asked of the session, and what came, by request (its size included).
    var covers: [CoverRequest: CoverState] = [:]
    /// The cover the person looked at when covers were last asked for (see `coverRequests`).
    var coverFocus: CoverRequest?

    public struct ConfirmDelete: Equatable, Sendable {
        public var ids: [Int64]
        public var label: String
    }

    /// The list's grade picker and the records it sets.
    public struct ListGrading: Equatable, Sendable {
        public var picker: GradePicker
        public var ids: [Int64]
    }

    public struct QueuedScan: Equatable, Sendable {
        public var code: String
        public var method: AddMethod
    }

    public struct Undo: Equatable, Sendable {
        public var token: Int
        public var count: Int
    }

    /// Keeps `undo` for `u`; the oldest go past `undoLimit` (the ledger keeps them anyway,
    /// only the UI forgets).
    mutating func pushUndo(_ undo: Undo) {
        undoStack.append(undo)
        if undoStack.count > Self.undoLimit { undoStack.removeFirst(undoStack.count - Self.undoLimit) }
    }

    static let undoLimit = 1000

    public struct Message: Equatable, Sendable {
        public var text: String
        public var isError: Bool
    }

    /// A key counts as machine-typed when it follows the previous one within this many seconds
    /// (wedge scanners: 5–30 ms a key; people: 80 ms and more).
    static let wedgeKeyInterval = 0.05

    public init(width: Int, height: Int, order: ListOrder = .default, covers: Bool = false, coverColours: CoverColours? = nil) {
        self.width = width
        self.height = height
        self.order = order
        coversOn = covers
        self.coverColours = coverColours
    }

    /// Rows available to the list (one title line above, the status line and the message's
    /// lines below: `bottomRows`).
    var listHeight: Int { max(1, height - 2 - bottomRows) }

    /// Whether a dialog holds the user's attention, so camera scans wait.
    /// Whether an add's question shows and takes its keys now: in every view but a text
    /// field (a form, the sign-in, the picker's narrowing), where it waits until that closes.
    /// A scan made in the statistics or the details is asked about where it was made.
    var questionsAnswerable: Bool {
        switch mode {
        case .picker, .form, .signIn: false
        default: true
        }
    }

    var dialogOpen: Bool {
        switch mode {
        case .picker, .form, .signIn: return true
        default: return confirmDelete != nil || !questions.isEmpty || prompt != nil || listGrading != nil
        }
    }
}
