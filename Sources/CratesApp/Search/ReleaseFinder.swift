import CratesCore
import CratesNet
import Foundation
import Synchronization

/// Searching Discogs without a barcode (issue 14), for `crates search` and the collection
/// UI's `s`: the query is checked before any request (`ReleaseSearchQuery`), then run by
/// `DiscogsReleaseSearch` (a catalogue number costs 1 request as printed, 2 typed without its
/// spaces, at most 3), ranked, and kept so that the release chosen is added or linked
/// without fetching it again.
public final class ReleaseFinder: Sendable {
    private let access: DiscogsAccess?
    /// The hits of the searches so far, by release id (a session makes a few dozen).
    private let found = Mutex<[Int: ReleaseSearchHit]>([:])

    public init(access: DiscogsAccess?) {
        self.access = access
    }

    /// Searches for `query`. A search needs an account: without one, or with credentials
    /// Discogs refuses, the failure says to run `crates auth`.
    public func search(_ query: ReleaseSearchQuery) async throws(ReleaseFinderFailure) -> DiscogsReleaseSearch.Result {
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
        let web = access?.client.endpoints.web ?? "https://www.discogs.com"
        return found.withLock { $0[id] }?.completedRelease(webBase: web)
    }

    /// The release `id`: as a search found it, else fetched in full.
    public func release(_ id: Int) async throws(ReleaseFinderFailure) -> Release {
        if let known = knownRelease(id) { return known }
        guard let client = access?.client else { throw .access(.notSignedIn) }
        do {
            return try await client.release(id: id, priority: .interactive)
        } catch {
            throw .discogs(error)
        }
    }
}

/// Why a search without a barcode has no answer, with `crates search`'s exit status.
public enum ReleaseFinderFailure: Error, CustomStringConvertible {
    case access(DiscogsAccessProblem)
    case discogs(DiscogsError)

    public var description: String {
        switch self {
        case .access(let problem): problem.description
        case .discogs(let error): error.description
        }
    }

    /// 3: not signed in or refused; 4: unreachable, or Discogs answered with an error.
    public var exitStatus: Int32 {
        switch self {
        case .access: 3
        case .discogs(.unauthorized): 3
        case .discogs: 4
        }
    }
}
