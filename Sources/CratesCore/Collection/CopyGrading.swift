/// What the collector says about one copy's state, kept per copy (two copies of a release
/// are graded apart): the media and sleeve conditions in Discogs' grading scale, and a
/// rating from 0 (not rated) to 5. The copy's notes are its `CollectionRecord.note`.
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

/// A change to some of a copy's grading: nil leaves a value as it is; `.clear` removes it.
/// Part of a `RecordEdit` (`crates edit --media/--sleeve/--rating`, the collection UI's grade
/// pickers), whose `note` is the copy's notes.
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

    public init(media: Value<MediaCondition>? = nil, sleeve: Value<SleeveCondition>? = nil, rating: Rating? = nil) {
        self.media = media
        self.sleeve = sleeve
        self.rating = rating
    }

    /// The change typed: a grade in Discogs' words or short form ("VG+", "near mint", "Very
    /// Good Plus (VG+)"), a rating from 0 (not rated) to 5. A blank value clears it; nil
    /// changes nothing.
    public static func checked(media: String?, sleeve: String?, rating: String?) throws(RecordFieldError) -> CopyGradingChange {
        var change = CopyGradingChange()
        do throws(ConditionError) {
            if let media { change.media = media.allSatisfy(\.isWhitespace) ? .clear : .set(try MediaCondition(parsing: media)) }
            if let sleeve { change.sleeve = sleeve.allSatisfy(\.isWhitespace) ? .clear : .set(try SleeveCondition(parsing: sleeve)) }
        } catch {
            throw .condition(error)
        }
        if let rating, rating.allSatisfy(\.isWhitespace) {
            change.rating = .unrated
        } else if let rating {
            do throws(RatingError) {
                change.rating = try Rating(parsing: rating)
            } catch {
                throw .rating(error)
            }
        }
        return change
    }

    /// True when the change asks for nothing.
    public var isEmpty: Bool { media == nil && sleeve == nil && rating == nil }

    /// `grading` with this change made.
    public func applied(to grading: CopyGrading) -> CopyGrading {
        var out = grading
        if let media { out.media = media.value }
        if let sleeve { out.sleeve = sleeve.value }
        if let rating { out.rating = rating }
        return out
    }

    /// What the change does, for a record's history: "media \"Very Good Plus (VG+)\"",
    /// "sleeve removed", "rating 4".
    var summaryParts: [String] {
        var parts: [String] = []
        if let media { parts.append(media.value.map { "media \"\($0.rawValue)\"" } ?? "media removed") }
        if let sleeve { parts.append(sleeve.value.map { "sleeve \"\($0.rawValue)\"" } ?? "sleeve removed") }
        if let rating { parts.append(rating.isRated ? "rating \(rating.value)" : "rating removed") }
        return parts
    }
}

extension Rating {
    /// "★★★☆☆" (filled stars for the rating, hollow ones up to 5); "not rated" for 0.
    public var stars: String {
        isRated ? String(repeating: "★", count: value) + String(repeating: "☆", count: 5 - value) : "not rated"
    }
}
