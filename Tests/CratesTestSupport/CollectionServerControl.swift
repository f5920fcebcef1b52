import CratesCore
import CratesNet
import Foundation

/// The loopback server's collection controls (Tests/DiscogsServer/collection.py): seed a
/// user's collection, dump it, count the collection requests, hold answers.
public struct CollectionServerControl: Sendable {
    public let server: DiscogsTestServer

    /// The user the server's token and OAuth access token sign in as (identity.json).
    public static let owner = "DamIDhagor"

    /// What `/_control/collection/dump` shows of one instance.
    public struct DumpedInstance: Decodable, Equatable, Sendable {
        public struct Note: Decodable, Equatable, Sendable {
            public var field_id: Int
            public var value: String
        }
        public var instance_id: Int64
        public var release_id: Int
        public var folder_id: Int
        public var rating: Int
        public var date_added: String
        public var notes: [Note]

        /// The value of one custom field (1 Media Condition, 2 Sleeve Condition, 3 Notes).
        public func note(_ fieldID: Int) -> String? { notes.first { $0.field_id == fieldID }?.value }
    }

    public struct Dump: Decodable, Sendable {
        public var username: String
        public var instances: [DumpedInstance]
    }

    public struct Stats: Decodable, Sendable {
        /// Requests by kind: folders, folder, folder_releases, release_instances, add, edit,
        /// delete, fields, set_field.
        public var requests: [String: Int]
        public var statuses: [String: Int]
        public var held: Int

        /// Requests that change the collection (add, edit, delete, set_field).
        public var writes: Int {
            ["add", "edit", "delete", "set_field"].reduce(0) { $0 + (requests[$1] ?? 0) }
        }
    }

    public struct Seeded: Decodable, Sendable {
        public var username: String
        public var instance_ids: [Int64]
    }

    /// Seeds a collection from a JSON object (see collection.py for its members).
    @discardableResult
    public func seed(_ json: String) async throws -> Seeded {
        let response = try await Self.transport().send(HTTPRequest(
            method: "POST", url: server.base + "/_control/collection/seed", headers: [("Content-Type", "application/json")],
            body: Data(json.utf8)))
        guard response.status == 200 else {
            throw TestServerError.control("seed: HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return try JSONDecoder().decode(Seeded.self, from: response.body)
    }

    public func dump(_ username: String = owner) async throws -> Dump {
        let query = OAuthPercentEncoding.formString([("username", username)])
        return try JSONDecoder().decode(Dump.self, from: try await get("/_control/collection/dump?" + query))
    }

    public func stats() async throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try await get("/_control/collection/stats"))
    }

    /// Forgets every collection and counter.
    public func reset() async throws {
        _ = try await get("/_control/collection/reset")
    }

    /// The next `count` requests of `kind` are carried out, then answered only at `release()`.
    public func hold(_ kind: String, count: Int = 1) async throws {
        _ = try await get("/_control/collection/hold?kind=\(kind)&count=\(count)")
    }

    /// How a listing goes wrong (collection.py's listing quirks).
    public enum ListingQuirk: Sendable {
        /// The page holds no releases.
        case empty
        /// The page says the folder ends with it.
        case shrink
        /// After the page is answered, this instance is removed.
        case drop(instance: Int64)
    }

    /// The next `count` answers for `page` of a folder's releases go wrong as `quirk` says.
    public func listing(_ quirk: ListingQuirk, page: Int, count: Int = 1) async throws {
        let query: String
        switch quirk {
        case .empty: query = "quirk=empty"
        case .shrink: query = "quirk=shrink"
        case .drop(let instance): query = "quirk=drop&instance=\(instance)"
        }
        _ = try await get("/_control/collection/listing?\(query)&page=\(page)&count=\(count)")
    }

    /// Changes a copy as its owner would on Discogs' site (not an API request: not counted):
    /// its rating, custom fields' values by field id (empty: cleared), or removes it.
    public func change(instance: Int64, rating: Int? = nil, fields: [Int: String] = [:], remove: Bool = false) async throws {
        var query: [(String, String)] = [("instance", String(instance))]
        if let rating { query.append(("rating", String(rating))) }
        for (id, value) in fields.sorted(by: { $0.key < $1.key }) { query.append(("field_\(id)", value)) }
        if remove { query.append(("remove", "1")) }
        _ = try await get("/_control/collection/change?" + OAuthPercentEncoding.formString(query))
    }

    /// Sends the answers held.
    public func release() async throws {
        _ = try await get("/_control/collection/release")
    }

    /// Waits until at least `count` answers are held.
    public func waitUntilHeld(_ count: Int = 1, within deadline: Duration = defaultWaitDeadline) async throws {
        try await waitUntil("\(count) collection answer(s) held", within: deadline, lastSeen: {
            (try? await self.stats()).map { "held \($0.held), requests \($0.requests)" } ?? "no stats"
        }) {
            try await stats().held >= count
        }
    }

    private func get(_ path: String) async throws -> Data {
        let response = try await Self.transport().send(HTTPRequest(url: server.base + path))
        guard response.status == 200 else {
            throw TestServerError.control("\(path): HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return response.body
    }

    /// Control requests go through a transport of their own, apart from the one under test.
    private static func transport() throws -> CurlTransport {
        try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 60))
    }
}

extension DiscogsTestServer {
    /// The collection controls.
    public var collection: CollectionServerControl { CollectionServerControl(server: self) }
}
