/// What a search without a barcode found, as the collection UI shows it in the pressing
/// picker: the candidates ranked, what they cost, and for which record.
public struct ReleaseSearchAnswer: Equatable, Sendable {
    /// The record the search is for (its choice resolves it); nil: the choice adds a record.
    public var recordID: Int64?
    public var query: ReleaseSearchQuery
    /// Best first (`ReleaseSearchRanking`); empty when nothing was found or on failure.
    public var candidates: [ReleaseCandidate]
    /// Requests the search sent.
    public var requests: Int
    /// False when more releases matched than a page holds: the person should narrow it.
    public var isComplete: Bool
    /// Why the search could not be made (offline, refused…), nil when it was.
    public var failure: String?
    /// The search needs a Discogs account and no one is signed in: the UI says how to sign
    /// in there.
    public var notSignedIn: Bool
    /// The catalogue that answered (no request), nil when Discogs did.
    public var catalogue: CatalogueEdition?
    /// An answer as the person types (`SessionRequest.searchCatalogue`), shown under the
    /// form; Enter then sends the search itself.
    public var preview: Bool

    public init(
        recordID: Int64?, query: ReleaseSearchQuery, candidates: [ReleaseCandidate], requests: Int,
        isComplete: Bool = true, failure: String? = nil, notSignedIn: Bool = false, catalogue: CatalogueEdition? = nil, preview: Bool = false
    ) {
        self.catalogue = catalogue
        self.preview = preview
        self.recordID = recordID
        self.query = query
        self.candidates = candidates
        self.requests = requests
        self.isComplete = isComplete
        self.failure = failure
        self.notSignedIn = notSignedIn
    }
}
