/// The condition of a record's sleeve (or CD case and inlay): the eight grades of
/// `MediaCondition`, plus the three states Discogs offers for a sleeve that cannot be graded
/// like the record: a generic sleeve, no cover at all, or not graded.
public enum SleeveCondition: String, CaseIterable, Hashable, Sendable, Codable {
    case mint = "Mint (M)"
    case nearMint = "Near Mint (NM or M-)"
    case veryGoodPlus = "Very Good Plus (VG+)"
    case veryGood = "Very Good (VG)"
    case goodPlus = "Good Plus (G+)"
    case good = "Good (G)"
    case fair = "Fair (F)"
    case poor = "Poor (P)"
    case generic = "Generic"
    case noCover = "No Cover"
    case notGraded = "Not Graded"

    /// The same grade as a sleeve condition.
    public init(_ media: MediaCondition) {
        // The eight grades share their text, so this cannot fail.
        self = SleeveCondition(rawValue: media.rawValue) ?? .notGraded
    }

    /// The grade on the media scale; nil for Generic, No Cover and Not Graded.
    public var grade: MediaCondition? { MediaCondition(rawValue: rawValue) }

    /// "M" … "P" for a grade; the full text for Generic, No Cover and Not Graded.
    public var abbreviation: String { grade?.abbreviation ?? rawValue }

    /// Reads a sleeve condition as a person types it: as `MediaCondition(parsing:)` does, and
    /// "generic", "no cover", "not graded" in any case and spacing.
    public init(parsing text: String) throws(ConditionError) {
        let key = GradeText.key(text)
        if let grade = GradeText.media[key] {
            self.init(grade)
        } else if let other = GradeText.sleeveOnly[key] {
            self = other
        } else {
            throw ConditionError(typed: text, kind: .sleeve)
        }
    }

    /// Discogs' exact text, e.g. "No Cover".
    public var discogsText: String { rawValue }
}
