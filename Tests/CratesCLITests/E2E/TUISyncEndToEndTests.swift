import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `S` in the real binary under tmux: the sync's progress on the status line while the
/// loopback server holds the listing's answer, then the pulled copy in its section and the
/// summary; then `M` in its details sets a grade that the next sync pushes.
@Suite("TUI sync end to end", .serialized, .processTimeLimit)
struct TUISyncEndToEndTests {
    @Test("S syncs with progress on the status line; M grades the pulled copy; S pushes the grade")
    func syncKey() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try await DiscogsTestServer.start(token: "tui-sync-token")
        try await server.collection.seed(#"{"instances": [{"release_id": 5134861, "rating": 4}]}"#)
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data("tui-sync-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")

        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) --no-scanner",
            environment: environment, width: 100, height: 24)
        try await tmux.waitFor(text: "No records yet.")
        try await server.collection.hold("folder_releases")
        try await tmux.press("S")
        try await server.collection.waitUntilHeld()
        try await tmux.waitFor(text: "sync: reading 0")
        try await server.collection.release()
        // The first sync with the account: its plan first, then the sync at y.
        try await tmux.waitFor(text: "First sync: push 0 copies to Uncategorized, pull 1, 0 conflicts: go? (y/N)")
        try await tmux.press("y")
        let screen = try await tmux.waitFor("the summary and the pulled copy") { lines in
            lines.contains { $0.contains("Synced with Discogs (DamIDhagor): 1 pulled") } && lines.contains { $0.contains("HammerFall — Glory To The Brave") }
        }
        #expect(!screen.contains { $0.contains("sync: reading") }, "the progress is gone once done")

        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Rating       ★★★★☆  · * to change")
        try await tmux.press("M")
        try await tmux.waitFor(text: "Media condition: Enter sets it")
        try await tmux.press("j", "j", "Enter")  // not graded, Mint (M), Near Mint
        try await tmux.waitFor(text: "Media        Near Mint (NM or M-)  · M to change")
        try await tmux.press("Escape")
        try await tmux.press("S")
        try await tmux.waitFor(text: "Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed, 0 linked, 1 updated")
        let instance = try #require(try await server.collection.dump().instances.first)
        #expect(instance.note(1) == "Near Mint (NM or M-)")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    /// A copy here and another on Discogs, never synced: `S` shows what the first sync would
    /// do and asks; n leaves both sides as they were (no request that writes reached the
    /// server); the next `S` asks again, and y syncs.
    @Test("the first S shows its plan and asks: n changes nothing on either side, y syncs")
    func firstSyncAsks() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try await DiscogsTestServer.start(token: "tui-plan-token")
        try await server.collection.seed(#"{"instances": [{"release_id": 5134861, "rating": 4}]}"#)
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data("tui-plan-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")
        _ = try await CollectionStore(path: sandbox.database).add(NewRecord(
            gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed,
            release: Seed.release(1, artist: "Artist", title: "Stockholm", genre: "Electronic")))
        let before = try await ProcessRunner.crates(["--db", sandbox.database, "list", "--json"], environment: environment)

        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) --no-scanner",
            environment: environment, width: 80, height: 24)
        try await tmux.waitFor(text: "Artist — Stockholm")
        try await tmux.press("S")
        try await tmux.waitFor(text: "First sync: push 1 copy to Uncategorized, pull 1, 0 conflicts: go? (y/N)")
        try await tmux.press("n")
        var screen = try await tmux.waitFor(text: "Not synced: nothing sent to Discogs, nothing changed here")
        #expect(!screen.contains { $0.contains("HammerFall") }, "nothing pulled: \(screen.joined(separator: "\n"))")
        let stats = try await server.collection.stats()
        #expect(stats.writes == 0, "no request that writes before y: \(stats.requests)")
        #expect(try await server.collection.dump().instances.count == 1)
        let after = try await ProcessRunner.crates(["--db", sandbox.database, "list", "--json"], environment: environment)
        #expect(after.stdout == before.stdout, "the collection as it was")
        #expect(try await CollectionStore(path: sandbox.database).discogsAccount() == nil)

        try await tmux.press("S")
        try await tmux.waitFor(text: "First sync: push 1 copy to Uncategorized, pull 1, 0 conflicts: go? (y/N)")
        try await tmux.press("y")
        screen = try await tmux.waitFor("the summary and the pulled copy") { lines in
            lines.contains { $0.contains("Synced with Discogs (DamIDhagor): 1 pulled, 1 pushed") } && lines.contains { $0.contains("HammerFall — Glory To The Brave") }
        }
        #expect(try await server.collection.dump().instances.count == 2)
        // A sync has ended whole: the next S syncs without asking.
        try await tmux.press("S")
        try await tmux.waitFor(text: "Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    /// A copy rated 4 here and 2 on Discogs since they were linked (a conflict), and a pulled
    /// copy deleted here: `S` at 80 columns, its summary whole, the removal's yes adding to it,
    /// the conflicts view with both values, the details' line, and crates' value chosen.
    @Test("after S: the summary whole at 80 columns, the removal keeps its conflict, C shows both values, c sends crates' to Discogs")
    func conflictAfterSync() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let server = try await DiscogsTestServer.start(token: "tui-conflict-token")
        try await server.collection.seed(#"{"instances": [{"release_id": 1, "rating": 2}, {"release_id": 5134861}]}"#)
        var environment = sandbox.environment
        environment["CRATES_DISCOGS_API"] = server.base
        let auth = try await ProcessRunner.crates(["auth", "--token"], environment: environment, stdin: Data("tui-conflict-token\n".utf8))
        #expect(auth.status == 0, "\(auth)")
        let stockholm = try await CollectionStore(path: sandbox.database).add(NewRecord(
            gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed,
            release: Seed.release(1, artist: "Artist", title: "Stockholm", genre: "Electronic"), grading: CopyGrading(rating: try Rating(4)))).id
        let first = try await ProcessRunner.crates(["--db", sandbox.database, "sync"], environment: environment)
        #expect(first.stdoutLines.first?.contains("1 pulled, 0 pushed, 1 linked, 0 updated, 1 conflict,") == true, "\(first)")
        let store = try CollectionStore(path: sandbox.database)
        let pulled = try await store.sections().flatMap(\.rows).map(\.recordID).filter { $0 != stockholm }
        #expect(pulled.count == 1)
        _ = try await store.delete(pulled)

        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) --no-scanner",
            environment: environment, width: 80, height: 24)
        try await tmux.waitFor(text: "Artist — Stockholm")
        try await tmux.press("S")
        // The question goes under the summary, which stays in sight.
        var screen = try await tmux.waitFor("the summary, the question under it") { lines in
            lines.contains { $0.contains("remove it there too? (y/N)") } && Self.summary(lines).contains("1 conflict, 0 removed;")
        }
        try await tmux.press("y")
        // The summary is three lines at 80 columns; tmux can be captured between two reads of
        // one redraw, so wait for the summary whole (a wrong one fails at the deadline).
        let ending = " requests used. C shows the conflict: keep crates' value or take Discogs'."
        screen = try await tmux.waitFor("the removal's summary drawn whole") { lines in
            lines.contains { $0.contains("removed from Discogs") } && Self.summary(lines).hasSuffix(ending)
        }
        let summary = Self.summary(screen)
        #expect(summary.hasPrefix("Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed, 0 linked, 0 updated, 1 conflict, 0 removed, 1 removed from Discogs; "),
                "the removal adds to the sync's summary, wrapped whole: \(screen.joined(separator: "\n"))")
        #expect(screen.allSatisfy { !$0.contains("…") }, "nothing cut: \(screen.joined(separator: "\n"))")

        // The command line counts what the UI shows.
        let dry = try await ProcessRunner.crates(["--db", sandbox.database, "sync", "--dry-run"], environment: environment)
        #expect(dry.stdoutLines.first?.contains("1 conflict,") == true, "\(dry)")

        try await tmux.press("C")
        screen = try await tmux.waitFor(text: "1 conflict (1 copy): changed on both sides since the last sync")
        let rating = try #require(screen.first { $0.contains("rating") }, "\(screen.joined(separator: "\n"))")
        let fields = rating.split(separator: " ")
        #expect(fields == ["rating", "★★★★", "★★"], "field, crates', Discogs': \(rating)")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Discogs: ★★ (yours ★★★★) · a conflict: C chooses")
        try await tmux.press("C")
        try await tmux.waitFor(text: "1 conflict (1 copy)")
        let edits = try await server.collection.stats().requests["edit"] ?? 0
        try await tmux.press("c")
        try await tmux.waitFor(text: "Sent crates' values to Discogs: Artist — Stockholm (rating ★★★★).")
        try await tmux.waitFor(text: "No conflicts with Discogs.")
        let instance = try #require(try await server.collection.dump().instances.first { $0.release_id == 1 })
        #expect(instance.rating == 4)
        #expect(try await server.collection.stats().requests["edit"] == edits + 1)
        let after = try await ProcessRunner.crates(["--db", sandbox.database, "sync", "--dry-run"], environment: environment)
        #expect(after.stdoutLines.first?.contains("0 conflicts,") == true, "\(after)")

        try await tmux.press("Escape")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    /// The message at the bottom of the screen, its wrapped lines joined: from the line that
    /// starts it to the last line, or to the question under it.
    static func summary(_ screen: [String]) -> String {
        guard let start = screen.lastIndex(where: { $0.hasPrefix("Synced with Discogs") }) else { return "" }
        return screen[start...].prefix { !$0.contains("(y/N)") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
