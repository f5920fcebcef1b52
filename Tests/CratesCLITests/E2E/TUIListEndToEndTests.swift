import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The collection UI's list under tmux: its orders (remembered between runs), pressings
/// told apart, filtering by year and format, undo as a stack, shelving into the current
/// place, the places view following another terminal's move, a UPC-A as printed, and the
/// details view wrapping.
@Suite("TUI end to end: the list", .serialized, .processTimeLimit)
struct TUIListEndToEndTests {
    static func release(
        _ id: Int, _ artist: String, _ title: String, year: Int, country: String, catno: String, format: String = "Vinyl, LP, Album"
    ) -> Release {
        Release(
            id: id, artist: artist, title: title, genres: ["Rock"], styles: [], formats: [format], year: year,
            country: country, labels: [.init(name: "Warner Bros.", catno: catno)], url: nil, thumbURL: nil, rawJSON: "{}")
    }

    /// Queen (CD, 1975), The Beatles (1969), Rumours twice (UK K 56344, US BSK 3010).
    static func seed(_ store: CollectionStore) async throws {
        let releases = [
            release(1, "Queen", "A Night At The Opera", year: 1975, country: "UK", catno: "EMTC 103", format: "CD, Album"),
            release(2, "The Beatles", "Abbey Road", year: 1969, country: "UK", catno: "PCS 7088"),
            release(3, "Fleetwood Mac", "Rumours", year: 1977, country: "UK", catno: "K 56344"),
            release(4, "Fleetwood Mac", "Rumours", year: 1977, country: "US", catno: "BSK 3010"),
        ]
        for (index, release) in releases.enumerated() {
            _ = try await store.add(NewRecord(gtin: Fixtures.gtin(index + 1), addMethod: .typed, release: release))
        }
    }

