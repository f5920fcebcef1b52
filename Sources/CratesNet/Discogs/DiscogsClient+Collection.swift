import CratesCore
import Foundation

/// How a collection folder's list is ordered (`sort` of Discogs' "Collection Items By
/// Folder"; the valid keys are Discogs'). Only `added` in ascending order is stable while the
/// collection grows: new instances go last, so pages already read do not shift.
public enum DiscogsCollectionSort: String, Sendable, CaseIterable {
    case label, artist, title, catno, format, rating, added, year
}

/// `sort_order`.
public enum DiscogsSortOrder: String, Sendable {
    case ascending = "asc"
    case descending = "desc"
}

/// The calls on a user's collection (Discogs API "User Collection"). Every one goes through
/// `send`: paced by the one `RateLimiter`, signed, its answer checked. The username is
/// percent-encoded into the path (RFC 3986 section 3.3: a path segment), so a name with
/// spaces, dots or non-ASCII letters names that user and no other path.
///
/// Errors the caller acts on: `.forbidden` (403: not the signed-in user's collection, or
/// no credentials), `.unprocessable` (422: a value Discogs does not take), `.notFound` (404:
/// no such user, folder, release or instance), `.unauthorized` (401).
extension DiscogsClient {
    /// The largest page Discogs serves (`per_page` is capped at 100).
    public static let maximumCollectionPageSize = 100

    /// `GET /users/{username}/collection/folders`: the folders, "All" (0) and
    /// "Uncategorized" (1) first. Someone else's public collection shows folder 0 only.
    public func collectionFolders(username: String) async throws(DiscogsError) -> [DiscogsCollectionFolder] {
        let response = try await send(method: "GET", path: Self.collectionPath(username) + "/folders", accept: .json)
        return try decode(DiscogsCollectionFolders.self, from: response.body).folders
    }

    /// `GET /users/{username}/collection/folders/{folder}/releases?sort=…&sort_order=…&page=N&per_page=…`:
    /// one page of a folder's instances (folder 0: the whole collection). Pages count from 1.
    public func collectionPage(
        username: String, folderID: Int = DiscogsCollectionFolder.allID, page: Int, perPage: Int = maximumCollectionPageSize,
        sort: DiscogsCollectionSort = .added, order: DiscogsSortOrder = .ascending
    ) async throws(DiscogsError) -> DiscogsCollectionPage {
        let query = OAuthPercentEncoding.formString([
            ("sort", sort.rawValue), ("sort_order", order.rawValue),
            ("page", String(max(1, page))), ("per_page", String(min(max(1, perPage), Self.maximumCollectionPageSize))),
        ])
        let path = Self.collectionPath(username) + "/folders/\(folderID)/releases?" + query
        let response = try await send(method: "GET", path: path, accept: .json)
        return try decode(DiscogsCollectionPage.self, from: response.body)
    }

    /// Every page of a folder, one request per page as the caller asks for the next, so that
    /// a collection of any size is read with one page in memory. The default order (added,
    /// oldest first) is the one that stays stable while the collection changes.
    public func collectionPages(
        username: String, folderID: Int = DiscogsCollectionFolder.allID, perPage: Int = maximumCollectionPageSize,
        sort: DiscogsCollectionSort = .added, order: DiscogsSortOrder = .ascending
    ) -> DiscogsCollectionPages {
        DiscogsCollectionPages(client: self, username: username, folderID: folderID, perPage: perPage, sort: sort, order: order)
    }

    /// `GET /users/{username}/collection/releases/{release_id}`: every instance of one
    /// release in the collection, in any folder (empty when there is none). This is how a
    /// sync finds out whether an add whose answer was lost did happen. The list is paged
    /// like the others; all its pages are read (one request in practice).
    public func collectionInstances(username: String, releaseID: Int) async throws(DiscogsError) -> [DiscogsCollectionInstance] {
        var instances: [DiscogsCollectionInstance] = []
        var page = 1
        while true {
            let query = OAuthPercentEncoding.formString([("page", String(page)), ("per_page", String(Self.maximumCollectionPageSize))])
            let path = Self.collectionPath(username) + "/releases/\(releaseID)?" + query
            let response = try await send(method: "GET", path: path, accept: .json)
            let answer = try decode(DiscogsCollectionPage.self, from: response.body)
            instances += answer.releases
            guard let pages = answer.pagination.pages, page < pages, !answer.releases.isEmpty else { return instances }
            page += 1
        }
    }

