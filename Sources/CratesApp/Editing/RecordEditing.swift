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
        /// A purchase's or a loan's value refused.
        case personal(PurchaseLoanError)
        /// `--returned` for a copy that is not out on loan.
        case notLent(Int64)
        case store(StoreError)

        public var description: String {
            switch self {
            case .noSuchRecord(let id): "no record has id \(id) (see `crates list`)"
            case .value(let error): error.description
            case .personal(let error): error.description
            case .notLent(let id): "record \(id) is not out on loan: nothing to return (`crates list lent:` lists what is)"
            case .store(let error): error.description
            }
        }
    }

    /// Checks what was typed (`RecordEdit.checked`), applies it, and returns the record as
    /// `crates list` shows it now (the values shown are the collector's where set).
    public static func edit(
        _ id: Int64, values: [RecordField: String], clear: [String], note: String?,
        media: String? = nil, sleeve: String? = nil, rating: String? = nil, store: CollectionStore
    ) async throws(Failure) -> ExportedRecord {
        try await editConfirmed(id, values: values, clear: clear, note: note, media: media, sleeve: sleeve, rating: rating, store: store)
            .record
    }

    /// As `edit`, with the sentence that confirms every value set, in words, on which
    /// record: "Set media Very Good Plus (VG+), rating ★★★★☆ on 12 The Beatles — Abbey Road"
    /// (the line `crates edit` prints on a terminal, where the listing line says nothing of
    /// grades, ratings or notes).
    public static func editConfirmed(
        _ id: Int64, values: [RecordField: String], clear: [String], note: String?,
        media: String? = nil, sleeve: String? = nil, rating: String? = nil, personal: PersonalInput = PersonalInput(),
        store: CollectionStore
    ) async throws(Failure) -> (record: ExportedRecord, confirmation: String) {
        var edit: RecordEdit
        do {
            edit = try RecordEdit.checked(values: values, clear: clear, note: note, media: media, sleeve: sleeve, rating: rating)
        } catch {
            throw .value(error)
        }
        do {
            edit.purchase = try PurchaseChange.checked(
                price: personal.paid, currency: personal.currency, date: personal.bought, from: personal.boughtFrom)
            edit.loan = try LoanChange.checked(lentTo: personal.lentTo, lentOn: personal.lentOn, returned: personal.returned)
        } catch {
            throw .personal(error)
        }
        if case .returned? = edit.loan {
            let out: Bool
            do {
                out = try await store.record(id)?.loan?.isOut ?? false
            } catch {
                throw .store(error)
            }
            if !out { throw .notLent(id) }
        }
        let record = try await apply(edit, to: id, store: store)
        return (record, confirmation(of: edit, on: record))
    }

    /// "Set year 1970, genre back to Discogs' (Rock), note “signed”, media Very Good Plus
    /// (VG+), rating ★★★★☆ on 12 The Beatles — Abbey Road": each value `edit` set, as the
    /// record now has it, in the order of the fields, then the note, grades and rating.
    public static func confirmation(of edit: RecordEdit, on exported: ExportedRecord) -> String {
        let record = exported.record
        let shown = exported.shown
        var parts: [String] = edit.values.fields.map { "\($0.name) \(edit.values[$0] ?? "")" }
        let discogs = exported.release.map(RecordFields.init(release:)) ?? .none
        parts += RecordField.allCases.filter(edit.clear.contains).map { field in
            "\(field.name) back to Discogs'" + (discogs[field].map { " (\($0))" } ?? "")
        }
        switch edit.note {
        case .set(let text)?:
            // Its first line, up to 40 characters: enough to recognise it.
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
            let quoted = line.count > 40 || line != text ? String(line.prefix(40)) + "…" : line
            parts.append("note “\(quoted)”")
        case .clear?: parts.append("no note")
        case nil: break
        }
        if edit.grading.media != nil { parts.append("media " + (record.grading.media?.rawValue ?? "not graded")) }
        if edit.grading.sleeve != nil { parts.append("sleeve " + (record.grading.sleeve?.rawValue ?? "not graded")) }
        if edit.grading.rating != nil {
            parts.append(record.grading.rating.isRated ? "rating \(record.grading.rating.stars)" : "not rated")
        }
        if !edit.purchase.isEmpty {
            parts.append(record.purchase.isEmpty ? "no purchase" : "purchase " + record.purchase.summary)
        }
        switch edit.loan {
        case .set?: parts.append(record.loan?.summary ?? "no loan")
        case .returned(let day)?: parts.append("returned \(day)\(record.loan.map { " by \($0.to)" } ?? "")")
        case .clear?: parts.append("no loan")
        case nil: break
        }
        let title = shown.title.map { DisplayTitle.of(artist: shown.artist ?? "", title: $0) }
            ?? record.gtin?.printedForm ?? record.subject
        return ControlCharacters.cleaned("Set \(parts.joined(separator: ", ")) on \(record.id) \(title)")
    }

    /// What `crates edit` was given for the copy's purchase and loan, as typed (checked by
    /// `PurchaseChange.checked` and `LoanChange.checked`).
    public struct PersonalInput: Sendable {
        public var paid: String?
        public var currency: String?
        public var bought: String?
        public var boughtFrom: String?
        public var lentTo: String?
        public var lentOn: String?
        public var returned: Bool

        public init(
            paid: String? = nil, currency: String? = nil, bought: String? = nil, boughtFrom: String? = nil, lentTo: String? = nil,
            lentOn: String? = nil, returned: Bool = false
        ) {
            self.paid = paid
            self.currency = currency
            self.bought = bought
            self.boughtFrom = boughtFrom
            self.lentTo = lentTo
            self.lentOn = lentOn
            self.returned = returned
        }

        public var isEmpty: Bool {
            paid == nil && currency == nil && bought == nil && boughtFrom == nil && lentTo == nil && lentOn == nil && !returned
        }
    }

    /// Applies a checked edit; the record as `crates list` shows it now.
    private static func apply(_ edit: RecordEdit, to id: Int64, store: CollectionStore) async throws(Failure) -> ExportedRecord {
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
    public static func gradingMessage(for record: CollectionRecord, change: CopyGradingChange) -> String {
        var parts: [String] = []
        if change.media != nil { parts.append("Media: " + (record.grading.media?.rawValue ?? "not graded")) }
        if change.sleeve != nil { parts.append("Sleeve: " + (record.grading.sleeve?.rawValue ?? "not graded")) }
        if change.rating != nil { parts.append("Rating: " + record.grading.rating.stars) }
        return parts.joined(separator: " · ")
    }
}
