import CratesCore
import Foundation

/// What the collection is worth, as Discogs prices it (Discogs API "Marketplace" and "User
/// Collection: Collection Value"). Every call goes through `send`: paced by the one
/// `RateLimiter`, a 429 waited out and sent again.
extension DiscogsClient {
    /// What a price suggestion request told.
    public enum PriceSuggestionAnswer: Hashable, Sendable {
        case suggestions(DiscogsPriceSuggestions)
        /// `{}` or 403: the account has no seller settings, so Discogs suggests nothing for
        /// any release (said once, not per record).
        case noSellerSettings
    }

    /// `GET /users/{username}/collection/value`: the owner's collection's minimum, median and
    /// maximum (403 for anyone else).
    public func collectionValue(username: String) async throws(DiscogsError) -> DiscogsCollectionValue {
        let response = try await send(method: "GET", path: Self.collectionPath(username) + "/value", accept: .json)
        return try decode(DiscogsCollectionValue.self, from: response.body)
    }

    /// `GET /users/{username}`: the user's profile, with the account's currency (`curr_abbr`)
    /// when the credentials are the user's.
    public func profile(username: String) async throws(DiscogsError) -> DiscogsProfile {
        let response = try await send(method: "GET", path: "/users/" + OAuthPercentEncoding.encode(username), accept: .json)
        return try decode(DiscogsProfile.self, from: response.body)
    }

    /// `GET /marketplace/stats/{release_id}[?curr_abbr=…]`: the lowest price listed and how
    /// many are for sale; `currency` one of Discogs' `curr_abbr` (nil: the account's).
    public func marketplaceStats(releaseID: Int, currency: String? = nil) async throws(DiscogsError) -> DiscogsMarketplaceStats {
        var path = "/marketplace/stats/\(releaseID)"
        if let currency { path += "?" + OAuthPercentEncoding.formString([("curr_abbr", currency)]) }
        let response = try await send(method: "GET", path: path, accept: .json)
        return try decode(DiscogsMarketplaceStats.self, from: response.body)
    }

    /// `GET /marketplace/price_suggestions/{release_id}`: a price for each media grade, in
    /// the account's currency; nothing without seller settings.
    public func priceSuggestions(releaseID: Int) async throws(DiscogsError) -> PriceSuggestionAnswer {
        let response: HTTPResponse
        do {
            response = try await send(method: "GET", path: "/marketplace/price_suggestions/\(releaseID)", accept: .json)
        } catch {
            if case .forbidden = error { return .noSellerSettings }
            throw error
        }
        let suggestions: DiscogsPriceSuggestions
        do {
            suggestions = try DiscogsPriceSuggestions.decode(response.body)
        } catch {
            Diagnostics.note("price suggestions that do not parse (\(error)): \(DiscogsText.preview(response.body, limit: 400))")
            throw .malformedBody(preview: DiscogsText.preview(response.body))
        }
        return suggestions.isEmpty ? .noSellerSettings : .suggestions(suggestions)
    }
}