    /// `POST /users/{username}/collection/folders/{folder}/releases/{release_id}` (201
    /// Created): adds one instance of the release. Each call adds another instance, even of
    /// a release already there: not idempotent, so a caller that may have sent it before
    /// checks `collectionInstances` first. Folder 0 cannot take releases (Discogs: "The
    /// folder_id must be non-zero"); 1 is "Uncategorized".
    public func addToCollection(
        username: String, releaseID: Int, folderID: Int = DiscogsCollectionFolder.uncategorizedID
    ) async throws(DiscogsError) -> DiscogsAddedInstance {
        let path = Self.collectionPath(username) + "/folders/\(folderID)/releases/\(releaseID)"
        let response = try await send(method: "POST", path: path, accept: .json)
        return try decode(DiscogsAddedInstance.self, from: response.body)
    }

    /// `POST /users/{username}/collection/folders/{folder}/releases/{release_id}/instances/{instance_id}`
    /// (204 No Content): changes the rating and/or moves the instance to `moveTo`. `instance`
    /// names the folder it is in now. The body is JSON (`{"rating": 4, "folder_id": 5}`), as
    /// Discogs' own client libraries send it. Sends nothing when there is nothing to change.
    public func editInstance(
        username: String, _ instance: DiscogsInstanceKey, rating: Rating? = nil, moveTo folderID: Int? = nil
    ) async throws(DiscogsError) {
        var members: [String] = []
        if let rating { members.append("\"rating\":\(rating.value)") }
        if let folderID { members.append("\"folder_id\":\(folderID)") }
        guard !members.isEmpty else { return }
        let body = Data(("{" + members.joined(separator: ",") + "}").utf8)
        _ = try await send(method: "POST", path: Self.instancePath(username, instance), jsonBody: body, accept: .nothing)
    }

    /// `DELETE /users/{username}/collection/folders/{folder}/releases/{release_id}/instances/{instance_id}`
    /// (204 No Content): removes the instance from the collection.
    public func deleteInstance(username: String, _ instance: DiscogsInstanceKey) async throws(DiscogsError) {
        _ = try await send(method: "DELETE", path: Self.instancePath(username, instance), accept: .nothing)
    }

    /// `GET /users/{username}/collection/fields`: the user's custom fields (by default
    /// "Media Condition" and "Sleeve Condition" dropdowns and a "Notes" textarea; see
    /// `DiscogsCollectionFieldMap`).
    public func collectionFields(username: String) async throws(DiscogsError) -> [DiscogsCollectionField] {
        let response = try await send(method: "GET", path: Self.collectionPath(username) + "/fields", accept: .json)
        return try decode(DiscogsCollectionFields.self, from: response.body).fields
    }

    /// `POST …/instances/{instance_id}/fields/{field_id}?value=…` (204 No Content): sets one
    /// custom field of one instance. The value travels in the query, as Discogs documents it
    /// (`{?value}`), and so is signed under OAuth. A dropdown takes only one of its options
    /// (else 422 `.unprocessable`); check with `DiscogsCollectionField.accepts` first.
    public func setField(username: String, _ instance: DiscogsInstanceKey, fieldID: Int, value: String) async throws(DiscogsError) {
        let path = Self.instancePath(username, instance) + "/fields/\(fieldID)?" + OAuthPercentEncoding.formString([("value", value)])
        _ = try await send(method: "POST", path: path, accept: .nothing)
    }

    // MARK: - Paths

    /// `/users/{username}/collection`, the name percent-encoded as one path segment.
    static func collectionPath(_ username: String) -> String {
        "/users/" + OAuthPercentEncoding.encode(username) + "/collection"
    }

    static func instancePath(_ username: String, _ instance: DiscogsInstanceKey) -> String {
        collectionPath(username) + "/folders/\(instance.folderID)/releases/\(instance.releaseID)/instances/\(instance.instanceID)"
    }
}
