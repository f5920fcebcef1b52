import CratesCore

/// The whole UI as a value: `handle(_:)` turns an event into a new state plus commands for the
/// workers, and `render(into:)` draws it. No I/O here, so every behaviour is unit-testable.
public struct AppState: Sendable {
    public enum Mode: Equatable, Sendable {
        case list
        case details(DetailsState)
        case picker(PickerState)
        case help(scroll: Int)
    }

    public struct DetailsState: Equatable, Sendable {
        public var recordID: Int64
        public var details: RecordDetails?
        public var scroll: Int
        /// A grade or rating being chosen (`M`, `V`, `*`), over the details.
        public var picker: GradePicker? = nil
    }

    public struct PickerState: Equatable, Sendable {
        public var recordID: Int64
        public var gtin: String
        public var candidates: [ReleaseCandidate]
        public var selected: Int
        public var scroll: Int
        /// Still waiting for the record's candidates from the store.
        public var loading: Bool
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
    public internal(set) var filterEditing = false
    /// The selected line and the record on it: the record is what the selection follows when
    /// the list changes under it.
    public internal(set) var selectedLine = 0
    public internal(set) var selectedRecord: Int64?
    public internal(set) var scrollTop = 0
    /// A record just added, to select once the collection shows it.
    var selectWhenSeen: Int64?
    public internal(set) var prompt: Prompt?
    /// "delete …? (y/N)" waiting in the status line.
    public internal(set) var confirmDelete: ConfirmDelete?
    /// Adds waiting for y/N, oldest first; the scans after them go on meanwhile.
    public internal(set) var questions: [AddQuestion] = []
    /// Camera scans that arrived while a dialog was open, applied in order once it closes.
    public internal(set) var queued: [QueuedScan] = []
    /// The last delete, for `u`.
    public internal(set) var lastUndo: Undo?
    public internal(set) var discogs: DiscogsStatus = .notSignedIn
    public internal(set) var camera: CameraStatus = .disabled
    /// A Discogs sync's progress (`S`).
    public internal(set) var sync: SyncStatus = .idle
    /// A sync's question waiting in the status line (y/N).
    public internal(set) var syncQuestion: SyncQuestion?
    public internal(set) var waiting = 0
    public internal(set) var message: Message?
    public internal(set) var width: Int
    public internal(set) var height: Int
    public internal(set) var hasQuit = false

    public struct ConfirmDelete: Equatable, Sendable {
        public var ids: [Int64]
        public var label: String
    }

    public struct QueuedScan: Equatable, Sendable {
        public var code: String
        public var method: AddMethod
    }

    public struct Undo: Equatable, Sendable {
        public var token: Int
        public var count: Int
    }

    public struct Message: Equatable, Sendable {
        public var text: String
        public var isError: Bool
    }

    /// A key counts as machine-typed when it follows the previous one within this many seconds
    /// (wedge scanners: 5–30 ms a key; people: 80 ms and more).
    static let wedgeKeyInterval = 0.05

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Rows available to the list (one title line above, status and message lines below).
    var listHeight: Int { max(1, height - 3) }

    /// Whether a dialog holds the user's attention, so camera scans wait.
    var dialogOpen: Bool {
        if case .picker = mode { return true }
        return confirmDelete != nil || !questions.isEmpty || prompt != nil
    }
}
