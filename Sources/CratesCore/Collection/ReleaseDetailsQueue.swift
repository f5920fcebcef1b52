/// The releases whose full details (tracklist, credits, identifiers, notes) are not in yet:
/// a record matched from a search result keeps only what the list shows
/// (`Release.hasFullDetails` false) until its release is fetched, when a person opens its
/// details or in the background. The store implements it; the lookup worker (CratesNet)
/// depends only on this.
public protocol ReleaseDetailsQueue: Sendable {
    /// A release of a record in the collection whose details are not in, the most recently
    /// stored first, other than those in `excluding` (that failed in this run); nil when
    /// every one has them.
    func nextReleaseWithoutDetails(excluding: Set<Int>) async throws -> Int?
    /// Keeps a release fetched in full (`hasFullDetails` true): it replaces what the search
    /// result said.
    func storeDetails(_ release: Release) async throws
}
