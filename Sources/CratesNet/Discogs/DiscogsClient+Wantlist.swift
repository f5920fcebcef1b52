import CratesCore
import Foundation

/// The calls on a user's wantlist (Discogs API "User Wantlist"), through `send` as every
/// call: paced, signed, checked. A wantlist holds a release once, so adding one already
/// there, editing and removing are idempotent: a request sent again after a lost answer
/// cannot double an entry.
extension DiscogsClient {
    /// `GET /users/{username}/wants?page=N&per_page=…`: one page, oldest first.
    public func wantlistPage(username: String, page: Int, perPage: Int = maximumCollectionPageSize) async throws(DiscogsError)
        -> DiscogsWantlistPage
    {
        let query = OAuthPercentEncoding.formString([
            ("page", String(max(1, page))), ("per_page", String(min(max(1, perPage), Self.maximumCollectionPageSize))),
        ])
        let response = try await send(method: "GET", path: Self.wantsPath(username) + "?" + query, accept: .json)
        return try decode(DiscogsWantlistPage.self, from: response.body)
    }

    /// `PUT /users/{username}/wants/{release_id}?notes=…&rating=…` (201): puts the release on
    /// the wantlist with these notes and rating (a release already there takes them).
    public func addWant(username: String, releaseID: Int, notes: String?, rating: Rating) async throws(DiscogsError) -> DiscogsWant {
        try await writeWant("PUT", username: username, releaseID: releaseID, notes: notes, rating: rating)
    }

    /// `POST /users/{username}/wants/{release_id}?notes=…&rating=…` (200): the want's notes
    /// and rating.
    public func editWant(username: String, releaseID: Int, notes: String?, rating: Rating) async throws(DiscogsError) -> DiscogsWant {
        try await writeWant("POST", username: username, releaseID: releaseID, notes: notes, rating: rating)
    }

    /// `DELETE /users/{username}/wants/{release_id}` (204).
    public func removeWant(username: String, releaseID: Int) async throws(DiscogsError) {
        _ = try await send(method: "DELETE", path: Self.wantsPath(username) + "/\(releaseID)", accept: .nothing)
    }

    /// The values travel in the query, as Discogs documents them, and so are signed under
    /// OAuth; notes nil are sent empty (the want then has none).
    private func writeWant(_ method: String, username: String, releaseID: Int, notes: String?, rating: Rating) async throws(DiscogsError)
        -> DiscogsWant
    {
        let query = OAuthPercentEncoding.formString([("notes", notes ?? ""), ("rating", String(rating.value))])
        let response = try await send(method: method, path: Self.wantsPath(username) + "/\(releaseID)?" + query, accept: .json)
        return (try? decode(DiscogsWant.self, from: response.body)) ?? DiscogsWant(releaseID: releaseID, rating: rating, notes: notes)
    }

    static func wantsPath(_ username: String) -> String {
        "/users/" + OAuthPercentEncoding.encode(username) + "/wants"
    }
}
