import Foundation

/// How the lookup queue uses a catalogue: a record the catalogue knows is settled with no
/// request; the rest go to Discogs, their rows saying which catalogue lacked them.
extension ReleaseCatalogue {
    /// What the catalogue says about a claimed record, or nil when it does not know it (the
    /// record then goes to Discogs). A pinned release (a collection export's `release_id`) is
    /// the catalogue's own release; else its barcode: one release is matched, several are
    /// ambiguous (the picker shows them offline too). A code that is never a record's (a
    /// price label) is skipped, as the Discogs lookup would skip it with no request. A record
    /// without a barcode is searched by its own values and decided as Discogs' answer would
    /// be (`ReleaseSearchDecision`); none found leaves it to Discogs (pressed after the dump).
    /// Blocking, as the pass that asks it runs inside the store's write transaction.
    public func blockingAnswer(_ job: LookupJob) throws(ReleaseCatalogueError) -> LookupOutcome? {
        if let id = job.releaseID, let release = try blockingRelease(id: id) { return .matched(edition.stamped(release)) }
        if job.gtin == nil, let query = job.search { return try blockingAnswer(query) }
        guard let gtin = job.gtin else { return nil }
        if let reason = DiscogsBarcodeQuery(gtin: gtin).skipReason { return .skipped(reason: reason) }
        let found = try blockingReleases(barcode: gtin)
        switch found.count {
        case 0: return nil
        case 1: return .matched(edition.stamped(found[0]))
        default: return .ambiguous(found.map(ReleaseCandidate.init(release:)))
        }
    }
}

extension ReleaseCatalogue {
    /// A record's own values searched in the catalogue: as many as a page of Discogs'
    /// results, decided by the same rule.
    func blockingAnswer(_ query: ReleaseSearchQuery) throws(ReleaseCatalogueError) -> LookupOutcome? {
        let found = try blockingSearch(query, limit: 50)
        switch ReleaseSearchDecision(hits: found.map { ReleaseSearchHit(release: $0, query: query) }, query: query) {
        case .none:
            return nil
        case .several(let hits):
            return .ambiguous(hits.map(\.candidate))
        case .one(let hit):
            return found.first { $0.id == hit.candidate.releaseID }.map { .matched(edition.stamped($0)) }
        }
    }
}

extension CatalogueEdition {
    /// A record the catalogue could not answer, while it waits for Discogs: "not in the
    /// catalogue of 2026-06-01; waiting for Discogs".
    public var waitingForDiscogs: String { "not in the catalogue of \(self); waiting for Discogs" }

    /// A record matched from the catalogue: "from Discogs' data of 2026-06-01".
    public var source: String { "from Discogs' data of \(self)" }

    /// `release` as the catalogue answers: its full details (tracklist, notes, images) are
    /// not in the dump's index, and come from Discogs on demand.
    func stamped(_ release: Release) -> Release {
        var release = release
        release.hasFullDetails = false
        return release
    }
}

extension ReleaseCandidate {
    /// One of several releases a barcode names, as the picker lists it.
    public init(release: Release) {
        let label = release.labels.first
        self.init(
            releaseID: release.id, artist: release.artist, title: release.title, country: release.country,
            year: release.year, formats: release.formats, label: label?.name, catno: label?.catno,
            thumbURL: release.thumbURL)
    }
}

/// The lookup queue as the catalogue pass uses it: the records due that the catalogue has not
/// been asked about are answered a large batch at a time, each batch in one transaction, with
/// no claim, no rate limit and no request (thousands of records a second). The store
/// implements it next to `LookupQueue`.
public protocol CatalogueLookupQueue: LookupQueue {
    /// Takes up to `limit` records due for a lookup (pending, failed whatever their retry
    /// time, or claimed by a process that is gone or whose lease has expired) that were not
    /// yet asked of `edition`, asks `answer` about each, and stores what it says, all in one
    /// transaction: an outcome settles the record as a lookup's would (its history says it
    /// came from the catalogue); `.absent` leaves it waiting for Discogs, marked as not in
    /// `edition` (`CollectionRecord.catalogueEdition`); `.unavailable` stops the batch there.
    func answerFromCatalogue(
        _ edition: CatalogueEdition, now: Date, limit: Int,
        answer: @escaping @Sendable (LookupJob) -> CatalogueVerdict
    ) async throws -> CatalogueAnswers

    /// `claimNext(now:lease:)` among the records already asked of `edition` and not in it:
    /// with a catalogue, Discogs is asked only about what the catalogue cannot answer.
    func claimNext(now: Date, lease: TimeInterval, notIn edition: CatalogueEdition) async throws -> LookupJob?
}

/// What the catalogue says about one record, for `CatalogueLookupQueue.answerFromCatalogue`.
public enum CatalogueVerdict: Sendable, Hashable {
    case answered(LookupOutcome)
    /// Not in the catalogue: the record waits for Discogs.
    case absent
    /// The catalogue could not be read: the record is left as it was.
    case unavailable(ReleaseCatalogueError)
}

/// What one batch of the catalogue pass did.
public struct CatalogueAnswers: Sendable, Hashable {
    /// The records settled, with their outcomes, in the order they were taken.
    public var settled: [(recordID: Int64, outcome: LookupOutcome.Kind)]
    /// Records the catalogue does not know: left waiting for Discogs.
    public var absent: Int
    /// Set when the catalogue failed: the rest of the batch was left as it was.
    public var failure: ReleaseCatalogueError?

    public init(settled: [(recordID: Int64, outcome: LookupOutcome.Kind)] = [], absent: Int = 0, failure: ReleaseCatalogueError? = nil) {
        self.settled = settled
        self.absent = absent
        self.failure = failure
    }

    /// Records taken by this batch.
    public var taken: Int { settled.count + absent }

    public static func == (lhs: CatalogueAnswers, rhs: CatalogueAnswers) -> Bool {
        lhs.settled.elementsEqual(rhs.settled, by: { $0.recordID == $1.recordID && $0.outcome == $1.outcome })
            && lhs.absent == rhs.absent && lhs.failure == rhs.failure
    }

    public func hash(into hasher: inout Hasher) {
        for item in settled {
            hasher.combine(item.recordID)
            hasher.combine(item.outcome)
        }
        hasher.combine(absent)
        hasher.combine(failure)
    }
}

extension ReleaseSearchHit {
    /// A release the local catalogue found, as a search result shows it (ranked by the
    /// catalogue, compared with `query` field by field as Discogs' results are).
    public init(release: Release, query: ReleaseSearchQuery) {
        let candidate = ReleaseCandidate(release: release)
        self.result = DiscogsSearchPage.Result(
            id: release.id, title: "\(release.artist) - \(release.title)", country: release.country, year: release.year,
            format: release.formats, label: release.labels.map(\.name), catno: candidate.catno, thumb: release.thumbURL,
            uri: release.url, genre: release.genres, style: release.styles)
        self.candidate = candidate
        self.match = ReleaseSearchMatch(candidate: candidate, query: query)
    }
}

/// Where an answer came from: the local catalogue (no request), or Discogs itself. The
/// JSON of `crates lookup` and `crates search` says so (`"source"`). A check may also answer
/// from what the collection itself keeps of a release (a copy's, or the wantlist's), when
/// neither the catalogue nor Discogs could.
public enum AnswerSource: String, Sendable, Hashable, Codable {
    case catalogue, discogs, collection
}
