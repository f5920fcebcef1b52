/// One copy whose values were changed differently in crates and on Discogs since the last
/// sync, as the store keeps it after the sync that found it (so that the collection UI can
/// show it, and a choice can settle it, after the sync has ended).
public struct SyncCopyConflict: Hashable, Sendable {
    /// One field in conflict: crates' value now and Discogs' as the last sync read it, as
    /// text (`SyncedValues.text`; nil: not set).
    public struct Field: Hashable, Sendable {
        public var field: SyncField
        public var crates: String?
        public var discogs: String?

        public init(field: SyncField, crates: String?, discogs: String?) {
            self.field = field
            self.crates = crates
            self.discogs = discogs
        }
    }

    public var recordID: Int64
    public var instanceID: Int64
    /// "Artist — Title", or the barcode while unmatched.
    public var title: String
    /// In `SyncField` order; never empty.
    public var fields: [Field]

    public init(recordID: Int64, instanceID: Int64, title: String, fields: [Field]) {
        self.recordID = recordID
        self.instanceID = instanceID
        self.title = title
        self.fields = fields
    }

    /// Crates' values of the fields in conflict, over `values` (the copy's others).
    public func cratesValues(over values: SyncedValues) -> SyncedValues {
        fields.reduce(values) { $0.with($1.field, text: $1.crates) }
    }

    /// Discogs' values of the fields in conflict, over `values`.
    public func discogsValues(over values: SyncedValues) -> SyncedValues {
        fields.reduce(values) { $0.with($1.field, text: $1.discogs) }
    }
}

extension SyncField {
    /// A value of this field as a person reads it: a rating as its stars ("★★", without the
    /// hollow ones), a grade or a note as it is; "not rated" or "not set" when there is none.
    public func shown(_ text: String?) -> String {
        switch self {
        case .rating:
            let rating = Rating(clamping: Int(text ?? "0") ?? 0)
            return rating.isRated ? String(repeating: "★", count: rating.value) : "not rated"
        case .media, .sleeve, .notes:
            guard let text, !text.isEmpty else { return "not set" }
            return ControlCharacters.cleaned(text.replacingOccurrences(of: "\n", with: " "))
        }
    }
}

extension SyncedValues {
    /// These values with `field` set from its text (`text(_:)`'s form; nil: not set). A grade
    /// that is not one of Discogs' is no grade.
    public func with(_ field: SyncField, text: String?) -> SyncedValues {
        var out = self
        switch field {
        case .rating: out.rating = Rating(clamping: Int(text ?? "0") ?? 0)
        case .media: out.media = text.flatMap(MediaCondition.init(rawValue:))
        case .sleeve: out.sleeve = text.flatMap(SleeveCondition.init(rawValue:))
        case .notes: out.notes = Self.normalisedNotes(text)
        }
        return out
    }
}
