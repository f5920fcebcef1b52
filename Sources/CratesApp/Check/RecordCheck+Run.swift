import CratesCore
import CratesStore

extension RecordCheck {
    /// The catalogue `crates check` answers from, and what to say when it cannot be used: the
    /// check goes on without it, from the collection and the wantlist (unlike a lookup, it
    /// says so even when the default place has none, since a fair's answers lean on it).
    public static func openCatalogue(flag: String?) -> (catalogue: (any ReleaseCatalogue)?, warning: String?) {
        guard let path = ReleaseCatalogueAccess.path(flag: flag) else { return (nil, nil) }
        switch openReleaseCatalogue(path: path) {
        case .success(let catalogue):
            return (catalogue, nil)
        case .failure(.none):
            return (nil, "no Discogs catalogue at \(path): `crates catalogue fetch` downloads Discogs' data and builds one "
                + "(or `crates catalogue build FILE`); answering from the collection and the wantlist")
        case .failure(let error):
            return (nil, "\(error) `crates catalogue fetch` builds a new one; answering from the collection and the wantlist")
        }
    }

    /// What a run of checks came to: the codes refused, and those left unknown for want of
    /// Discogs.
    public struct Tally: Sendable {
        public private(set) var refused = 0
        public private(set) var unreachable = 0

        public init() {}

        public mutating func count(_ outcome: Outcome) {
            switch outcome {
            case .refused: refused += 1
            case .answered(let answer): if answer.unreachable, answer.verdict == .unknown { unreachable += 1 }
            }
        }
    }
}
