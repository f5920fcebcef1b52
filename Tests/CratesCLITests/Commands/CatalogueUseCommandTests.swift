import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// The local catalogue through the `crates` binary: a catalogue file built by
/// `CatalogueFixture` (as `crates catalogue build` builds one), opened by the product's one
/// way in, and the loopback Discogs server counting every request.
@Suite("The catalogue in crates' commands (process)", .processTimeLimit)
struct CatalogueUseCommandTests {
    static let known = (1...3).map { Fixtures.gtin(8_200_000 + $0) }
    static let shared = Fixtures.gtin(8_200_010)

    /// A signed-in sandbox on a fresh loopback server, with a catalogue of `known` (releases
    /// 1 to 3) and `shared` (releases 10 and 11) at `$CRATES_CATALOGUE`.
    static func sandbox() async throws -> (CommandSandbox, DiscogsTestServer, String) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "catalogue-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "catalogue-token")
        let path = sandbox.directory.appendingPathComponent("discogs-catalogue.sqlite").path
        try await CatalogueFixture.build(
            known.enumerated().map { (Fixtures.catalogueRelease(1 + $0.offset), [$0.element]) } + [(Fixtures.catalogueRelease(10), [shared]), (Fixtures.catalogueRelease(11), [shared])],
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

    @Test("a Discogs export's release_id rows, no account: matched through the catalogue with their values, no request; a release it lacks waits for an account (exit 3)")
    func discogsExportWithoutAccount() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "catalogue-token")
        sandbox.api = server.base  // never signed in
        let path = sandbox.directory.appendingPathComponent("discogs-catalogue.sqlite").path
        try await CatalogueFixture.build(
            Self.known.enumerated().map { (Fixtures.catalogueRelease(1 + $0.offset), [$0.element]) } + [(Fixtures.catalogueRelease(12), [])], at: path)
        let header = "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,"
            + "Collection Media Condition,Collection Sleeve Condition,Collection Notes\n"
        let export = sandbox.directory.appendingPathComponent("discogs-export.csv")
        try Data((header
            + "CAT 1,Artist 1,Title 1,Label,Vinyl,4,1971,1,Uncategorized,2024-01-31 12:34:56,Very Good Plus (VG+),,mine\n"
            + "CAT 2,Artist 2,Title 2,Label,Vinyl,,1971,2,Uncategorized,2024-01-31 12:35:56,,,\n"
            + "CAT 12,Artist 12,Title 12,Label,Vinyl,,1971,12,Uncategorized,2024-01-31 12:36:56,,,\n").utf8).write(to: export)
        let result = try await sandbox.crates(["import", "--catalogue", path, export.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("3 added"), "\(result)")
        #expect(!result.stdout.contains("not-added") && !result.stdout.contains("crates auth"), "\(result)")
        #expect(try await server.stats().requests == 0, "the catalogue answered: no request")
        let records = try await sandbox.crates(["list", "--json"]).stdoutLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 3)
        let byRelease = Dictionary(uniqueKeysWithValues: records.map { (($0["release"] as? [String: Any])?["id"] as? Int ?? 0, $0) })
        #expect(Set(byRelease.keys) == [1, 2, 12], "\(records)")
        #expect(records.allSatisfy { $0["state"] as? String == "matched" && $0["catalogueEdition"] as? String == "2026-06-01" }, "\(records)")
        #expect(byRelease[1]?["note"] as? String == "mine" && byRelease[1]?["mediaCondition"] as? String == "Very Good Plus (VG+)")
        #expect(byRelease[1]?["rating"] as? Int == 4)
        // Known by its release, as a copy a sync pulls: the catalogue is indexed from barcode
        // to release, not back.
        #expect(records.allSatisfy { $0["gtin"] is NSNull }, "\(records)")

        // Run again: nothing twice. A release the catalogue does not list waits for an account.
        let again = try await sandbox.crates(["import", "--catalogue", path, export.path])
        #expect(again.status == 0 && again.stdout.contains("0 added, 3 already in the collection"), "\(again)")
        try Data((header + "X 1,Someone,Something,Label,Vinyl,,1999,999,Uncategorized,2024-01-31 12:37:56,,,\n").utf8).write(to: export)
        let unknown = try await sandbox.crates(["import", "--catalogue", path, export.path])
        #expect(unknown.status == 3, "\(unknown)")
        #expect(unknown.stdout.contains("run `crates auth`"), "\(unknown)")
        #expect(try await server.stats().requests == 0)
    }
}
