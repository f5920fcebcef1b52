/// What a search without a barcode says about one record (an import row, an unmatched
/// record searched again), by this rule: matched when exactly one candidate fits the
/// catalogue-number key, or, without a catalogue number, the artist and title given;
/// otherwise ambiguous with the candidates, or not found.
public enum ReleaseSearchDecision: Hashable, Sendable {
    /// Nothing found.
    case none
    /// Exactly one release fits: complete the record from it (`completedRelease`, or fetch
    /// the release when that is nil).
    case one(ReleaseSearchHit)
    /// Several fit, or none fits but some were found: every hit, ranked, for a person.
    case several([ReleaseSearchHit])

    /// Decides from ranked `hits` of `query`.
    public init(hits: [ReleaseSearchHit], query: ReleaseSearchQuery) {
        guard !hits.isEmpty else {
            self = .none
            return
        }
        let fitting = hits.filter { Self.fits($0.match, query) }
        self = fitting.count == 1 ? .one(fitting[0]) : .several(hits)
    }

    /// The candidates a person chooses from (empty for `none`, one for `one`).
    public var hits: [ReleaseSearchHit] {
        switch self {
        case .none: []
        case .one(let hit): [hit]
        case .several(let hits): hits
        }
    }

    private static func fits(_ match: ReleaseSearchMatch, _ query: ReleaseSearchQuery) -> Bool {
        if query.catno != nil { return match.catalogueNumber }
        if query.artist != nil, match.artist == .none { return false }
        if query.title != nil, match.title == .none { return false }
        return true
    }
}
