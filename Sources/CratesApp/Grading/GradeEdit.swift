import CratesCore
import CratesStore
import Foundation

/// Why a grading edit was not made.
public enum GradeEditError: Error, Hashable, Sendable, CustomStringConvertible {
    case condition(ConditionError)
    case rating(RatingError)
    /// No value to change was given.
    case nothingToChange
    case noSuchRecord(Int64)

    public var description: String {
        switch self {
        case .condition(let error): error.description
        case .rating(let error): error.description
        case .nothingToChange: "nothing to change: give --media, --sleeve, --rating or --note"
        case .noSuchRecord(let id): "there is no record \(id) (`crates list` shows the ids)"
        }
    }
}

/// Setting a copy's conditions, rating and note: `crates edit ID --media … --sleeve …
/// --rating … --note …`, and the collection UI's pickers. What is changed here is pushed to
/// the Discogs collection by the next `crates sync`.
public struct GradeEdit: Sendable {
    public let store: CatalogueStore

    public init(store: CatalogueStore) {
        self.store = store
    }

    /// The change the flags ask for, as typed: a grade in Discogs' words or short form
    /// ("VG+", "near mint", "Very Good Plus (VG+)"), a rating from 0 (not rated) to 5, a
    /// note. An empty grade or note clears it. Nil flags change nothing.
    public static func change(media: String?, sleeve: String?, rating: String?, note: String?) throws(GradeEditError) -> CopyGradingChange {
        var change = CopyGradingChange()
        do throws(ConditionError) {
            if let media { change.media = media.allSatisfy(\.isWhitespace) ? .clear : .set(try MediaCondition(parsing: media)) }
            if let sleeve { change.sleeve = sleeve.allSatisfy(\.isWhitespace) ? .clear : .set(try SleeveCondition(parsing: sleeve)) }
        } catch {
            throw .condition(error)
        }
        if let rating {
            do throws(RatingError) {
                change.rating = try Rating(parsing: rating)
            } catch {
                throw .rating(error)
            }
        }
        if let note { change.note = note.allSatisfy(\.isWhitespace) ? .clear : .set(note) }
        guard !change.isEmpty else { throw .nothingToChange }
        return change
    }

    /// Makes the change; returns the record as stored.
    public func apply(_ change: CopyGradingChange, to id: Int64) async throws -> CatalogueRecord {
        do {
            return try await store.setGrading(change, for: id)
        } catch .recordNotFound(let missing) {
            throw GradeEditError.noSuchRecord(missing)
        }
    }

    /// `id  media  sleeve  rating  note`, tab-separated (an unset value is an empty field;
    /// the rating 0 when not rated).
    public static func line(_ record: CatalogueRecord) -> String {
        TabSeparatedText.line([
            String(record.id), record.grading.media?.rawValue ?? "", record.grading.sleeve?.rawValue ?? "",
            String(record.grading.rating.value), record.note ?? "",
        ])
    }

    /// What the status line says after an edit: "Media: Very Good Plus (VG+)", "Rating: ★★★★☆".
    public static func message(for record: CatalogueRecord, change: CopyGradingChange) -> String {
        var parts: [String] = []
        if change.media != nil { parts.append("Media: " + (record.grading.media?.rawValue ?? "not graded")) }
        if change.sleeve != nil { parts.append("Sleeve: " + (record.grading.sleeve?.rawValue ?? "not graded")) }
        if change.rating != nil { parts.append("Rating: " + record.grading.rating.stars) }
        if change.note != nil { parts.append(record.note == nil ? "Note cleared" : "Note set") }
        return parts.joined(separator: " · ")
    }
}
