import Foundation

/// What a person changes on a record (`crates edit`, the TUI's `e`, and its grade pickers
/// `M`, `V`, `*`): fields set to their own values, fields given back to Discogs, the note,
/// and the copy's conditions and rating.
public struct RecordEdit: Hashable, Sendable {
    /// What happens to the note.
    public enum NoteChange: Hashable, Sendable {
        case set(String)
        case clear
    }

    /// The collector's values to set (only the fields given).
    public var values: RecordFields
    /// Fields whose collector's value goes: Discogs' value shows again.
    public var clear: Set<RecordField>
    /// The copy's note (Discogs' "Notes", which `crates sync` keeps in step).
    public var note: NoteChange?
    /// The copy's media and sleeve conditions and rating to change.
    public var grading: CopyGradingChange
    /// What was paid for the copy, part by part.
    public var purchase: PurchaseChange
    /// The copy lent, returned, or its loan set back.
    public var loan: LoanChange?

    public init(
        values: RecordFields = .none, clear: Set<RecordField> = [], note: NoteChange? = nil,
        grading: CopyGradingChange = CopyGradingChange(), purchase: PurchaseChange = PurchaseChange(), loan: LoanChange? = nil
    ) {
        self.purchase = purchase
        self.loan = loan
        self.values = values
        self.clear = clear
        self.note = note
        self.grading = grading
    }

    /// True when nothing would change.
    public var isEmpty: Bool { values.isEmpty && clear.isEmpty && note == nil && grading.isEmpty && purchase.isEmpty && loan == nil }

    /// Checks what was typed, field by field (`RecordFieldValue.checked`): `values` are the
    /// fields to set, `clear` the names given to `--clear` (a field's name, or `note`);
    /// `media` and `sleeve` a Discogs grade in its words or short form ("VG+", "near mint",
    /// "Very Good Plus (VG+)"), `rating` 0 (not rated) to 5; a blank grade or note clears it.
    /// Refused: a field both set and cleared, an unknown name, a value that does not check.
    public static func checked(
        values: [RecordField: String], clear names: [String] = [], note: String? = nil,
        media: String? = nil, sleeve: String? = nil, rating: String? = nil,
        currentYear: Int = ReleaseSearchQuery.currentYear()
    ) throws(RecordFieldError) -> RecordEdit {
        var edit = RecordEdit()
        edit.grading = try CopyGradingChange.checked(media: media, sleeve: sleeve, rating: rating)
        for field in RecordField.allCases {
            guard let text = values[field] else { continue }
            edit.values.set(field, try RecordFieldValue.checked(text, field, currentYear: currentYear))
        }
        var clearsNote = false
        for name in names {
            if name.trimmingCharacters(in: .whitespaces).lowercased() == "note" {
                clearsNote = true
                continue
            }
            guard let field = RecordField.named(name) else { throw .unknownField(EscapedText.displayForm(of: name, limit: 40)) }
            if edit.values[field] != nil { throw .setAndCleared(field) }
            edit.clear.insert(field)
        }
        if let note {
            if clearsNote { throw .noteSetAndCleared }
            edit.note = try RecordFieldValue.checkedNote(note).map(NoteChange.set) ?? .clear
        } else if clearsNote {
            edit.note = .clear
        }
        return edit
    }

    /// What the edit does, for the record's history: "year 1974, artist given back to Discogs".
    public var summary: String {
        var parts: [String] = values.fields.map { "\($0.name) \"\(values[$0] ?? "")\"" }
        parts += RecordField.allCases.filter(clear.contains).map { "\($0.name) given back to Discogs" }
        switch note {
        case .set(let text)?: parts.append("note \"\(text)\"")
        case .clear?: parts.append("note removed")
        case nil: break
        }
        parts += grading.summaryParts
        parts += purchase.summaryParts
        switch loan {
        case .set(let loan)?: parts.append(loan.summary)
        case .returned(let day)?: parts.append("returned \(day)")
        case .clear?: parts.append("loan removed")
        case nil: break
        }
        return parts.joined(separator: ", ")
    }
}

/// The checks on a value a person types for a record's field, with a message that says what
/// to change.
public enum RecordFieldValue {
    /// The longest value accepted, in characters (as for a search field: a pasted page is a
    /// mistake).
    public static let maximumLength = ReleaseSearchQuery.maximumLength
    /// The longest note accepted, in characters: one limit for the notes a person writes
    /// (`crates edit`, the UI's form, a CSV's note column in `crates import`; a restore of
    /// crates' own JSON export brings back what the collection held), long enough for a collector's
    /// provenance and track notes, short enough that a pasted page is caught. A sync takes
    /// Discogs' own notes as Discogs keeps them: shortening them would write the cut back.
    public static let maximumNoteLength = 10_000