    /// The rows of the list (lines starting with two spaces), in screen order.
    static func rows(_ lines: [String]) -> [String] { lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") } }

    @Test("sorted by artist, O cycles the orders and the next run keeps it; pressings differ; 1977 and vinyl filter")
    func ordersPressingsAndFilters() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(try sandbox.openStore())
        var tmux = try await sandbox.sandbox.start(width: 100, height: 24)
        var screen = try await tmux.waitFor(text: "crates · by artist")
        // The Beatles under B, Fleetwood Mac, Queen.
        #expect(Self.rows(screen).map { $0.prefix(30).trimmingCharacters(in: .whitespaces) } == [
            "The Beatles — Abbey Road", "Fleetwood Mac — Rumours", "Fleetwood Mac — Rumours", "Queen — A Night At The Opera",
        ])
        // Two pressings of Rumours are two different lines.
        #expect(screen.contains { $0.contains("Fleetwood Mac — Rumours") && $0.contains(" 1977 UK ") && $0.hasSuffix(" K 56344") })
        #expect(screen.contains { $0.contains("Fleetwood Mac — Rumours") && $0.contains(" 1977 US ") && $0.hasSuffix(" BSK 3010") })

        try await tmux.type("O")
        screen = try await tmux.waitFor(text: "crates · by title")
        try await tmux.waitFor("the list by title") { lines in
            Self.rows(lines).first?.hasPrefix("  Queen — A Night At The Opera") == true
        }
        // A year and a format filter, beside text.
        try await tmux.type("/1977")
        try await tmux.waitFor(text: "2 found")
        try await tmux.press("Escape")
        try await tmux.type("/vinyl abbey")
        try await tmux.waitFor(text: "1 found")
        try await tmux.press("Escape")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)

        // The next run starts by title: the order is the configuration's `sort`, which
        // `crates list` without --sort follows too.
        tmux = try await sandbox.sandbox.start(width: 100, height: 24)
        try await tmux.waitFor(text: "crates · by title")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
        let setting = try await sandbox.crates(["config", "sort"])
        #expect(setting.status == 0 && setting.stdoutLines == ["title"], "\(setting)")
        let listed = try await sandbox.crates(["list", "--json"])
        #expect(listed.stdoutLines.first?.contains("A Night At The Opera") == true, "\(listed.stdoutLines)")
    }

    @Test("two deletes and an edit: u three times puts all back, last first; a fourth says nothing to undo")
    func undoStack() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(try sandbox.openStore())
        let tmux = try await sandbox.sandbox.start(width: 100, height: 24)
        try await tmux.waitFor(text: "4 records")
        try await tmux.type("dy")
        try await tmux.waitFor(text: "3 records")
        try await tmux.type("dy")
        try await tmux.waitFor(text: "2 records")
        // An edit of the title (the form's second field), once the form holds the record's
        // values (they come from the store after the form opens).
        try await tmux.type("e")
        try await tmux.waitFor("the edit form, filled") { lines in
            lines.contains { $0.contains("crates · edit") } && lines.contains { $0.contains("Rumours") || $0.contains("A Night At") }
        }
        try await tmux.press("Tab")
        try await tmux.press("C-u")
        try await tmux.type("Renamed")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "— Renamed")
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "crates · by artist")
        try await tmux.type("u")
        try await tmux.waitFor(text: "Edit undone")
        try await tmux.waitFor("the title back") { lines in !lines.contains { $0.contains("— Renamed") } }
        // Each undo's message is waited for (Esc clears the message line first), so that no
        // message still on its way can replace the last one.
        for count in ["3 records", "4 records"] {
            try await tmux.press("Escape")
            try await tmux.waitFor("the message line cleared") { lines in !lines.contains { $0.contains("Restored 1 record") } }
            try await tmux.type("u")
            try await tmux.waitFor("\(count), restored") { lines in
                lines.contains { $0.contains(count) } && lines.contains { $0.contains("Restored 1 record") }
            }
        }
        try await tmux.type("u")
        try await tmux.waitFor(text: "Nothing to undo")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("a record in no place goes into the scanned place at once (u undoes); one elsewhere asks; L follows crates move")
    func shelving() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        try await Self.seed(store)
        let crate = try await store.addLocation(name: "Crate A1", in: nil)
        let other = try await store.addLocation(name: "Crate B2", in: nil)
        var byGTIN: [String: Int64] = [:]
        for row in try await store.sections().flatMap(\.rows) { byGTIN[row.gtin] = row.recordID }
        let queenGTIN = Fixtures.gtin(1).canonical
        let beatlesGTIN = Fixtures.gtin(2).canonical
        let queen = try #require(byGTIN[queenGTIN])
        let beatles = try #require(byGTIN[beatlesGTIN])
        _ = try await store.moveRecords([beatles], to: other.id)
        let tmux = try await sandbox.sandbox.start(width: 100, height: 24)
        try await tmux.waitFor(text: "4 records")
        try await tmux.type(try #require(crate.code).digits + "\r")
        try await tmux.waitFor(text: "→ Crate A1")
        // Queen is in no place: in at once, no question.
        try await tmux.type(queenGTIN + "\r")
        try await tmux.waitFor(text: "Put Queen — A Night At The Opera in Crate A1: u to undo")
        try await waitUntil("Queen in Crate A1") { try await store.record(queen)?.location?.id == crate.id }
        try await tmux.type("u")
        try await waitUntil("Queen in no place again") { try await store.record(queen)?.location == nil }
        // In another place: asked.
        try await tmux.type(beatlesGTIN + "\r")
        try await tmux.waitFor(text: "in Crate B2: move it here? (Y/n, c: another copy)")
        try await tmux.press("n")
        #expect(try await store.record(beatles)?.location?.id == other.id)

        // The places view follows a move made in another terminal.
        try await tmux.press("L")
        try await tmux.waitFor("Crate B2 holding 1") { lines in lines.contains { $0.contains("Crate B2") && $0.hasSuffix(" 1") } }
        let moved = try await sandbox.crates(["move", String(queen), "--to", "Crate B2"])
        #expect(moved.status == 0, "\(moved)")
        try await tmux.waitFor("Crate B2 holding 2") { lines in lines.contains { $0.contains("Crate B2") && $0.hasSuffix(" 2") } }
        try await tmux.press("q")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("a UPC-A shows as printed; the details view wraps a long title")
    func printedBarcodeAndWrappedDetails() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(gtin: try GTIN(parsing: "074644022513"), addMethod: .typed))
        let long = Release(
            id: 9, artist: "The Kilimanjaro Darkjazz Ensemble",
            title: "Here Be Dragons: Live Recordings From The Old Cinema, Amsterdam, Autumn Of Two Thousand And Nine",
            genres: ["Jazz"], styles: [], formats: ["Vinyl, LP"], year: 2009, country: "Netherlands", labels: [],
            url: nil, thumbURL: nil, rawJSON: "{}")
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(9), addMethod: .typed, release: long))
        let tmux = try await sandbox.sandbox.start(width: 60, height: 24)
        try await tmux.waitFor(text: "0 74644 02251 3")
        try await tmux.type("g")
        try await tmux.press("Enter")
        // The long title's wrapped lines, all in one capture.
        let screen = try await tmux.waitFor("the details with the title wrapped") { lines in
            lines.contains { $0.contains("Title") } && lines.contains { $0.hasSuffix("Here Be Dragons: Live Recordings From The Old") }
                && lines.contains { $0.hasSuffix("Cinema, Amsterdam, Autumn Of Two Thousand And") }
        }
        #expect(!screen.contains { $0.contains("…") }, "\(screen)")
        try await tmux.press("q")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
