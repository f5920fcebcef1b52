import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Tags in the real collection UI under tmux: every record shown tagged and moved in one
/// go, then undone; a pile scanned by its copy labels in tag-by-scan mode, deleted in one
/// go and undone; a tagged move of records another process deleted meanwhile.
@Suite("TUI end to end: tags", .serialized, .processTimeLimit)
struct TUITagEndToEndTests {
    /// Adds `count` records (no lookups: the sandbox has no Discogs), in no place.
    static func fill(_ store: CollectionStore, _ count: Int) async throws -> [Int64] {
        var ids: [Int64] = []
        for n in 1...count { ids.append(try await store.add(NewRecord(gtin: Fixtures.gtin(7000 + n), addMethod: .typed)).id) }
        return ids
    }

    /// The UI started in the sandbox's directory (where `E` writes its file).
    static func start(_ sandbox: TUIEndToEndTests.Sandbox, height: Int = 30) async throws -> TmuxSession {
        let binary = try ProcessRunner.cratesBinary().path
        let inner = "cd \(TmuxSession.quote(sandbox.directory.path)) && exec \(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database))"
        return try await TmuxSession(command: "sh -c \(TmuxSession.quote(inner))", environment: sandbox.environment, width: 110, height: height)
    }

    @Test("T tags the 40 records shown, p moves them to a place in one go, u puts them back; E exports the tagged")
    func fortyInOneGo() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let store = try CollectionStore(path: sandbox.database)
        let crate = try await store.addLocation(name: "Crate A1", in: nil)
        let ids = try await Self.fill(store, 40)

        let tmux = try await Self.start(sandbox)
        try await tmux.waitFor(text: "40 records")
        try await tmux.press("T")
        try await tmux.waitFor(text: "Tagged 40 records shown (40 tagged)")
        try await tmux.waitFor(text: " 40 tagged ")
        try await tmux.press("p")
        try await tmux.waitFor(text: "move 40 records to: choose a place (Enter)")
        try await tmux.waitFor(text: "Crate A1")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Moved 40 records to Crate A1: u to undo")
        try await waitUntil("the 40 records in Crate A1") {
            try await Self.count(store, ids, in: crate.id) == 40
        }
        try await tmux.press("u")
        try await tmux.waitFor(text: "Moved 40 records back")
        try await waitUntil("the 40 records in no place again") {
            try await Self.count(store, ids, in: nil) == 40
        }

        // The tags stay until cleared: the export takes all 40.
        try await tmux.press("E")
        let said = try await tmux.waitFor(text: "Exported 40 records to ")
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).first { $0.hasPrefix("crates-tagged-") && $0.hasSuffix(".csv") },
            "\(said)")
        let csv = try String(contentsOfFile: sandbox.directory.appendingPathComponent(file).path, encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 41, "the header and 40 rows")
        try await tmux.press("U")
        try await tmux.waitFor(text: "Untagged 40 records")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("tag by scan: three copy labels tag three records; d deletes the three after one question; u brings them back")
    func scannedPileDeleted() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let store = try CollectionStore(path: sandbox.database)
        let crate = try await store.addLocation(name: "Crate A1", in: nil)
        let ids = try await Self.fill(store, 10)
        let pile = [ids[1], ids[4], ids[7]]
        let labels = try pile.map { try #require(LabelCode(kind: .copy, id: Int($0))).digits }

        let tmux = try await Self.start(sandbox)
        try await tmux.waitFor(text: "10 records")
        try await tmux.press("b")
        try await tmux.waitFor(text: "tag by scan")
        // A wedge scanner's burst: every label in one write.
        try await tmux.type(labels.map { $0 + "\r" }.joined())
        try await tmux.waitFor(text: " 3 tagged · tag by scan ")
        #expect(try await Self.count(store, ids, in: nil) == 10, "tagging moves nothing")

        try await tmux.press("d")
        try await tmux.waitFor(text: "Delete 3 tagged records? (y/N)")
        try await tmux.press("y")
        try await tmux.waitFor(text: "Deleted 3 records: u to undo")
        try await tmux.waitFor(text: "7 records")
        for id in pile { #expect(try await store.record(id) == nil) }
        try await tmux.press("u")
        try await tmux.waitFor(text: "Restored 3 records")
        try await tmux.waitFor(text: "10 records")
        for id in pile { #expect(try await store.record(id) != nil) }

        // Tagged again; another process deletes one of them; the move says so.
        try await tmux.type(labels.map { $0 + "\r" }.joined())
        try await tmux.waitFor(text: " 3 tagged · tag by scan ")
        try await store.delete([pile[0]])
        try await tmux.waitFor(text: "9 records")
        try await tmux.press("p")
        try await tmux.waitFor(text: "move 3 records to: choose a place (Enter)")
        try await tmux.waitFor(text: "Crate A1")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Moved 2 records to Crate A1: u to undo; 1 could not be moved (deleted meanwhile)")
        #expect(try await Self.count(store, ids, in: crate.id) == 2)
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("t t, then M: both records graded in one go, u undoes both; * 4 rates both; r queues both again")
    func gradeRateRefresh() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let store = try CollectionStore(path: sandbox.database)
        let ids = try await Self.fill(store, 5)

        let tmux = try await Self.start(sandbox)
        try await tmux.waitFor(text: "5 records")
        try await tmux.type("tt")
        try await tmux.waitFor(text: " 2 tagged ")
        try await tmux.press("M")
        try await tmux.waitFor(text: "Media condition: Enter sets it")
        try await tmux.type("jj")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Set media \"Near Mint (NM or M-)\" on 2 records")
        let tagged = try await Self.graded(store, ids)
        #expect(tagged.count == 2)
        try await tmux.press("u")
        try await tmux.waitFor(text: "Edit undone on 2 records")
        #expect(try await Self.graded(store, ids).isEmpty)
        try await tmux.press("*")
        try await tmux.waitFor(text: "Rating: 0–5 or Enter sets it")
        try await tmux.type("4")
        try await tmux.waitFor(text: "Set rating 4 on 2 records")
        for id in tagged { #expect(try await store.record(id)?.grading.rating.value == 4) }
        try await tmux.press("r")
        try await tmux.waitFor(text: "2 records queued to be looked up again")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    /// The records of `ids` with a media grade.
    static func graded(_ store: CollectionStore, _ ids: [Int64]) async throws -> [Int64] {
        var graded: [Int64] = []
        for id in ids where try await store.record(id)?.grading.media != nil { graded.append(id) }
        return graded
    }

    /// How many of `ids` are in the place `place` (nil: in none).
    static func count(_ store: CollectionStore, _ ids: [Int64], in place: Int64?) async throws -> Int {
        var count = 0
        for id in ids {
            guard let record = try await store.record(id) else { continue }
            if record.location?.id == place { count += 1 }
        }
        return count
    }
}
