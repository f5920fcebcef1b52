import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The real `crates` binary in tmux: keys in, screen out.
@Suite("TUI end to end", .serialized, .processTimeLimit)
struct TUIEndToEndTests {
    /// A fresh directory with a database path and an empty config home (no credentials, so
    /// no lookups are attempted unless a test signs in).
    struct Sandbox {
        private let scratch: TemporaryDirectory
        var directory: URL { scratch.url }
        var database: String { directory.appendingPathComponent("crates.sqlite").path }
        var environment: [String: String] {
            [
                "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
                "XDG_DATA_HOME": directory.appendingPathComponent("data").path,
                "XDG_RUNTIME_DIR": directory.path,
                "XDG_STATE_HOME": directory.appendingPathComponent("state").path,
                "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
                "CRATES_DISCOGS_API": "http://127.0.0.1:9",
            ]
        }

        init() throws {
            scratch = try TemporaryDirectory(prefix: "crates-e2e")
        }

        func start(width: Int = 80, height: Int = 24, extra: String = "") async throws -> TmuxSession {
            let binary = try ProcessRunner.cratesBinary().path
            return try await TmuxSession(
                command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(database)) \(extra)",
                environment: environment, width: width, height: height)
        }
    }

    static let burst = [
        "5029141777638", "5017066907438", "5091500080635", "5060837783533", "5037406812413",
        "5058683449789", "5069073662589", "5051781286577", "5007049996221", "5083038836853",
        "5095748906825", "5088360759832", "5086756508897", "5095790328927", "5018401107049",
        "5034192541220", "5048244757712", "5004656341482", "5039603062028", "5078683873803",
    ]

    @Test("starts on an empty database and quits restoring the terminal")
    func emptyStartAndQuit() async throws {
        let sandbox = try Sandbox()
        let tmux = try await sandbox.start()
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.waitFor(text: "0 records")
        try await tmux.press("q")
        let report = try await tmux.exitReport()
        #expect(report.status == 0)
        #expect(report.saneTerminal)
        let screen = try await tmux.screen()
        #expect(!screen.contains { $0.contains("No records yet.") }, "the alternate screen is gone")
    }

    @Test("a wedge burst of 20 barcodes: all 20 appear, none lost")
    func wedgeBurst() async throws {
        let sandbox = try Sandbox()
        let tmux = try await sandbox.start(width: 80, height: 30)
        try await tmux.waitFor(text: "No records yet.")
        // All keys in one write: faster than any scanner.
        try await tmux.type(Self.burst.map { $0 + "\r" }.joined())
        let screen = try await tmux.waitFor(text: "20 records")
        for code in Self.burst {
            #expect(screen.contains { $0.contains(code) }, "\(code) is listed")
        }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)

        let store = try CollectionStore(path: sandbox.database)
        let sections = try await store.sections()
        let stored = sections.flatMap(\.rows)
        #expect(Set(stored.map(\.gtin)) == Set(Self.burst))
        #expect(stored.count == 20)
        let methods = try await Self.addMethods(store, stored.map(\.recordID))
        #expect(methods == [.wedge], "a burst is recorded as a wedge scan")
    }

    @Test("a misread code in a wedge burst stays in sight, whole, after the scans that follow; ! lists it")
    func refusalInABurst() async throws {
        let sandbox = try Sandbox()
        let tmux = try await sandbox.start(width: 60, height: 24)
        try await tmux.waitFor(text: "No records yet.")
        // One write: a misread code between two good ones.
        try await tmux.type(["5029141777638", "5029141777639", "5017066907438"].map { $0 + "\r" }.joined())
        let screen = try await tmux.waitFor(text: "2 records")
        // Its whole reason, wrapped at 60 columns rather than cut at the edge.
        let bottom = screen.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(bottom.contains("Refused 5029141777639:"), "\(screen)")
        #expect(bottom.contains("check digit should be 8"), "\(screen)")
        // A person's key puts it away; ! lists the session's refusals.
        try await tmux.press("j")
        try await tmux.waitFor("the refusal put away") { lines in !lines.contains { $0.contains("Refused 5029141777639") } }
        try await tmux.press("!")
        try await tmux.waitFor(text: "scans refused this session (1)")
        try await tmux.waitFor(text: "Refused 5029141777639")
        try await tmux.press("Escape")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("a barcode typed at a person's pace is added as typed; a bad one is refused in the prompt")
    func typedAndRefused() async throws {
        let sandbox = try Sandbox()
        let tmux = try await sandbox.start()
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.press("a")
        try await tmux.waitFor(text: "Add (barcode")
        // A person's pace is the input here, not a wait before an assertion: the pauses
        // between keys make it typed rather than a wedge burst, and a slower machine only
        // lengthens them.
        for c in "5029141777639" {
            try await tmux.type(String(c))
            try await Task.sleep(for: .milliseconds(60))
        }
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "check digit should be 8")
        try await tmux.press("Escape")
        try await tmux.waitFor("the prompt to close") { lines in !lines.contains { $0.contains("Add (barcode") } }
        try await tmux.press("a")
        for c in "5029141777638" {
            try await tmux.type(String(c))
            try await Task.sleep(for: .milliseconds(60))
        }
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "1 record")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        let store = try CollectionStore(path: sandbox.database)
        let rows = try await store.sections().flatMap(\.rows)
        #expect(rows.map(\.gtin) == ["5029141777638"])
        #expect(try await Self.addMethods(store, rows.map(\.recordID)) == [.typed])
    }

    @Test("a duplicate asks, and the scans after it are not blocked")
    func duplicateQuestion() async throws {
        let sandbox = try Sandbox()
        let tmux = try await sandbox.start()
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type("5029141777638\r")
        try await tmux.waitFor(text: "1 record")
        try await tmux.type("5029141777638\r5017066907438\r")
        try await tmux.waitFor(text: "already have 1 copy: add another? (y/N)")
        try await tmux.waitFor(text: "2 records")
        try await tmux.press("y")
        try await tmux.waitFor(text: "3 records")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("delete asks, undo restores")
    func deleteAndUndo() async throws {
        let sandbox = try Sandbox()
        let tmux = try await sandbox.start()
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type("5029141777638\r5017066907438\r")
        try await tmux.waitFor(text: "2 records")
        try await tmux.press("g", "d")
        try await tmux.waitFor(text: "? (y/N)")
        try await tmux.press("y")
        try await tmux.waitFor(text: "1 record ")
        try await tmux.waitFor(text: "u to undo")
        try await tmux.press("u")
        try await tmux.waitFor(text: "2 records")
        try await tmux.waitFor(text: "Restored 1 record")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("resize re-lays out and keeps the selection; SIGTERM restores the terminal")
    func resizeAndTerminate() async throws {
        let sandbox = try Sandbox()
        let tmux = try await sandbox.start(width: 80, height: 24)
        try await tmux.waitFor(text: "No records yet.")
        try await tmux.type(Self.burst.prefix(12).map { $0 + "\r" }.joined())
        try await tmux.waitFor(text: "12 records")
        try await tmux.press("G", "d")
        let asked = try await tmux.waitFor(text: "? (y/N)")
        let selected = asked.last { $0.hasPrefix("Delete ") } ?? ""
        try await tmux.press("n")
        try await tmux.resize(width: 40, height: 12)
        let small = try await tmux.waitFor("a 40-column layout") { lines in
            lines.count == 12 && lines.contains { $0.contains("12 rec") }
        }
        #expect(small.allSatisfy { $0.count <= 40 })
        try await tmux.press("d")
        let again = try await tmux.waitFor(text: "? (y/N)")
        #expect(again.last { $0.hasPrefix("Delete ") }.map { selected.hasPrefix($0.prefix(20)) } == true,
                "the same record is selected after the resize")
        try await tmux.press("n")
        guard let pid = try await tmux.programPID() else {
            Issue.record("no crates process in the pane")
            return
        }
        kill(pid, SIGTERM)
        let report = try await tmux.exitReport()
        #expect(report.status == 128 + Int(SIGTERM))
        #expect(report.saneTerminal)
    }

    static func addMethods(_ store: CollectionStore, _ ids: [Int64]) async throws -> Set<AddMethod> {
        var methods = Set<AddMethod>()
        for id in ids {
            if let record = try await store.record(id) { methods.insert(record.addMethod) }
        }
        return methods
    }
}
