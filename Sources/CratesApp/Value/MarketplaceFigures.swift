import CratesCore
import CratesNet

/// A release's marketplace figures as the price cache stores them, for the owned releases
/// (`crates value --refresh`) and the wanted ones (`crates want list --refresh`, the sync).
enum MarketplaceFigures {
    /// `GET /marketplace/stats/{id}` at background priority, its waits for the rate window
    /// ended by `waitStop`. A release Discogs has no figures for (404) gives empty ones, to
    /// be stored as asked: "no figures on Discogs", never "not asked yet" once asked.
    static func stats(
        of releaseID: Int, currency: String?, client: DiscogsClient, waitStop: RateWaitStop
    ) async throws(DiscogsError) -> DiscogsMarketplaceStats {
        do {
            return try await RequestPriority.at(CollectionValuation.priority, waitsEndedBy: waitStop) { () async throws(DiscogsError) in
                try await client.marketplaceStats(releaseID: releaseID, currency: currency)
            }
        } catch .notFound {
            return DiscogsMarketplaceStats(lowestPrice: nil, numForSale: nil)
        }
    }
}
