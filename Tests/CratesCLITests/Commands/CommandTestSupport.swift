import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A private collection and configuration for one command test (the end-to-end tests'
/// sandbox), with the database named by `CRATES_DB` so that every command finds it.
struct CommandSandbox {
    let sandbox: TUIEndToEndTests.Sandbox
    /// Discogs' API for this test: the loopback server's, or nothing listening (port 9).
    var api = "http://127.0.0.1:9"
    /// Discogs' web address for this test (`CRATES_DISCOGS_WEB`); nil: discogs.com.
    var web: String?

    init() throws {
        sandbox = try TUIEndToEndTests.Sandbox()
    }

    var database: String { sandbox.database }
    var directory: URL { sandbox.directory }

    var environment: [String: String] {
        var environment = sandbox.environment
        environment["CRATES_DB"] = database
        environment["CRATES_DISCOGS_API"] = api
        if let web { environment["CRATES_DISCOGS_WEB"] = web }
        return environment
    }

    /// Runs the built `crates` in this sandbox.
    func crates(_ arguments: [String], stdin: Data? = nil, deadline: Duration = .seconds(120)) async throws -> ProcessResult {
        try await ProcessRunner.crates(arguments, environment: environment, stdin: stdin, deadline: deadline)
    }

    /// Signs in with a personal token, checked by the server at `api`.
    func signIn(token: String) async throws {
        let result = try await crates(["auth", "--token"], stdin: Data("\(token)\n".utf8))
        #expect(result.status == 0, "\(result)")
    }

    /// Opens the sandbox's collection in this process, to seed it or to check it.
    func openStore() throws -> CollectionStore {
        try CollectionStore(path: database)
    }
}

/// Test data for the collection.
enum Seed {
    /// A fixed moment, so that exported dates are known: 2024-01-31 12:34:56 UTC.
    static let addedAt = Date(timeIntervalSince1970: 1_706_704_496)

    static func release(
        _ id: Int, artist: String, title: String, genre: String, labels: [Release.LabelCredit] = [],
        formats: [String] = ["CD, Album"], year: Int? = 1997
    ) -> Release {
        Release(
            id: id, artist: artist, title: title, genres: [genre], styles: [], formats: formats, year: year,
            country: "UK", labels: labels, url: "https://www.discogs.com/release/\(id)",
            rawJSON: #"{"id": \#(id), "title": "raw \#(id)", "community": {"have": 1}}"#)
    }
}
