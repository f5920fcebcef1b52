import CratesCore
import CratesNet
import Foundation
import Synchronization

/// Searching Discogs without a barcode, for `crates search` and the collection
/// UI's `s`: the query is checked before any request (`ReleaseSearchQuery`), then run by
/// `DiscogsReleaseSearch` (a catalogue number costs 1 request as printed, 2 typed without its
/// spaces, at most 3), ranked, and kept so that the release chosen is added or linked
/// without fetching it again.
public final class ReleaseFinder: Sendable {
    private let access: DiscogsAccess?
    /// The local Discogs catalogue: asked first (no request, no account, offline too).
    private let catalogue: (any ReleaseCatalogue)?
    /// The hits of the searches so far, by release id (a session makes a few dozen).
    private let found = Mutex<[Int: ReleaseSearchHit]>([:])
    /// The releases the catalogue found so far, by id: added or chosen as found.
    private let catalogued = Mutex<[Int: Release]>([:])

    /// The most releases a catalogue search lists: as many as a page of Discogs' results.
    public static let catalogueLimit = 50

    public init(access: DiscogsAccess?, catalogue: (any ReleaseCatalogue)? = nil) {
        self.access = access
        self.catalogue = catalogue
    }

    /// What a search found, and where.
    public struct Answer: Sendable, Hashable {
        /// Ranked, best first.
        public var hits: [ReleaseSearchHit]
        /// Requests sent to Discogs (none for the catalogue's answer).
        public var requests: Int
        /// False when more matched than were listed: the person should narrow the search.
        public var isComplete: Bool
        public var source: AnswerSource
        /// The catalogue that answered, when it did.
        public var edition: CatalogueEdition?
    }

    /// Searches for `query`: in the catalogue first, when there is one and it finds
    /// something (`online` false), else on Discogs. A Discogs search needs an account:
    /// without one, or with credentials Discogs refuses, the failure says to run
    /// `crates auth`.
    public func search(_ query: ReleaseSearchQuery, online: Bool = false) async throws(ReleaseFinderError) -> Answer {
        if !online, let answer = await searchCatalogue(query) { return answer }
        let result = try await searchDiscogs(query)
        return Answer(hits: result.hits, requests: result.requests, isComplete: result.isComplete, source: .discogs)
    }

    /// The catalogue's answer; nil when there is no catalogue, it finds nothing, or it
    /// cannot be read (then Discogs is asked, as without one).
    public func searchCatalogue(_ query: ReleaseSearchQuery) async -> Answer? {
        guard let catalogue else { return nil }
        let releases: [Release]
        do {
            // One more than listed: whether there were more to list.
            releases = try await catalogue.search(query, limit: Self.catalogueLimit + 1)
        } catch {
            return nil
        }
        guard !releases.isEmpty else { return nil }
        let listed = releases.prefix(Self.catalogueLimit)
        catalogued.withLock { known in
            for release in listed { known[release.id] = release }
        }
        return Answer(
            hits: listed.map { ReleaseSearchHit(release: $0, query: query) }, requests: 0,
            isComplete: releases.count <= Self.catalogueLimit, source: .catalogue, edition: catalogue.edition)
    }

    private func searchDiscogs(_ query: ReleaseSearchQuery) async throws(ReleaseFinderError) -> DiscogsReleaseSearch.Result {
        guard let access else { throw .access(.notSignedIn) }
        do {
            try access.requireSignedIn()
        } catch {
            throw .access(error)
        }
        let result: DiscogsReleaseSearch.Result
        do {
            // A person waits for it: ahead of the lookup queue in the one rate limiter.
            result = try await RequestPriority.at(.interactive) { () async throws(DiscogsError) in
                try await DiscogsReleaseSearch(client: access.client).search(query)
            }
        } catch .unauthorized(let message) {
            throw .access(.refused(message: message))
        } catch {
            throw .discogs(error)
        }
        found.withLock { found in
            for hit in result.hits { found[hit.result.id] = hit }
        }
        return result
    }

    /// The release `id` as a search found it (completed from the result: no request), nil
    /// when no search found it or its result cannot be completed (then it must be fetched).
    public func knownRelease(_ id: Int) -> Release? {
        if let release = catalogued.withLock({ $0[id] }) { return release }
        let web = access?.client.endpoints.web ?? "https://www.discogs.com"
        return found.withLock { $0[id] }?.completedRelease(webBase: web)
    }

    /// The release `id`: as a search found it, else as the catalogue has it (a pressing
    /// chosen among those a barcode names, offline too), else fetched in full.
    public func release(_ id: Int) async throws(ReleaseFinderError) -> Release {
        try await sourcedRelease(id).release
    }

    /// `release(_:)`, with the catalogue it came from (nil: from Discogs): a pressing chosen
    /// among the catalogue's candidates says it was matched from that catalogue. `pauses`:
    /// those of the fetch's retries.
    public func sourcedRelease(
        _ id: Int, pauses: [Double] = RequestRetry.shortPauses
    ) async throws(ReleaseFinderError) -> (release: Release, edition: CatalogueEdition?) {
        if let release = catalogued.withLock({ $0[id] }) { return (release, catalogue?.edition) }
        if let known = knownRelease(id) { return (known, nil) }
        if let catalogue, let release = try? await catalogue.release(id: id) {
            var release = release
            release.hasFullDetails = false  // the tracklist, notes and images come from Discogs
            return (release, catalogue.edition)
        }
        guard let client = access?.client else { throw .access(.notSignedIn) }
        do {
            return (try await client.release(id: id, priority: .interactive, retry: RequestRetry(pauses: pauses)), nil)
        } catch {
            throw .discogs(error)
        }
    }
}

/// Why a search without a barcode has no answer, with `crates search`'s exit status.
public enum ReleaseFinderError: Error, CustomStringConvertible {
    case access(DiscogsAccessError)
    case discogs(DiscogsError)

    public var description: String {
        switch self {
        case .access(let problem): problem.description
        case .discogs(let error): error.description
        }
    }

    /// Whether it is for want of an account (the UI then says how to sign in there).
    public var isNotSignedIn: Bool {
        if case .access(.notSignedIn) = self { true } else { false }
    }
}
