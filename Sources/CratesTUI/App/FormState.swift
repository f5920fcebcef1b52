import CratesCore

/// A form at the bottom of the screen's body: the search without a barcode (`s`), the entry
/// by hand (`m`) and the edit of a record (`e`). Tab moves between fields, Enter sends, Esc
/// cancels; what is sent is checked first, in Core, so a refused value costs no request and
/// the reason shows in the form.
public struct FormState: Equatable, Sendable {
    /// What the form is for.
    public enum Purpose: Equatable, Sendable {
        /// A search; its choice resolves the record named, or adds a record (nil).
        case search(recordID: Int64?)
        /// An entry by hand: a new record (nil), or the record named (Discogs lacks it).
        case handEntry(recordID: Int64?)
        case edit(recordID: Int64)

        public var recordID: Int64? {
            switch self {
            case .search(let id), .handEntry(let id): id
            case .edit(let id): id
            }
        }
    }

    /// A field of a form.
    public enum Key: String, Equatable, Sendable, CaseIterable {
        case artist, title, catno, label, genre, year, country, format, note
        /// What was paid for the copy and where, and its loan: the collector's alone.
        case paid, currency, bought, boughtFrom, lentTo, lentOn, returned

        public var label: String {
            switch self {
            case .catno: "Catalogue no."
            case .bought: "Bought on"
            case .boughtFrom: "Bought from"
            case .lentTo: "Lent to"
            case .lentOn: "Lent on"
            case .returned: "Returned on"
            default: rawValue.prefix(1).uppercased() + rawValue.dropFirst()
            }
        }

        /// The record field it edits (nil for the note and the copy's own fields).
        public var recordField: RecordField? { RecordField(rawValue: rawValue) }

        /// A field of what was paid, or of the loan.
        public var isPersonal: Bool { Self.personalKeys.contains(self) }

        static let personalKeys: [Key] = [.paid, .currency, .bought, .boughtFrom, .lentTo, .lentOn, .returned]
    }

    public struct Field: Equatable, Sendable {
        public var key: Key
        public var text: String
        /// The text it was opened with (an edit sends only what changed).
        public var original: String
        /// The value is the collector's own (an edit shows it so).
        public var isCollectors: Bool

        public init(key: Key, text: String = "", isCollectors: Bool = false) {
            self.key = key
            self.text = text
            self.original = text
            self.isCollectors = isCollectors
        }
    }

    public var purpose: Purpose
    public var fields: [Field]
    public var focused: Int = 0
    /// Why the last send was refused, or what the search found (nothing, a failure).
    public var error: String?
    /// What the local catalogue has for the search as typed so far (`AppState.catalogue`),
    /// shown under the fields; nil before it answers, or when what is typed is no search.
    public var preview: ReleaseSearchAnswer?
    /// Waiting for the record's details to fill the form.
    public var loading: Bool = false
    public var back: AppState.Back
    /// The collection's genre sections (`SessionEvent.genres`), offered as the genre is
    /// typed; empty until they come.
    public var genres: [String] = []

    /// The longest text a field takes as typed: far over what a value may be, so that a
    /// paste gone wrong is refused with its length (by the checks on sending) rather than
    /// cut silently; and bounded, so that it cannot fill the memory.
    static let maximumTyped = 10_000
    static let maximumNoteTyped = 2 * RecordFieldValue.maximumNoteLength

    public init(purpose: Purpose, fields: [Field], back: AppState.Back, loading: Bool = false) {
        self.purpose = purpose
        self.fields = fields
        self.back = back
        self.loading = loading
    }

    /// The search fields, in the order a spine and a label are read.
    static let searchKeys: [Key] = [.artist, .title, .catno, .label, .year, .country, .format]
    /// A record's fields, and for an edit its note.
    static let recordKeys: [Key] = [.artist, .title, .genre, .year, .format, .label, .catno, .country]

    /// An empty search form, or one filled from what a record says of itself: its values as
    /// shown (the collector's over the release's), else its candidates' artist and title.
    public static func search(for details: RecordDetails?, back: AppState.Back) -> FormState {
        let values = details.map(prefill) ?? .none
        let fields = searchKeys.map { Field(key: $0, text: $0.recordField.flatMap { values[$0] } ?? "") }
        var form = FormState(purpose: .search(recordID: details?.record.id), fields: fields, back: back)
        form.focused = fields.firstIndex { $0.text.isEmpty } ?? 0
        return form
    }

    /// An entry by hand, empty, or for a record (its barcode kept) filled from it.
    public static func handEntry(for details: RecordDetails?, back: AppState.Back) -> FormState {
        let values = details.map(prefill) ?? .none
        let fields = recordKeys.map { Field(key: $0, text: $0.recordField.flatMap { values[$0] } ?? "") }
        return FormState(purpose: .handEntry(recordID: details?.record.id), fields: fields, back: back)
    }

