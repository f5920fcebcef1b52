import CratesTestSupport
import CratesCore
import Foundation
import Testing

@testable import CratesNet

/// The loopback server's collection controls (Tests/DiscogsServer/collection.py): seed a
/// user's collection, dump it, count the collection requests, hold answers.
struct CollectionServerControl {
    let server: DiscogsTestServer

    /// The user the server's token and OAuth access token sign in as (identity.json).
    static let owner = "DamIDhagor"

    /// What `/_control/collection/dump` shows of one instance.
    struct DumpedInstance: Decodable, Equatable {
        struct Note: Decodable, Equatable {
            var field_id: Int
            var value: String
        }
        var instance_id: Int64
        var release_id: Int
        var folder_id: Int
        var rating: Int
        var date_added: String
        var notes: [Note]
    }

    struct Dump: Decodable {
        var username: String
        var instances: [DumpedInstance]
    }

    struct Stats: Decodable {
        var requests: [String: Int]
        var statuses: [String: Int]
        var held: Int
    }

    struct Seeded: Decodable {
        var username: String
        var instance_ids: [Int64]
    }

    /// Seeds a collection from a JSON object (see collection.py for its members).
    @discardableResult
    func seed(_ json: String) async throws -> Seeded {
        let body = Data(json.utf8)
        let response = try await Self.transport().send(
            HTTPRequest(method: "POST", url: server.base + "/_control/collection/seed", headers: [("Content-Type", "application/json")], body: body))
        try #require(response.status == 200, "seed: \(String(decoding: response.body, as: UTF8.self))")
        return try JSONDecoder().decode(Seeded.self, from: response.body)
    }

    func dump(_ username: String = owner) async throws -> Dump {
        let query = OAuthPercentEncoding.formString([("username", username)])
        return try JSONDecoder().decode(Dump.self, from: try await get("/_control/collection/dump?" + query))
    }

    func stats() async throws -> Stats {
        try JSONDecoder().decode(Stats.self, from: try await get("/_control/collection/stats"))
    }

    /// The next `count` requests of `kind` are carried out, then answered only at `release()`.
    func hold(_ kind: String, count: Int = 1) async throws {
        _ = try await get("/_control/collection/hold?kind=\(kind)&count=\(count)")
    }

    func release() async throws {
        _ = try await get("/_control/collection/release")
    }

    private func get(_ path: String) async throws -> Data {
        let response = try await Self.transport().send(HTTPRequest(url: server.base + path))
        try #require(response.status == 200, "\(path): \(String(decoding: response.body, as: UTF8.self))")
        return response.body
    }

    /// Control requests go through a transport of their own, apart from the one under test.
    private static func transport() throws -> CurlTransport {
        try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 10))
    }
}

extension DiscogsTestServer {
    var collection: CollectionServerControl { CollectionServerControl(server: self) }
}
