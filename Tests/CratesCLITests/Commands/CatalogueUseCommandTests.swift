import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// The local catalogue through the `crates` binary: a catalogue file built by
/// `CatalogueFixture` (as `crates catalogue build` builds one), opened by the product's one
/// way in, and the loopback Discogs server counting every request.
@Suite("The catalogue in crates' commands (process)", .processTimeLimit)
struct CatalogueUseCommandTests {
    static let known = (1...3).map { sampleGTIN(8_200_000 + $0) }
    static let shared = sampleGTIN(8_200_010)

    static func release(_ id: Int) -> Release {
        Release(
            id: id, artist: "Artist \(id)", title: "Title \(id)", genres: ["Jazz"], formats: ["Vinyl, LP"], year: 1971,
            labels: [.init(name: "Label", catno: "CAT \(id)")], hasFullDetails: false)
    }

    /// A signed-in sandbox on a fresh loopback server, with a catalogue of `known` (releases
    /// 1 to 3) and `shared` (releases 10 and 11) at `$CRATES_CATALOGUE`.
    static func sandbox() async throws -> (CommandSandbox, DiscogsTestServer, String) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "catalogue-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "catalogue-token")
        let path = sandbox.directory.appendingPathComponent("discogs-catalogue.sqlite").path
        try await CatalogueFixture.build(
            known.enumerated().map { (release(1 + $0.offset), [$0.element]) } + [(release(10), [shared]), (release(11), [shared])],
            at: path)
        try await server.reset()  // the sign-in's request is not the commands'
        return (sandbox, server, path)
    }

    @Test("lookup --json: the catalogue's answer says so, with no request; --online asks Discogs")
    func lookup() async throws {
        let (sandbox, server, path) = try await Self.sandbox()
        let result = try await sandbox.crates(["lookup", "--json", "--catalogue", path, Self.known[0].canonical])
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "catalogue" && object["outcome"] as? String == "matched")
        let several = try await sandbox.crates(["lookup", "--json", "--catalogue", path, Self.shared.canonical])
        let ambiguous = try #require(try JSONSerialization.jsonObject(with: Data(several.stdout.utf8)) as? [String: Any])
        #expect(ambiguous["outcome"] as? String == "ambiguous" && ambiguous["source"] as? String == "catalogue")
        #expect(try await server.stats().requests == 0)

        let online = try await sandbox.crates(["lookup", "--json", "--online", "--catalogue", path, "5099750442227"])
        let asked = try #require(try JSONSerialization.jsonObject(with: Data(online.stdout.utf8)) as? [String: Any])
        #expect(asked["source"] as? String == "discogs")
        #expect(try await server.stats().requests == 1)
    }

    @Test("search --json: every line from the catalogue says so, with no request")
    func search() async throws {
        let (sandbox, server, path) = try await Self.sandbox()
        let result = try await sandbox.crates(["search", "--json", "--catalogue", path, "--catno", "cat-2"])
        #expect(result.status == 0, "\(result)")
        let line = try #require(result.stdoutLines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["id"] as? Int == 2 && object["source"] as? String == "catalogue")
        #expect(try await server.stats().requests == 0)
    }

    @Test("import with Discogs unreachable: every barcode the catalogue knows is final")
    func importOffline() async throws {
        let (sandbox, server, path) = try await Self.sandbox()
        await server.stop()
        let file = sandbox.directory.appendingPathComponent("shelf.txt")
        try Data((Self.known + [Self.shared]).map { $0.canonical + "\n" }.joined().utf8).write(to: file)
        let result = try await sandbox.crates(["import", "--catalogue", path, file.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("4 answered by the catalogue of 2026-06-01 (no request)"), "\(result)")
        let list = try await sandbox.crates(["list", "--json"])
        #expect(!list.stdout.contains("\"pending\""), "\(list)")
    }

    @Test("a catalogue named but not there: said on stderr, and Discogs answers as without one")
    func missingCatalogue() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "catalogue-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "catalogue-token")
        let path = sandbox.directory.appendingPathComponent("none.sqlite").path
        let result = try await sandbox.crates(["lookup", "--json", "--catalogue", path, "5099750442227"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("crates lookup: no Discogs catalogue can be read at \(path)"), "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["source"] as? String == "discogs" && object["outcome"] as? String == "matched")
    }
}
