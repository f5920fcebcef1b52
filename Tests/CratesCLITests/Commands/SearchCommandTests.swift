import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// `crates search` as a process, against the loopback Discogs server's field search
/// (Tests/DiscogsServer/search_index.py over Fixtures/discogs/search/corpus.json).
@Suite("crates search (process)", .serialized, .processTimeLimit)
struct SearchCommandTests {
    /// A sandbox signed in to a fresh server.
    static func signedIn() async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "search-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "search-token")
        try await server.reset()
        return (sandbox, server)
    }

    @Test("a catalogue number as printed: one request, ranked lines; --json with id; crates add takes the id")
    func byCatalogueNumber() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["search", "--catno", "1C 064-82 306"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [
            "20100011\tKraftwerk\tTrans Europa Express\tGermany\t1977\tVinyl, LP, Album\tKling Klang\t1C 064-82 306\t"
                + "https://www.discogs.com/Kraftwerk-Trans-Europa-Express/release/20100011",
        ], "\(result)")
        #expect(result.stderrLines == ["crates search: 1 release found (1 request)"])
        #expect(try await server.stats().requests == 1)

        // Typed without its spaces: sent again respaced, 2 requests; JSON Lines with id.
        let json = try await sandbox.crates(["search", "--catno", "ilps9135", "--json"])
        #expect(json.status == 0, "\(json)")
        let objects = try json.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.map { $0?["id"] as? Int } == [20_100_001])
        #expect(objects.first??["catnoMatches"] as? Bool == true && objects.first??["catno"] as? String == "ILPS 9135")
        #expect(json.stderrLines == ["crates search: 1 release found (2 requests)"])

        let add = try await sandbox.crates(["add", "r20100001"])
        #expect(add.status == 0, "\(add)")
        #expect(add.stdoutLines == ["1\t\tmatched\tCat Stevens — Tea For The Tillerman"])
    }

    @Test("the help's own example, a catalogue number typed without its spaces, finds the pressing in 2 requests")
    func helpExample() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let help = try await sandbox.crates(["help", "search"])
        #expect(help.stdout.contains("crates search --catno cdp7460012 --json"), "\(help)")
        let result = try await sandbox.crates(["search", "--catno", "cdp7460012", "--json"])
        #expect(result.status == 0, "\(result)")
        let objects = try result.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.prefix(2).map { $0?["catno"] as? String } == ["CDP 7 46001 2", "CDP 7 46001 2"], "\(result)")
        #expect(try await server.stats().requests == 2)
    }

    @Test("artist and title with year and country; 60 pressings in one request, the asked ones first")
    func byArtistAndTitle() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let all = try await sandbox.crates(["search", "--artist", "pink floyd", "--title", "dark side of the moon"])
        #expect(all.status == 0, "\(all)")
        #expect(all.stdoutLines.count == 60)
        let narrowed = try await sandbox.crates(
            ["search", "--artist", "PINK FLOYD", "--title", "the dark side", "--country", "Japan", "--format", "CD"])
        #expect(narrowed.status == 0, "\(narrowed)")
        #expect(narrowed.stdoutLines.first?.hasPrefix("20000026\tPink Floyd\tThe Dark Side Of The Moon\tJapan\t1984\tCD") == true, "\(narrowed)")
        #expect(try await server.stats().requests == 2)
    }

    @Test("exit 2: nothing found (each form tried, at most 3 requests)")
    func nothingFound() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["search", "--catno", "ZZZ 999", "--artist", "Nobody"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["crates search: 0 releases found (3 requests)"], "\(result)")
        #expect(try await server.stats().requests == 3)
    }

    @Test("exit 3: not signed in, or the credentials refused; exit 4: Discogs unreachable")
    func accessAndNetwork() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "search-token")
        sandbox.api = server.base
        let anonymous = try await sandbox.crates(["search", "--catno", "SHVL 804"])
        #expect(anonymous.status == 3, "\(anonymous)")
        #expect(anonymous.stderr.contains("not signed in to Discogs") && anonymous.stderr.contains("crates auth"), "\(anonymous)")
        #expect(try await server.stats().requests == 0, "not signed in: nothing sent")

        try await sandbox.signIn(token: "search-token")
        let other = try await DiscogsTestServer.start(token: "another-token")
        sandbox.api = other.base
        let refused = try await sandbox.crates(["search", "--catno", "SHVL 804"])
        #expect(refused.status == 3, "\(refused)")

        sandbox.api = "http://127.0.0.1:9"
        let offline = try await sandbox.crates(["search", "--catno", "SHVL 804"])
        #expect(offline.status == 4, "\(offline)")
        #expect(offline.stderr.hasPrefix("crates search: "), "\(offline)")
    }

    @Test("empty or absurd input: a clear message, exit 64, and no request at all", arguments: [
        ([], "nothing to search for"),
        (["--title", String(repeating: "a", count: 5_000)], "the title is 5000 characters long; a search field takes at most 200"),
        (["--artist", "Pink\u{1B}[2J Floyd"], "the artist contains a control character: \"Pink\\u{1B}[2J Floyd\""),
        (["--title", "Homogenic", "--year", "99999"], "the year 99999 is out of range: records are from 1877 to"),
        (["--country", "UK", "--year", "1973"], "only narrow a search"),
        (["--catno=---"], "has no letter or digit"),
    ] as [([String], String)])
    func refusedBeforeAnyRequest(_ arguments: [String], _ message: String) async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["search"] + arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(!result.stderr.contains("\u{1B}"), "a control character is never echoed raw")
        #expect(try await server.stats().requests == 0, "a refused search costs no request")
    }
}
