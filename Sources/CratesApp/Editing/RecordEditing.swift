import CratesCore
import CratesStore
import Foundation

/// `crates edit ID`: the collector's own values of one record, set or given back to Discogs,
/// its note, and the copy's conditions and rating (the TUI's `e` and its grade pickers send
/// the same `RecordEdit` through its session). What is changed in the note, grades and
/// rating is pushed to the Discogs collection by the next `crates sync`.
public enum RecordEditing {
    /// Why an edit was not made, with `crates edit`'s message.
    public enum Failure: Error, CustomStringConvertible {
        case noSuchRecord(Int64)
        case value(RecordFieldError)
        case store(StoreError)

        public var description: String {
            switch self {
            case .noSuchRecord(let id): "no record has id \(id) (see `crates list`)"
            case .value(let error): error.description
            case .store(let error): error.description
            }
        }
    }

    /// Checks what was typed (`RecordEdit.checked`), applies it, and returns the record as
    /// `crates list` shows it now (the values shown are the collector's where set).
    public static func edit(
        _ id: Int64, values: [RecordField: String], clear: [String], note: String?,
        media: String? = nil, sleeve: String? = nil, rating: String? = nil, store: CatalogueStore
    ) async throws(Failure) -> ExportedRecord {
        let edit: RecordEdit
        do {
            edit = try RecordEdit.checked(values: values, clear: clear, note: note, media: media, sleeve: sleeve, rating: rating)
        } catch {
            throw .value(error)
        }
        do {
            guard try await store.record(id) != nil else { throw Failure.noSuchRecord(id) }
            try await store.edit(id, edit)
            guard let exported = try await store.exported(id) else { throw Failure.noSuchRecord(id) }
            return exported
        } catch let error as Failure {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.database("\(error)"))
        }
    }

    /// What the status line says after a grade is set: "Media: Very Good Plus (VG+)",
    /// "Rating: ★★★★☆".
    public static func gradingMessage(for record: CatalogueRecord, change: CopyGradingChange) -> String {
        var parts: [String] = []
        if change.media != nil { parts.append("Media: " + (record.grading.media?.rawValue ?? "not graded")) }
        if change.sleeve != nil { parts.append("Sleeve: " + (record.grading.sleeve?.rawValue ?? "not graded")) }
        if change.rating != nil { parts.append("Rating: " + record.grading.rating.stars) }
        return parts.joined(separator: " · ")
    }
}
