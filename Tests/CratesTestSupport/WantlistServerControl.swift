import CratesCore
import CratesNet
import Foundation

/// The loopback server's wantlist controls (Tests/DiscogsServer/wants.py): seed a user's
/// wantlist, dump it, count its requests, change it as its owner would on Discogs' site,
/// make a release gone, and make a listing go wrong.
public struct WantlistServerControl: Sendable {
    public let server: DiscogsTestServer

    /// What `/_control/wants/dump` shows of one want.
    public struct DumpedWant: Decodable, Equatable, Sendable {
        public var release_id: Int
        public var notes: String
        public var rating: Int
        public var date_added: String
    }

    public struct Stats: Decodable, Sendable {
        /// Requests by kind: list, add, edit, remove.
        public var requests: [String: Int]
        public var statuses: [String: Int]

        /// Requests that change the wantlist.
        public var writes: Int { ["add", "edit", "remove"].reduce(0) { $0 + (requests[$1] ?? 0) } }
    }

    /// Seeds the owner's wantlist: (release, notes, rating), oldest first.
    public func seed(_ wants: [(release: Int, notes: String, rating: Int)]) async throws {
        let items = wants.map { "{\"release_id\":\($0.release),\"notes\":\(JSONStringLiteral.quoted($0.notes)),\"rating\":\($0.rating)}" }
        let body = "{\"wants\":[" + items.joined(separator: ",") + "]}"
        let response = try await Self.transport().send(HTTPRequest(
            method: "POST", url: server.base + "/_control/wants/seed", headers: [("Content-Type", "application/json")], body: Data(body.utf8)))
        guard response.status == 200 else {
            throw TestServerError.control("wants seed: HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
    }

    public func dump() async throws -> [DumpedWant] {
        struct Dump: Decodable { var wants: [DumpedWant] }
        return try JSONDecoder().decode(Dump.self, from: try await get("/_control/wants/dump")).wants
    }

    public func stats() async throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try await get("/_control/wants/stats"))
    }

    /// The owner changes the wantlist on Discogs' site (not counted): a want's notes or
    /// rating, adds one, or removes one.
    public func change(release: Int, notes: String? = nil, rating: Int? = nil, add: Bool = false, remove: Bool = false) async throws {
        var query: [(String, String)] = [("release", String(release))]
        if let notes { query.append(("notes", notes)) }
        if let rating { query.append(("rating", String(rating))) }
        if add { query.append(("add", "1")) }
        if remove { query.append(("remove", "1")) }
        _ = try await get("/_control/wants/change?" + OAuthPercentEncoding.formString(query))
    }

    /// Discogs no longer has this release: putting it on a wantlist answers 404.
    public func gone(release: Int) async throws {
        _ = try await get("/_control/wants/gone?release=\(release)")
    }

    /// The next `count` answers for `page` of the wantlist go wrong (as collection.py's).
    public func listing(_ quirk: CollectionServerControl.ListingQuirk, page: Int, count: Int = 1, release: Int = 0) async throws {
        let name: String
        switch quirk {
        case .empty: name = "empty"
        case .shrink: name = "shrink"
        case .drop: name = "drop"
        }
        _ = try await get("/_control/wants/listing?quirk=\(name)&page=\(page)&count=\(count)&release=\(release)")
    }

    private func get(_ path: String) async throws -> Data {
        let response = try await Self.transport().send(HTTPRequest(url: server.base + path))
        guard response.status == 200 else {
            throw TestServerError.control("\(path): HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return response.body
    }

    private static func transport() throws -> CurlTransport {
        try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 60))
    }
}

extension DiscogsTestServer {
    /// The wantlist controls.
    public var wantlist: WantlistServerControl { WantlistServerControl(server: self) }
}
