import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Records without a barcode in the real binary under tmux (issue 14), looked up through
/// libcurl against the loopback Discogs server's field search.
@Suite("TUI without barcodes end to end", .serialized, .processTimeLimit)
struct TUISearchEndToEndTests {
    /// A sandbox signed in to a fresh server, and its environment.
    static func signedIn() async throws -> (TUIEndToEndTests.Sandbox, DiscogsTestServer, [String: String]) {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try await DiscogsTestServer.start(token: "tui-token")
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data("tui-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")
        try await server.reset()
        return (sandbox, server, environment)
    }

    static func start(_ sandbox: TUIEndToEndTests.Sandbox, _ environment: [String: String]) async throws -> TmuxSession {
        let binary = try ProcessRunner.cratesBinary().path
        return try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database))", environment: environment)
    }

    @Test("s: search by artist and title, choose, and the record is added in its section")
    func searchAndChoose() async throws {
        let (sandbox, server, environment) = try await Self.signedIn()
        let tmux = try await Self.start(sandbox, environment)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.press("s")
        try await tmux.waitFor(text: "Search Discogs (no barcode needed)")
        try await tmux.type("kraftwerk")
        try await tmux.press("Tab")
        try await tmux.type("trans europa express")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "1 found for artist kraftwerk")
        try await tmux.press("Enter")
        let screen = try await tmux.waitFor("the record in the list") { lines in
            lines.contains { $0.hasPrefix("  Kraftwerk — Trans Europa Express") }
        }
        #expect(screen.contains { $0.hasPrefix(" Electronic (1)") }, "\(screen.joined(separator: "\n"))")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        let row = try #require(try await CollectionStore(path: sandbox.database).sections().first?.rows.first)
        #expect(row.gtin.isEmpty && row.lookupState == .matched)
        #expect(try await server.stats().releases.isEmpty, "added as the search found it")
    }

    @Test("a 60-pressing picker narrowed by typing the catalogue number off the spine")
    func narrowSixtyPressings() async throws {
        let (sandbox, server, environment) = try await Self.signedIn()
        defer { _ = server }
        let tmux = try await Self.start(sandbox, environment)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.press("s")
        try await tmux.waitFor(text: "Search Discogs")
        try await tmux.type("pink floyd")
        try await tmux.press("Tab")
        try await tmux.type("dark side of the moon")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "60 found for artist pink floyd")
        try await tmux.type("46001")
        let narrowed = try await tmux.waitFor(text: "Narrow: 46001  2 of 60")
        #expect(narrowed.contains { $0.contains("Europe · 1984 · Harvest · CDP 7 46001 2 · CD, Album") }, "\(narrowed)")
        #expect(narrowed.contains { $0.contains("US · 1984 · Capitol Records · CDP 7 46001 2 · CD, Album") }, "\(narrowed)")
        try await tmux.press("Down", "Enter")
        try await tmux.waitFor("the record in the list") { lines in
            lines.contains { $0.hasPrefix("  Pink Floyd — The Dark Side Of The Moon") }
        }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        let store = try CollectionStore(path: sandbox.database)
        let id = try #require(try await store.sections().first?.rows.first?.recordID)
        #expect(try await store.details(id)?.release?.id == 20_000_025)
    }

    @Test("an edit survives r: Discogs' values are looked up again, the collector's year still shows")
    func editSurvivesRetry() async throws {
        let (sandbox, server, environment) = try await Self.signedIn()
        let add = try await ProcessRunner.crates(["add", "--db", sandbox.database, "r20000001"], environment: environment)
        #expect(add.status == 0, "\(add)")
        let tmux = try await Self.start(sandbox, environment)
        try await tmux.waitFor(text: "Pink Floyd — The Dark Side Of The Moon")
        try await tmux.press("e")
        // The form is filled from the record's details.
        try await tmux.waitFor("the edit form, filled") { lines in
            lines.contains { $0.hasPrefix(" Artist") && $0.contains("Pink Floyd") }
        }
        // Artist, Title, Genre, Year.
        try await tmux.press("Tab", "Tab", "Tab", "C-u")
        try await tmux.type("1974")
        try await tmux.press("Enter")
        try await tmux.waitFor("the year edited") { lines in
            lines.contains { $0.contains("Pink Floyd — The Dark Side Of The Moon") && $0.contains(" 1974") }
        }
        try await server.reset()
        try await tmux.press("r")
        let store = try CollectionStore(path: sandbox.database)
        try await waitUntil("the lookup asked for by r to end") {
            try await store.details(1)?.history.last?.kind == .matched
        }
        #expect(try await server.stats().releases == ["20000001"], "looked up again by its release")
        // The list after the lookup: idle again, and the collector's year still shown.
        try await tmux.waitFor("the row after the lookup") { lines in
            lines.contains { $0.contains("Pink Floyd — The Dark Side Of The Moon") && $0.contains(" 1974") }
                && lines.contains { $0.contains("Discogs: DamIDhagor") && !$0.contains("looking up") && !$0.contains("waiting") }
        }
        let details = try #require(try await store.details(1))
        #expect(details.release?.year == 1973 && details.shown.year == 1974)
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("m: a record entered by hand, in its genre's section, marked, and never looked up")
    func enteredByHand() async throws {
        let (sandbox, server, environment) = try await Self.signedIn()
        let tmux = try await Self.start(sandbox, environment)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.press("m")
        try await tmux.waitFor(text: "Enter a record by hand")
        try await tmux.type("The Nice")
        try await tmux.press("Tab")
        try await tmux.type("Ars Longa Vita Brevis")
        try await tmux.press("Tab")
        try await tmux.type("Rock")
        try await tmux.press("Tab")
        try await tmux.type("1968")
        try await tmux.press("Enter")
        try await tmux.waitFor("the record entered by hand, in its section") { lines in
            lines.contains { $0.contains("The Nice — Ars Longa Vita Brevis  entered by hand") } && lines.contains { $0.hasPrefix(" Rock (1)") }
        }
        // The session's word that it is stored, so that r's answer is not overwritten by it.
        try await tmux.waitFor(text: "Entered by hand: The Nice — Ars Longa Vita Brevis")
        try await tmux.press("r")
        try await tmux.waitFor(text: "Entered by hand: never looked up")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        let record = try #require(try await CollectionStore(path: sandbox.database).record(1))
        #expect(record.gtin == nil && record.lookupState == .handEntered && record.addMethod == .manual)
        #expect(record.collector == RecordFields(artist: "The Nice", title: "Ars Longa Vita Brevis", genre: "Rock", year: 1968))
        #expect(try await server.stats().requests == 0, "no lookup")
    }
}
