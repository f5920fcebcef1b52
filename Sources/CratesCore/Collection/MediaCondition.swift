/// The condition of a record itself (the disc), in Discogs' grading scale and with Discogs'
/// exact text: the raw value is what Discogs' "Media Condition" field holds, what its
/// collection CSV writes, and what is sent back to it.
///
/// The scale is the one Discogs' collection fields and marketplace use (the Goldmine
/// standard as Discogs adopted it), best first.
public enum MediaCondition: String, CaseIterable, Hashable, Sendable, Codable {
    case mint = "Mint (M)"
    case nearMint = "Near Mint (NM or M-)"
    case veryGoodPlus = "Very Good Plus (VG+)"
    case veryGood = "Very Good (VG)"
    case goodPlus = "Good Plus (G+)"
    case good = "Good (G)"
    case fair = "Fair (F)"
    case poor = "Poor (P)"

    /// The short form collectors write: "M", "NM", "VG+", "VG", "G+", "G", "F", "P".
    public var abbreviation: String {
        switch self {
        case .mint: "M"
        case .nearMint: "NM"
        case .veryGoodPlus: "VG+"
        case .veryGood: "VG"
        case .goodPlus: "G+"
        case .good: "G"
        case .fair: "F"
        case .poor: "P"
        }
    }

    /// Reads a grade as a person types it: Discogs' full text ("Very Good Plus (VG+)"), its
    /// name without the brackets ("very good plus"), or its short form ("VG+", "vg+", "NM",
    /// "M-"), in any case and with any spacing.
    public init(parsing text: String) throws(ConditionError) {
        guard let grade = GradeText.media[GradeText.key(text)] else {
            throw ConditionError(typed: text, kind: .media)
        }
        self = grade
    }

    /// Discogs' exact text, e.g. "Near Mint (NM or M-)".
    public var discogsText: String { rawValue }
}
