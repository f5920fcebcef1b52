import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates value` as a process, through libcurl against the loopback server's marketplace:
/// the stats of each release, the price suggestions (with and without seller settings) and
/// the collection's value, stored with their date and shown again without a request.
@Suite("crates value (process)", .serialized, .processTimeLimit)
struct ValueCommandTests {
    /// Three copies of the fixtures' releases (or of `releases`): the first graded VG+, the
    /// second Mint, the third not graded; the loopback server started with `serverArguments`.
    static func signedIn(
        releases: [(Int, String)] = [(1, "Stockholm"), (5_134_861, "Glory To The Brave"), (10_507_194, "Likemind 05")],
        serverArguments: [String] = []
    ) async throws -> (CommandSandbox, DiscogsTestServer, [Int64]) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(serverArguments, token: "value-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "value-token")
        let store = try sandbox.openStore()
        var ids: [Int64] = []
        let grades: [MediaCondition?] = [.veryGoodPlus, .mint, nil]
        for (n, release) in releases.enumerated() {
            let record = try await store.add(NewRecord(
                gtin: Fixtures.gtin(n), addedAt: Seed.addedAt.addingTimeInterval(Double(n) * 60), addMethod: .typed,
                release: Seed.release(release.0, artist: "Artist", title: release.1, genre: "Rock"),
                grading: CopyGrading(media: grades[n])))
            ids.append(record.id)
        }
        return (sandbox, server, ids)
    }

    static func object(_ result: ProcessResult) throws -> [String: Any] {
        #expect(result.stdoutLines.count == 1, "one JSON object: \(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
    }

    static var today: String { String(ISO8601DateFormatter().string(from: Date()).prefix(10)) }

    @Test("--refresh --json with seller settings: every figure, members exactly as named; then shown without a request, with its age")
    func withSellerSettings() async throws {
        let (sandbox, server, ids) = try await Self.signedIn()
        let refreshed = try await sandbox.crates(["value", "--refresh", "--json"])
        #expect(refreshed.status == 0, "\(refreshed)")
        #expect(refreshed.stderrLines.isEmpty, "\(refreshed)")
        let counts = try await server.marketplaceCounts()
        #expect(counts.profile == 1 && counts.stats == 3 && counts.suggestions == 2 && counts.value == 1,
                "the account's currency once, one stats request per release, one suggestions request per release with a graded copy, one for the collection: \(counts)")
        let object = try Self.object(refreshed)
        #expect(Set(object.keys) == ["currency", "collection", "records"])
        #expect(object["currency"] as? String == "USD")
        let collection = try #require(object["collection"] as? [String: Any])
        #expect(Set(collection.keys) == ["minimum", "median", "maximum", "text", "at"])
        #expect(collection["minimum"] as? Double == 1_597.46 && collection["median"] as? Double == 3_506.77
                && collection["maximum"] as? Double == 7_505.54)
        #expect(collection["text"] as? [String: String] == ["minimum": "$1,597.46", "median": "$3,506.77", "maximum": "$7,505.54"])
        #expect((collection["at"] as? String)?.hasPrefix(Self.today) == true)
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.count == 3)
        for record in records {
            #expect(Set(record.keys) == ["id", "releaseId", "lowestPrice", "forSale", "grade", "suggestedPrice", "at", "paid"])
        }
        #expect(records.map { ($0["id"] as? Int).map(Int64.init) } == ids.map(Optional.some))
        #expect(records.map { $0["releaseId"] as? Int } == [1, 5_134_861, 10_507_194])
        // The loopback server's prices: id % 97 + 0.49, id % 13 + 1 for sale; suggestions
        // (id % 97 + 1) × the grade's factor (VG+ 1.2, Mint 2.0).
        #expect(records.map { $0["lowestPrice"] as? Double } == [1.49, 69.49, 57.49])
        #expect(records.map { $0["forSale"] as? Int } == [2, 5, 10])
        #expect(records.map { $0["grade"] as? String } == ["Very Good Plus (VG+)", "Mint (M)", nil])
        #expect(records[0]["suggestedPrice"] as? Double == 2.4 && records[1]["suggestedPrice"] as? Double == 140)
        #expect(records[2]["suggestedPrice"] is NSNull && records[2]["grade"] is NSNull)

        // Without --refresh: the stored figures with their source, date and age; no request.
        let before = try await server.stats().requests
        let shown = try await sandbox.crates(["value"])
        #expect(shown.status == 0, "\(shown)")
        #expect(try await server.stats().requests == before, "no request without --refresh")
        let day = Self.today
        #expect(shown.stdoutLines == [
            "Currency: USD (the account's)",
            "Collection: minimum $1,597.46, median $3,506.77, maximum $7,505.54 (Discogs' collection value, \(day), today)",
            "\(ids[0])\tr1\tlowest listed 1.49 USD, 2 for sale, \(day); suggested for VG+ 2.40 USD, \(day) (today)",
            "\(ids[1])\tr5134861\tlowest listed 69.49 USD, 5 for sale, \(day); suggested for M 140.00 USD, \(day) (today)",
            "\(ids[2])\tr10507194\tlowest listed 57.49 USD, 10 for sale, \(day) (today)",
        ], "\(shown)")
        let json = try Self.object(try await sandbox.crates(["value", "--json"]))
        #expect((json["records"] as? [[String: Any]])?.map { $0["lowestPrice"] as? Double } == [1.49, 69.49, 57.49])
        #expect(try await server.stats().requests == before)
    }

    @Test("what was paid against today's value: where both are known, in the report's currency; one paid in another is not compared")
    func paidAgainstValue() async throws {
        let (sandbox, server, ids) = try await Self.signedIn()
        defer { withExtendedLifetime(server) {} }
        for (id, paid, currency) in [(ids[0], "1.00", "USD"), (ids[1], "100", "USD"), (ids[2], "9", "EUR")] {
            let edit = try await sandbox.crates(["edit", String(id), "--paid", paid, "--currency", currency])
            #expect(edit.status == 0, "\(edit)")
        }
        let refreshed = try await sandbox.crates(["value", "--refresh", "--json"])
        #expect(refreshed.status == 0, "\(refreshed)")
        let records = try #require(try Self.object(refreshed)["records"] as? [[String: Any]])
        #expect(records.map { $0["paid"] as? Double } == [1, 100, nil], "\(records)")
        // A query narrows the copies: only those it keeps.
        let narrowed = try Self.object(try await sandbox.crates(["value", "--json", "paid:50..", "-title:likemind"]))
        #expect((narrowed["records"] as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(ids[1])], "\(narrowed)")
        let bad = try await sandbox.crates(["value", "titel:x"])
        #expect(bad.status == 64, "\(bad)")
        let shown = try await sandbox.crates(["value"])
        #expect(shown.stdoutLines.contains("\(ids[1])\tr5134861\tlowest listed 69.49 USD, 5 for sale, \(Self.today); suggested for M 140.00 USD, \(Self.today) (today); paid 100.00"), "\(shown)")
    }

    @Test("without seller settings ({} or 403): said once, not per record; one suggestions request; no suggested price", arguments: ["no", "forbidden"])
    func withoutSellerSettings(answer: String) async throws {
        let (sandbox, server, _) = try await Self.signedIn()
        try await server.sellerSettings(answer)
        let result = try await sandbox.crates(["value", "--refresh", "--json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.count { $0.contains("no seller settings") } == 1, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(try await server.marketplaceCounts().suggestions == 1, "asked once: no release has a suggestion without seller settings")
        let records = try #require(try Self.object(result)["records"] as? [[String: Any]])
        #expect(records.allSatisfy { $0["suggestedPrice"] is NSNull })
        #expect(records.map { $0["lowestPrice"] as? Double } == [1.49, 69.49, 57.49])
    }

    @Test("a 429 in the middle: waited out, the wait said, and asked again; every figure there")
    func throttledInTheMiddle() async throws {
        let (sandbox, server, _) = try await Self.signedIn()
        // Retry-After: 4: a wait of 2 s or more is said (the refresh's requests are background
        // work, whose waits a lookup's progress never shows), even on a slow machine.
        try await server.inject("429-retry4", count: 1, match: "/marketplace/stats/5134861")
        let result = try await sandbox.crates(["value", "--refresh", "--json"])
        #expect(result.status == 0, "\(result)")
        // To a pipe, the wait as it starts, on a line (a terminal's bar counts it down).
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("crates value: asking Discogs 2/7: rate limit: resuming in ") == true, "\(result)")
        let records = try #require(try Self.object(result)["records"] as? [[String: Any]])
        #expect(records.map { $0["lowestPrice"] as? Double } == [1.49, 69.49, 57.49])
        #expect(try await server.marketplaceCounts().stats == 3, "the 429 is answered before the endpoint counts")
    }

    @Test("--refresh in a terminal at a full window: 'value: asking Discogs [##--] n/7 · rate limit: resuming in N s · … left', N counting down")
    func barAndCountdown() async throws {
        // 4 requests a minute: background work's share is 3, so the refresh's 7 requests (the
        // profile, 3 releases, 2 graded, the collection) wait for the window part-way.
        let (sandbox, server, _) = try await Self.signedIn(serverArguments: ["--limit", "4"])
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) value --refresh", environment: sandbox.environment, width: 160, height: 30)
        func resumingIn(_ screen: [String]) -> Int? { SyncProgressTests.resumingIn(screen, prefix: "value: ") }
        let first = try await tmux.waitFor("the rate wait on the refresh's bar", deadline: .seconds(120)) { resumingIn($0) != nil }
        let line = try #require(first.first { $0.hasPrefix("value: ") })
        #expect(line.range(of: #"^value: asking Discogs \[[#-]{16}\] \d+/7 · rate limit: resuming in \d+ s · \d+ (s|min) left"#, options: .regularExpression) != nil, "\(line)")
        let seconds = try #require(resumingIn(first))
        let later = try await tmux.waitFor("the countdown to move", deadline: .seconds(60)) { screen in
            resumingIn(screen).map { $0 < seconds } ?? false
        }
        #expect(later.contains { $0.hasPrefix("value: ") }, "\(later.joined(separator: "\n"))")
        // The request in hand waits for the window: the first Ctrl-C ends that wait, and the
        // refresh, at once; nothing more is asked.
        let asked = try await server.marketplaceCounts().stats
        try await tmux.press("C-c")
        let end = try await tmux.waitFor(text: TmuxSession.exitMarker)
        #expect(end.contains { $0.contains("Stopped: the figures asked so far are kept.") }, "\(end.joined(separator: "\n"))")
        #expect(try await server.marketplaceCounts().stats == asked, "the request waiting for the window was not sent")
    }

    @Test("Ctrl-C while a request waits for the rate window: the wait ends at once, that request is not sent; exit 130")
    func interruptedWhileWaiting() async throws {
        // 4 requests a minute (the sign-in used one), 3 for background work: the refresh
        // waits for the window before its last release.
        let (sandbox, server, ids) = try await Self.signedIn(serverArguments: ["--limit", "4"])
        let child = try ProcessRunner.startCrates(["value", "--refresh"], environment: sandbox.environment)
        try await waitUntil("the refresh to wait for the rate window", lastSeen: { child.stderrSoFar }) {
            child.stderrSoFar.contains("rate limit: resuming in")
        }
        let asked = try await server.marketplaceCounts().stats
        #expect(asked < 3, "a release is still to ask")
        #expect(child.signal(SIGINT))
        let result = await child.result()
        #expect(result.status == 130, "\(result)")
        #expect(result.stderr.contains("crates value: Stopped: the figures asked so far are kept."), "\(result)")
        #expect(try await server.marketplaceCounts().stats == asked, "the request waiting for the window was not sent")
        let shown = try await sandbox.crates(["value"])
        #expect(shown.stdoutLines.contains("\(ids[2])\tr10507194\tnot asked yet"), "\(shown)")
        #expect(shown.stdoutLines.contains("Collection: not asked yet"), "\(shown)")
    }

    @Test("the account's currency from its Discogs profile, asked once a refresh when none is named: every figure in it, even with nothing for sale and no seller settings; not asked with --currency or config.json's")
    func accountCurrency() async throws {
        // Releases whose ids end in 0: the loopback server lists nothing for sale.
        let (sandbox, server, ids) = try await Self.signedIn(releases: [(10, "Ten"), (20, "Twenty")])
        try await server.accountCurrency("GBP")
        try await server.sellerSettings("no")
        let refreshed = try await sandbox.crates(["value", "--refresh", "--json"])
        #expect(refreshed.status == 0, "\(refreshed)")
        #expect(try await server.marketplaceCounts().profile == 1, "one profile request a refresh")
        let object = try Self.object(refreshed)
        #expect(object["currency"] as? String == "GBP", "\(refreshed)")
        let collection = try #require(object["collection"] as? [String: Any], "\(refreshed)")
        #expect((collection["text"] as? [String: String])?["median"] == "£3,506.77")
        let shown = try await sandbox.crates(["value"])
        #expect(shown.status == 0, "\(shown)")
        let day = Self.today
        #expect(shown.stdoutLines == [
            "Currency: GBP (the account's)",
            "Collection: minimum £1,597.46, median £3,506.77, maximum £7,505.54 (Discogs' collection value, \(day), today)",
            "\(ids[0])\tr10\tnone listed, \(day) (today)",
            "\(ids[1])\tr20\tnone listed, \(day) (today)",
        ], "\(shown)")

        // A currency named: no profile request.
        #expect(try await sandbox.crates(["value", "--refresh", "--currency", "EUR"]).status == 0)
        #expect(try await sandbox.crates(["config", "currency", "USD"]).status == 0)
        #expect(try await sandbox.crates(["value", "--refresh"]).status == 0)
        #expect(try await server.marketplaceCounts().profile == 1, "named by --currency or config.json: not asked")
    }

    @Test("Ctrl-C in the middle keeps the figures asked so far; exit 130")
    func interrupted() async throws {
        let (sandbox, server, ids) = try await Self.signedIn()
        try await server.hold(match: "/marketplace/stats/5134861")
        let child = try ProcessRunner.startCrates(["value", "--refresh"], environment: sandbox.environment)
        try await server.waitUntilHeld()
        #expect(child.signal(SIGINT))
        // The held answer comes once the command has taken the interrupt: released before,
        // the refresh could read it and ask the next release before it heard the signal.
        try await waitUntil("the refresh stopping", lastSeen: { child.stderrSoFar }) {
            child.stderrSoFar.contains("Stopping: the figures asked so far are kept")
        }
        try await server.release()
        let result = await child.result()
        #expect(result.status == 130, "\(result)")
        #expect(try await server.marketplaceCounts().stats == 2, "nothing asked after the stop")
        let shown = try await sandbox.crates(["value"])
        #expect(shown.stdoutLines.contains { $0.hasPrefix("\(ids[0])\tr1\tlowest listed 1.49 USD") }, "\(shown)")
        #expect(shown.stdoutLines.contains { $0.hasPrefix("\(ids[1])\tr5134861\tlowest listed 69.49 USD") }, "the answer in hand is kept: \(shown)")
        #expect(shown.stdoutLines.contains("\(ids[2])\tr10507194\tnot asked yet"), "\(shown)")
        #expect(shown.stdoutLines.contains("Collection: not asked yet"))
    }

    @Test("--refresh not signed in: 3, nothing asked; a currency Discogs does not have: a usage error (64)")
    func refused() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start()
        sandbox.api = server.base
        let result = try await sandbox.crates(["value", "--refresh"])
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("crates value: ") && result.stderr.lowercased().contains("sign"), "\(result)")
        #expect(try await server.stats().requests == 0)
        let bad = try await sandbox.crates(["value", "--currency", "XYZ"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("--currency takes one of USD, GBP, EUR"), "\(bad)")
        // Nothing stored: said, and no figure made up.
        let empty = try await sandbox.crates(["value"])
        #expect(empty.status == 0, "\(empty)")
        #expect(empty.stderr.contains("no figures stored yet"), "\(empty)")
        #expect(empty.stdoutLines == ["Currency: the account's", "Collection: not asked yet"], "\(empty)")
    }
}