    /// `text` trimmed, checked for `field`: not blank, no control character, not too long; a
    /// year is digits from 1877 to next year.
    public static func checked(
        _ text: String, _ field: RecordField, currentYear: Int = ReleaseSearchQuery.currentYear()
    ) throws(RecordFieldError) -> String {
        if text.unicodeScalars.contains(where: ControlCharacters.isInvisible) {
            throw .controlCharacter(field.name, shown: EscapedText.displayForm(of: text, limit: 40))
        }
        let trimmed = ReleaseSearchQuery.trimmed(text)
        if trimmed.isEmpty { throw .blank(field) }
        if trimmed.count > maximumLength { throw .tooLong(field.name, length: trimmed.count, limit: maximumLength) }
        if field == .year {
            let folded = TextFolding.fold(trimmed)
            guard folded.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw .yearNotANumber(shown: EscapedText.displayForm(of: trimmed, limit: 40))
            }
            let latest = currentYear + 1
            guard let year = Int(folded), (ReleaseSearchQuery.earliestYear...latest).contains(year) else {
                throw .yearOutOfRange(
                    shown: EscapedText.displayForm(of: trimmed, limit: 40), earliest: ReleaseSearchQuery.earliestYear,
                    latest: latest)
            }
            return String(year)
        }
        return trimmed
    }

    /// A note trimmed and checked (line breaks and tabs are allowed in a note; other control
    /// characters are not); nil when blank (the note is then removed).
    public static func checkedNote(_ text: String) throws(RecordFieldError) -> String? {
        let allowed: Set<Unicode.Scalar> = ["\n", "\t"]
        if text.unicodeScalars.contains(where: { ControlCharacters.isInvisible($0) && !allowed.contains($0) }) {
            throw .controlCharacter("note", shown: EscapedText.displayForm(of: text, limit: 40))
        }
        let trimmed = ReleaseSearchQuery.trimmed(text)
        if trimmed.isEmpty { return nil }
        if trimmed.count > maximumNoteLength { throw .tooLong("note", length: trimmed.count, limit: maximumNoteLength) }
        return trimmed
    }
}

/// Why a value typed for a record's field is refused; each message says what to change.
public enum RecordFieldError: Error, Hashable, Sendable, CustomStringConvertible {
    case blank(RecordField)
    case controlCharacter(String, shown: String)
    case tooLong(String, length: Int, limit: Int)
    case yearNotANumber(shown: String)
    case yearOutOfRange(shown: String, earliest: Int, latest: Int)
    case unknownField(String)
    case setAndCleared(RecordField)
    case noteSetAndCleared
    /// A grade that is not one of Discogs'.
    case condition(ConditionError)
    /// A rating that is not 0 to 5.
    case rating(RatingError)
    /// A record entered by hand needs these.
    case missing([RecordField])

    public var description: String {
        switch self {
        case .blank(let field):
            "the \(field.name) is empty: give a value, or --clear \(field.rawValue) to give it back to Discogs"
        case .controlCharacter(let name, let shown):
            "the \(name) contains a control character: \"\(shown)\"; type it again without"
        case .tooLong(let name, let length, let limit):
            "the \(name) is \(length) characters long; at most \(limit) are taken"
        case .yearNotANumber(let shown):
            "the year \"\(shown)\" is not a year: give four digits, e.g. 1973"
        case .yearOutOfRange(let year, let earliest, let latest):
            "the year \(year) is out of range: records are from \(earliest) to \(latest)"
        case .unknownField(let name):
            "no field is named \"\(name)\": give one of \(RecordField.names) or note"
        case .setAndCleared(let field):
            "the \(field.name) is both set and cleared: give one of --\(field.rawValue) and --clear \(field.rawValue)"
        case .noteSetAndCleared:
            "the note is both set and cleared: give one of --note and --clear note"
        case .condition(let error):
            error.description
        case .rating(let error):
            error.description
        case .missing(let fields):
            "a record entered by hand needs " + fields.map { "the \($0.name)" }.joined(separator: " and ")
        }
    }
}

extension RecordFields {
    /// The fields of a record entered by hand, checked: an artist and a title at least, and
    /// every value as `RecordFieldValue.checked` wants it.
    public static func handEntered(
        _ values: [RecordField: String], currentYear: Int = ReleaseSearchQuery.currentYear()
    ) throws(RecordFieldError) -> RecordFields {
        var fields = RecordFields()
        for field in RecordField.allCases {
            guard let text = values[field], !ReleaseSearchQuery.trimmed(text).isEmpty else { continue }
            fields.set(field, try RecordFieldValue.checked(text, field, currentYear: currentYear))
        }
        let missing = [RecordField.artist, .title].filter { fields[$0] == nil }
        if !missing.isEmpty { throw .missing(missing) }
        return fields
    }
}

extension RecordEdit {
    /// The edit that puts back what this edit changes on `record` (as it was before): each
    /// field it sets or clears back to the collector's old value (cleared where there was
    /// none: Discogs' value shows again), the old note, the old grades and rating. Applied
    /// after this one, it is its undo.
    public func inverse(of record: CollectionRecord) -> RecordEdit {
        var inverse = RecordEdit()
        for field in Set(values.fields).union(clear) {
            if let old = record.collector[field] {
                inverse.values.set(field, old)
            } else {
                inverse.clear.insert(field)
            }
        }
        if note != nil { inverse.note = record.note.map { .set($0) } ?? .clear }
        if grading.media != nil { inverse.grading.media = record.grading.media.map { .set($0) } ?? .clear }
        if grading.sleeve != nil { inverse.grading.sleeve = record.grading.sleeve.map { .set($0) } ?? .clear }
        if grading.rating != nil { inverse.grading.rating = record.grading.rating }
        inverse.purchase = purchase.inverse(of: record.purchase)
        if loan != nil { inverse.loan = record.loan.map(LoanChange.set) ?? .clear }
        return inverse
    }
}
