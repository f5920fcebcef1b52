import CratesCore

/// Why there is no cover to show, in crates' words: the placeholder's text in the UI, the
/// message of `crates cover`.
public enum CoverError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Discogs lists no image for the release, or its image is gone (404).
    case noCover
    /// The address of the image comes only with a signed answer, and nobody is signed in.
    case notSignedIn
    /// Today's images are fetched: Discogs allows applications this many a day.
    case budgetReached(Int)
    /// The record is not matched to a Discogs release.
    case notMatched
    /// No record of this id in the collection.
    case noSuchRecord(Int64)
    /// Discogs could not be asked now (offline, refused, a server error): said, not kept.
    case unreachable(String)
    /// The cache on disk cannot be written.
    case cache(String)

    public var description: String {
        switch self {
        case .noCover: "no cover on Discogs"
        case .notSignedIn: "covers need a Discogs account: run `crates auth`"
        case .budgetReached(let limit): "today's \(NumberText.grouped(limit)) covers fetched: more tomorrow"
        case .notMatched: "not matched to a Discogs release yet"
        case .noSuchRecord(let id): "no record \(id) in the collection (`crates list` shows the ids)"
        case .unreachable(let reason): "cover not fetched: \(reason)"
        case .cache(let reason): "the cover cache: \(reason)"
        }
    }

    /// `crates cover`'s exit status for it (README's command table).
    public var exitStatus: Int32 {
        switch self {
        case .noSuchRecord, .notMatched: 1
        case .noCover: 2
        case .notSignedIn: 3
        case .unreachable: 4
        case .budgetReached: 5
        case .cache: 1
        }
    }
}