    /// An edit of a record: its values as shown, the collector's marked, and its note.
    public static func edit(_ details: RecordDetails, back: AppState.Back) -> FormState {
        let shown = details.shown
        var fields = recordKeys.map { key -> Field in
            let field = key.recordField
            return Field(
                key: key, text: field.flatMap { shown[$0] } ?? "",
                isCollectors: field.map { details.record.collector[$0] != nil } ?? false)
        }
        fields.append(Field(key: .note, text: details.record.note ?? ""))
        fields += personalFields(details.record)
        return FormState(purpose: .edit(recordID: details.record.id), fields: fields, back: back)
    }

    /// What was paid for the copy, where, and its loan (the last one, returned or not), as
    /// the edit form shows them.
    static func personalFields(_ record: CollectionRecord) -> [Field] {
        let purchase = record.purchase
        let loan = record.loan
        return [
            Field(key: .paid, text: purchase.price.map(MoneyAmount.text) ?? ""),
            Field(key: .currency, text: purchase.currency ?? ""),
            Field(key: .bought, text: purchase.date ?? ""),
            Field(key: .boughtFrom, text: purchase.from ?? ""),
            Field(key: .lentTo, text: loan?.to ?? ""),
            Field(key: .lentOn, text: loan?.since ?? ""),
            Field(key: .returned, text: loan?.returned ?? ""),
        ]
    }

    /// A form waiting for its record's details (`fill(with:)` completes it).
    public static func loading(_ purpose: Purpose, back: AppState.Back) -> FormState {
        FormState(purpose: purpose, fields: [], back: back, loading: true)
    }

    /// The form for `purpose`, filled from `details`.
    public static func make(_ purpose: Purpose, details: RecordDetails?, back: AppState.Back) -> FormState {
        switch purpose {
        case .search: search(for: details, back: back)
        case .handEntry: handEntry(for: details, back: back)
        case .edit: details.map { edit($0, back: back) } ?? FormState(purpose: purpose, fields: [], back: back)
        }
    }

    /// What a record says of itself: its values as shown, with its first candidate's artist
    /// and title when it has none (an ambiguous barcode).
    static func prefill(_ details: RecordDetails) -> RecordFields {
        var values = details.shown
        if let candidate = details.record.candidates.first {
            if values.artist == nil, !candidate.artist.isEmpty { values.artist = candidate.artist }
            if values.title == nil, !candidate.title.isEmpty { values.title = candidate.title }
        }
        return values
    }

    /// The text of `key`, nil when the form has no such field or it is blank.
    public func text(_ key: Key) -> String? {
        fields.first { $0.key == key }.map(\.text).flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
    }

    /// The genres offered under the form while the genre field is focused: those the text
    /// typed so far begins (or begins a word of); empty when another field is.
    public var genreSuggestions: [String] {
        guard fields.indices.contains(focused), fields[focused].key == .genre else { return [] }
        return GenreSuggestions.matching(fields[focused].text, known: genres)
    }

    /// What Tab puts in the focused genre field (the first genre offered), nil when Tab
    /// moves on.
    public var genreCompletion: String? {
        guard fields.indices.contains(focused), fields[focused].key == .genre else { return nil }
        return GenreSuggestions.completion(of: fields[focused].text, known: genres)
    }

    /// The form's title line.
    public var title: String {
        switch purpose {
        case .search(nil): "Search Discogs (no barcode needed)"
        case .search: "Search Discogs for this record"
        case .handEntry(nil): "Enter a record by hand (artist and title at least)"
        case .handEntry: "Enter this record by hand (Discogs does not have it)"
        case .edit: "Edit the record: your values win over Discogs'"
        }
    }

    /// What Enter does.
    public var submitLabel: String {
        switch purpose {
        case .search: "search"
        case .handEntry: "add"
        case .edit: "save"
        }
    }
}

/// The walk through the records that need a person (ambiguous, not found, failed), oldest
/// first: the one shown, and the ids after it. Records settled meanwhile drop out, since the
/// list is asked for again after each one; `x` leaves a record as it is.
public struct NeedsWalk: Equatable, Sendable {
    /// The records needing a person when last asked, oldest first.
    public var ids: [Int64] = []
    /// The record shown, nil when none is left after `after`.
    public var current: Int64?
    /// The record handled last: the walk goes on with the first id after it.
    public var after: Int64 = 0
    public var details: RecordDetails?
    /// Still waiting for the list.
    public var loading = true
    /// Records left as they are (`x`) in this walk.
    public var left = 0

    public init() {}

    /// Position of the current record among those that need a person (1-based), and how many.
    public var position: (index: Int, count: Int)? {
        guard let current, let index = ids.firstIndex(of: current) else { return nil }
        return (index + 1, ids.count)
    }
}
