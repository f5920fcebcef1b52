import CratesCore
import CratesNet
import CratesStore
import Foundation

/// The price cache's figures of the wanted releases, asked again (`crates want list
/// --refresh`, `crates sync`, the UI's sync): Discogs' marketplace stats of each (the lowest
/// price listed, how many are for sale), at background priority within the rate limit,
/// each stored as it comes with its day and currency, so that a check at a fair shows them
/// offline with their age. A release Discogs has no figures for is stored as such ("no
/// figures on Discogs"), not left as never asked.
public struct WantlistPrices: Sendable {
    public let store: CollectionStore
    public let access: DiscogsAccess
    /// The clock the stored figures are dated by.
    public let timeline: Timeline

    public init(store: CollectionStore, access: DiscogsAccess, timeline: Timeline = Timeline()) {
        self.store = store
        self.access = access
        self.timeline = timeline
    }

    /// Asks for the figures of every want (`releases` nil) or of these; `currency` nil: the
    /// account's. Stops at the first failure that would fail the rest too.
    ///
    /// Cancelling the task stops it as it stops `CollectionValuation.refresh`: the figures
    /// asked so far are kept, the request in hand is answered and stored.
    public func refresh(
        releases: [Int]? = nil, currency: String? = nil,
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async -> CollectionValuation.Outcome {
        await RateWaitStop.finishing { waitStop in
            await refreshing(releases: releases, currency: currency, waitStop: waitStop, progress: progress)
        }
    }

    private func refreshing(
        releases: [Int]?, currency: String?, waitStop: RateWaitStop, progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void
    ) async -> CollectionValuation.Outcome {
        var outcome = CollectionValuation.Outcome()
        guard access.signedIn else {
            outcome.messages.append("\(DiscogsAccessError.notSignedIn)")
            outcome.ending = .refused
            return outcome
        }
        var ids = releases ?? []
        do throws(StoreError) {
            if releases == nil { ids = try await store.wants().map(\.releaseID) }
        } catch {
            outcome.messages.append(error.description)
            outcome.ending = .collectionFailed
            return outcome
        }
        let client = access.client
        progress(0, ids.count)
        for (index, releaseID) in ids.enumerated() {
            if waitStop.isStopped {
                outcome.messages.append("Stopped: the figures asked so far are kept.")
                outcome.ending = .stopped
                return outcome
            }
            outcome.requests += 1
            let stats: DiscogsMarketplaceStats
            do throws(DiscogsError) {
                stats = try await MarketplaceFigures.stats(of: releaseID, currency: currency, client: client, waitStop: waitStop)
            } catch {
                if waitStop.isStopped { continue }
                if case .unauthorized = error {
                    outcome.messages.append(error.description)
                    outcome.ending = .refused
                } else {
                    outcome.messages.append("\(error.description); the figures asked so far are kept (run it again to go on)")
                    outcome.ending = .unreachable
                }
                return outcome
            }
            do throws(StoreError) {
                try await store.storeReleasePrice(
                    releaseID: releaseID, currency: stats.lowestPrice?.currency ?? currency ?? "",
                    lowestPrice: stats.lowestPrice?.value, forSale: stats.numForSale, at: timeline.date)
            } catch {
                outcome.messages.append(error.description)
                outcome.ending = .collectionFailed
                return outcome
            }
            progress(index + 1, ids.count)
        }
        return outcome
    }
}
