/// Which of the user's custom collection fields hold what crates keeps per copy, found by
/// name as Discogs creates them for every account: "Media Condition", "Sleeve Condition"
/// and "Notes" (compared without regard to case or surrounding spaces). A field the user
/// renamed or deleted is nil: crates then neither reads nor writes it.
public struct DiscogsCollectionFieldMap: Hashable, Sendable {
    public static let mediaName = "Media Condition"
    public static let sleeveName = "Sleeve Condition"
    public static let notesName = "Notes"

    public var media: DiscogsCollectionField?
    public var sleeve: DiscogsCollectionField?
    public var notes: DiscogsCollectionField?

    /// The first field of each name, in the order given.
    public init(fields: [DiscogsCollectionField]) {
        func named(_ name: String) -> DiscogsCollectionField? {
            let wanted = name.lowercased()
            return fields.first { $0.name.trimmingSpaces().lowercased() == wanted }
        }
        media = named(Self.mediaName)
        sleeve = named(Self.sleeveName)
        notes = named(Self.notesName)
    }

    /// The conditions and notes of one instance, from its `notes` values.
    public func read(_ values: [DiscogsInstanceNote]) -> DiscogsCopyFields {
        var out = DiscogsCopyFields()
        for value in values {
            if let media, value.fieldID == media.id, !value.value.isEmpty {
                if let grade = MediaCondition(discogsValue: value.value) { out.media = grade } else { out.unrecognized.append(value) }
            } else if let sleeve, value.fieldID == sleeve.id, !value.value.isEmpty {
                if let grade = SleeveCondition(discogsValue: value.value) { out.sleeve = grade } else { out.unrecognized.append(value) }
            } else if let notes, value.fieldID == notes.id {
                // Only spaces: a note cleared (`DiscogsCollectionField.clearedText`).
                let text = DiscogsCopyFields.cleanNotes(value.value)
                out.notes = text.allSatisfy(\.isWhitespace) ? nil : text
            }
        }
        return out
    }

    /// The (field, value) writes that make an instance hold `media`, `sleeve` and `notes`,
    /// for the fields this map found; a nil condition or notes is left out (Discogs' API
    /// offers no documented way to clear a dropdown). Throws when a value is not among the
    /// user's options for its field, so that nothing is sent that Discogs would refuse.
    public func writes(media: MediaCondition?, sleeve: SleeveCondition?, notes: String?) throws(DiscogsFieldValueError) -> [DiscogsFieldWrite] {
        var out: [DiscogsFieldWrite] = []
        for (field, value) in [(self.media, media?.rawValue), (self.sleeve, sleeve?.rawValue), (self.notes, notes)] {
            guard let field, let value else { continue }
            guard field.accepts(value) else { throw DiscogsFieldValueError(field: field, value: value) }
            out.append(DiscogsFieldWrite(field: field, value: value))
        }
        return out
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}

extension MediaCondition {
    /// A dropdown value from Discogs: its exact text, else read leniently; nil when it is
    /// not a grade.
    init?(discogsValue: String) {
        guard let grade = MediaCondition(rawValue: discogsValue) ?? (try? MediaCondition(parsing: discogsValue)) else { return nil }
        self = grade
    }
}

extension SleeveCondition {
    /// As `MediaCondition(discogsValue:)`, with Generic, No Cover and Not Graded.
    init?(discogsValue: String) {
        guard let grade = SleeveCondition(rawValue: discogsValue) ?? (try? SleeveCondition(parsing: discogsValue)) else { return nil }
        self = grade
    }
}
