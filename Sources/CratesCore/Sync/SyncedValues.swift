/// The values crates and Discogs keep in step for one copy: its rating, its media and
/// sleeve conditions (Discogs' "Media Condition" and "Sleeve Condition" fields) and its
/// notes (Discogs' "Notes" field, crates' note).
///
/// Notes are compared as Discogs keeps them (`DiscogsCopyFields.cleanNotes`: line breaks as
/// LF, no other control characters), and an empty note is no note, so that a note that went
/// through Discogs and back does not count as a change.
public struct SyncedValues: Hashable, Sendable {
    public var rating: Rating
    public var media: MediaCondition?
    public var sleeve: SleeveCondition?
    public var notes: String?

    /// Nothing set: what a copy that was never synced is compared against.
    public static let empty = SyncedValues()

    public init(rating: Rating = .unrated, media: MediaCondition? = nil, sleeve: SleeveCondition? = nil, notes: String? = nil) {
        self.rating = rating
        self.media = media
        self.sleeve = sleeve
        self.notes = Self.normalisedNotes(notes)
    }

    /// A crates copy's values.
    public init(grading: CopyGrading, note: String?) {
        self.init(rating: grading.rating, media: grading.media, sleeve: grading.sleeve, notes: note)
    }

    /// A Discogs instance's values, its custom fields read through `fields`.
    public init(rating: Rating, fields: DiscogsCopyFields) {
        self.init(rating: rating, media: fields.media, sleeve: fields.sleeve, notes: fields.notes)
    }

    /// The value of one field, as text (nil: not set), for messages and storage.
    public func text(_ field: SyncField) -> String? {
        switch field {
        case .rating: rating.isRated ? String(rating.value) : nil
        case .media: media?.rawValue
        case .sleeve: sleeve?.rawValue
        case .notes: notes
        }
    }

    /// These values with `field` taken from `other`.
    public func with(_ field: SyncField, from other: SyncedValues) -> SyncedValues {
        var out = self
        switch field {
        case .rating: out.rating = other.rating
        case .media: out.media = other.media
        case .sleeve: out.sleeve = other.sleeve
        case .notes: out.notes = other.notes
        }
        return out
    }

    public func differs(from other: SyncedValues, in field: SyncField) -> Bool {
        text(field) != other.text(field)
    }

    static func normalisedNotes(_ notes: String?) -> String? {
        guard let notes else { return nil }
        let cleaned = DiscogsCopyFields.cleanNotes(notes)
        return cleaned.allSatisfy(\.isWhitespace) ? nil : cleaned
    }
}

/// One of the values a sync keeps in step.
public enum SyncField: String, Hashable, Sendable, CaseIterable, Comparable {
    case rating, media, sleeve, notes

    /// "rating", "media condition", "sleeve condition", "notes".
    public var label: String {
        switch self {
        case .rating: "rating"
        case .media: "media condition"
        case .sleeve: "sleeve condition"
        case .notes: "notes"
        }
    }

    public static func < (a: SyncField, b: SyncField) -> Bool {
        allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0
    }
}

/// Which side wins a conflict (`crates sync --prefer discogs|crates`).
public enum SyncPreference: String, Hashable, Sendable, CaseIterable {
    case discogs, crates
}
