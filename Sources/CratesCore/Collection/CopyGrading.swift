/// What the collector says about one copy's state, kept per copy (two copies of a release
/// are graded apart): the media and sleeve conditions in Discogs' grading scale, and a
/// rating from 0 (not rated) to 5. The copy's notes are its `CatalogueRecord.note`.
public struct CopyGrading: Hashable, Sendable {
    public var media: MediaCondition?
    public var sleeve: SleeveCondition?
    public var rating: Rating

    /// Nothing graded, not rated.
    public static let none = CopyGrading()

    public init(media: MediaCondition? = nil, sleeve: SleeveCondition? = nil, rating: Rating = .unrated) {
        self.media = media
        self.sleeve = sleeve
        self.rating = rating
    }

    public var isEmpty: Bool { media == nil && sleeve == nil && !rating.isRated }

    /// "VG+/NM ★★★☆☆", for a line of a list: the short grades (media/sleeve), then the
    /// stars; empty when nothing is set.
    public var summary: String {
        var parts: [String] = []
        if media != nil || sleeve != nil {
            parts.append("\(media?.abbreviation ?? "–")/\(sleeve?.abbreviation ?? "–")")
        }
        if rating.isRated { parts.append(rating.stars) }
        return parts.joined(separator: " ")
    }
}

/// A change to some of a copy's grading and notes: nil leaves a value as it is; `.clear`
/// removes it. What `crates edit --media/--sleeve/--rating/--note` and the collection UI's
/// grade pickers ask for.
public struct CopyGradingChange: Hashable, Sendable {
    /// A new value, or none (the field is cleared).
    public enum Value<T: Hashable & Sendable>: Hashable, Sendable {
        case set(T)
        case clear

        public var value: T? {
            if case .set(let value) = self { return value }
            return nil
        }
    }

    public var media: Value<MediaCondition>?
    public var sleeve: Value<SleeveCondition>?
    public var rating: Rating?
    /// The copy's note (`CatalogueRecord.note`), which Discogs' "Notes" field mirrors.
    public var note: Value<String>?

    public init(
        media: Value<MediaCondition>? = nil, sleeve: Value<SleeveCondition>? = nil, rating: Rating? = nil,
        note: Value<String>? = nil
    ) {
        self.media = media
        self.sleeve = sleeve
        self.rating = rating
        self.note = note
    }

    /// True when the change asks for nothing.
    public var isEmpty: Bool { media == nil && sleeve == nil && rating == nil && note == nil }

    /// `grading` with this change made.
    public func applied(to grading: CopyGrading) -> CopyGrading {
        var out = grading
        if let media { out.media = media.value }
        if let sleeve { out.sleeve = sleeve.value }
        if let rating { out.rating = rating }
        return out
    }

    /// `note` with this change made: an empty or blank note is no note.
    public func applied(toNote note: String?) -> String? {
        guard let change = self.note else { return note }
        guard let text = change.value, !text.allSatisfy(\.isWhitespace) else { return nil }
        return text
    }
}

extension Rating {
    /// "★★★☆☆" (filled stars for the rating, hollow ones up to 5); "not rated" for 0.
    public var stars: String {
        isRated ? String(repeating: "★", count: value) + String(repeating: "☆", count: 5 - value) : "not rated"
    }
}
