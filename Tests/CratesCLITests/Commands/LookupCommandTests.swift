import CratesTestSupport
import Foundation
import Testing

/// `crates lookup`: what Discogs says, through libcurl against the loopback server, with the
/// documented exit statuses.
@Suite("crates lookup (process)", .processTimeLimit)
struct LookupCommandTests {
    /// A sandbox signed in to a fresh loopback server; the server lives as long as the test
    /// holds it.
    static func signedIn() async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "lookup-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "lookup-token")
        return (sandbox, server)
    }

    @Test("one release: a matched line with artist, title, label, catno, format, year, country, id and URL; exit 0")
    func match() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["lookup", "7 27361 62652 5"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == [
            // From the search result alone (one request): its page address as search results
            // write it.
            "matched\t5134861\tHammerFall\tGlory To The Brave\tNuclear Blast\tNB 265-2\tCD, Album, Promo\t1997\tGermany\t"
                + "https://www.discogs.com/HammerFall-Glory-To-The-Brave/release/5134861",
        ], "\(result)")
        #expect(result.stderr.isEmpty)
        // Nothing was added.
        let list = try await sandbox.crates(["list"])
        #expect(list.status == 0 && list.stdout.isEmpty, "\(list)")
        _ = server
    }

    @Test("several pressings: one ambiguous line each; --json gives the same as one object")
    func ambiguous() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["lookup", "5012345678900"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.map { $0.split(separator: "\t").prefix(4).joined(separator: "|") } == [
            "ambiguous|11849140|DJ Healer|Nothing 2 Loose", "ambiguous|13416116|DJ Healer|Nothing 2 Loose",
        ], "\(result)")
        #expect(result.stdoutLines.last?.hasSuffix("\t2019\tGermany\thttp://127.0.0.1:\(server.port)/release/13416116") == false)
        let json = try await sandbox.crates(["lookup", "--json", "5012345678900"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "ambiguous")
        #expect(object["gtin"] as? String == "5012345678900")
        #expect(object["matchedForm"] as? String == "5012345678900")
        let releases = try #require(object["releases"] as? [[String: Any]])
        #expect(releases.compactMap { $0["id"] as? Int } == [11_849_140, 13_416_116])
        #expect(releases.first?["catno"] as? String == "APW-2")
        #expect(releases.first?["year"] as? Int == 2018)
        #expect(releases.first?["url"] as? String == "https://www.discogs.com/release/11849140")
    }

    @Test("no release has the barcode: nothing on stdout, the searched forms on stderr, exit 2")
    func notFound() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["lookup", "5000000000098"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "crates lookup: Discogs knows no release with barcode 5000000000098 (searched: 5000000000098; 5 000000 000098)\n")
        let json = try await sandbox.crates(["lookup", "--json", "5000000000098"])
        #expect(json.status == 2)
        #expect(json.stdout.contains(#""outcome":"notFound""#) && json.stdout.contains(#""releases":[]"#), "\(json)")
        _ = server
    }

    @Test("credentials Discogs refuses (401): exit 3 with what to do")
    func unauthorized() async throws {
        var (sandbox, old) = try await Self.signedIn()
        let server = try await DiscogsTestServer.start(token: "another-token")
        sandbox.api = server.base
        let result = try await sandbox.crates(["lookup", "727361626525"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("Discogs refused the credentials") && result.stderr.contains("crates auth"), "\(result)")
        _ = old
    }

    @Test("not signed in: exit 3 before any request")
    func notSignedIn() async throws {
        let result = try await CommandSandbox().crates(["lookup", "727361626525"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("not signed in to Discogs") && result.stderr.contains("crates auth"), "\(result)")
    }

    @Test("Discogs unreachable or failing: exit 4 with the reason")
    func networkFailure() async throws {
        var (sandbox, server) = try await Self.signedIn()
        let failing = try await sandbox.crates(["lookup", "5000000000012"])  // the server answers an HTML 500
        #expect(failing.status == 4, "\(failing)")
        #expect(failing.stderr.contains("Discogs had a problem (HTTP 500)"), "\(failing)")
        // In crates' words: never the server's HTML page, nor libcurl's text.
        #expect(!failing.stderr.contains("<") && !failing.stderr.contains("Internal Server Error"), "\(failing)")
        sandbox.api = "http://127.0.0.1:9"
        let offline = try await sandbox.crates(["lookup", "727361626525"])
        #expect(offline.status == 4, "\(offline)")
        #expect(offline.stderr.contains("Discogs is unreachable: no connection could be made"), "\(offline)")
        #expect(!offline.stderr.contains("Failed to connect") && !offline.stderr.contains("port 9"), "\(offline)")
        _ = server
    }

    @Test("--verbose: the raw detail (the server's page, an answer that does not parse, libcurl's text) on stderr, apart from the message")
    func verboseDetail() async throws {
        var (sandbox, server) = try await Self.signedIn()
        let failing = try await sandbox.crates(["lookup", "--verbose", "5000000000012"])  // an HTML 500
        #expect(failing.status == 4, "\(failing)")
        #expect(failing.stderrLines.contains("crates lookup: 5000000000012: Discogs had a problem (HTTP 500)"), "\(failing)")
        #expect(failing.stderr.contains("crates lookup: detail: HTTP 500 from http://127.0.0.1:"), "\(failing)")
        #expect(failing.stderr.contains("<h1>Internal Server Error</h1>") && !failing.stderr.contains("\u{1B}"), "\(failing)")
        let cut = try await sandbox.crates(["lookup", "5000000000036"])  // JSON cut short
        #expect(cut.status == 4, "\(cut)")
        #expect(cut.stderr.contains("Discogs' answer was cut short or is not one crates can read"), "\(cut)")
        #expect(!cut.stderr.contains("{") && !cut.stderr.contains("detail:"), "no raw text without --verbose: \(cut)")
        sandbox.api = "http://127.0.0.1:9"
        let offline = try await sandbox.crates(["lookup", "--verbose", "727361626525"])
        #expect(offline.status == 4, "\(offline)")
        #expect(offline.stderr.contains("crates lookup: detail: GET http://127.0.0.1:9/database/search: Failed to connect"), "\(offline)")
        _ = server
    }

    @Test("a Discogs release by id: shown; one that does not exist: exit 2")
    func release() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["lookup", "r1"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.first?.hasPrefix("matched\t1\tPersuader, The\tStockholm\tSvek\tSK032\t") == true, "\(result)")
        let missing = try await sandbox.crates(["lookup", "r999"])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr == "crates lookup: Discogs has no release 999\n")
        _ = server
    }

    @Test("not a barcode, or not a record's: exit 1 without asking Discogs", arguments: [
        ("5099750442224", "check digit should be 7"), ("9781617292156", "an ISBN: a book, not a record; look it up anyway with --force"),
        ("hello", "\"h\""), ("2012345678903", "a restricted-circulation number"),
    ])
    func invalid(_ code: String, _ message: String) async throws {
        let result = try await CommandSandbox().crates(["lookup", code])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test("--force looks a book up like any barcode (Discogs lists audiobooks under ISBNs)")
    func forcedBook() async throws {
        let (sandbox, server) = try await Self.signedIn()
        let result = try await sandbox.crates(["lookup", "--force", "9781617292156"])
        #expect(result.status == 2, "searched, and not found on the test server: \(result)")
        #expect(result.stderr.contains("Discogs knows no release with barcode 9781617292156"), "\(result)")
        _ = server
    }
}
