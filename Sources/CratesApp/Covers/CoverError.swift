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
    /// The collection could not be read, in the store's words.
    case collection(String)
    /// Discogs could not be asked now (offline, refused, a server error): said, not kept.
    case unreachable(String)
    /// The cache on disk cannot be written (a full disk, a file where its directory goes).
    case cache(String)
    /// What the image's address answered is no JPEG or PNG (a GIF, a WebP, an SVG, a
    /// portal's web page): nothing crates writes as a cover.
    case notAnImage
    /// The answer was larger than crates reads (`CurlTransport.Configuration.maximumBodyBytes`):
    /// no cover is that large.
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .noCover: "no cover on Discogs"
        case .notSignedIn: "covers need a Discogs account: run `crates auth`"
        case .budgetReached(let limit): "today's \(NumberText.grouped(limit)) covers fetched: more tomorrow"
        case .notMatched: "not matched to a Discogs release yet"
        case .noSuchRecord(let id): "no record \(id) in the collection (`crates list` shows the ids)"
        case .collection(let reason): reason
        case .unreachable(let reason): "cover not fetched: \(reason)"
        case .cache(let reason): "the cover cache: \(reason)"
        case .notAnImage: "what Discogs sent is not a JPEG or PNG image: no cover written"
        case .tooLarge(let limit): "the image Discogs sent is larger than \(limit >> 20) MB, more than any cover: not kept"
        }
    }
}
