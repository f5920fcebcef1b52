import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The list's order the other way round (`R`) and flat (`F`) under tmux: the title bar says
/// it, and the rows come in that order, the latest added first.
@Suite("TUI end to end: reversed and flat", .serialized, .processTimeLimit)
struct TUIOrderEndToEndTests {
    static func release(_ id: Int, _ artist: String, _ title: String, genre: String) -> Release {
        Release(
            id: id, artist: artist, title: title, genres: [genre], styles: [], formats: ["Vinyl, LP"], year: 1960 + id,
            country: "US", labels: [.init(name: "Label", catno: "CAT \(id)")], url: nil, thumbURL: nil, rawJSON: "{}")
    }

    /// Added in this order, a day apart: Queen (Rock), Miles Davis (Jazz), The Beatles
    /// (Rock), Bill Evans (Jazz).
    static func seed(_ store: CollectionStore) async throws {
        let releases = [
            release(1, "Queen", "A Night At The Opera", genre: "Rock"),
            release(2, "Miles Davis", "Kind Of Blue", genre: "Jazz"),
            release(3, "The Beatles", "Abbey Road", genre: "Rock"),
            release(4, "Bill Evans", "Sunday At The Village Vanguard", genre: "Jazz"),
        ]
        for (index, release) in releases.enumerated() {
            _ = try await store.add(NewRecord(
                gtin: Fixtures.gtin(index + 1), addedAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400),
                addMethod: .typed, release: release))
        }
    }

    /// The artists of the list's rows (lines starting with two spaces), in screen order.
    static func artists(_ lines: [String]) -> [String] {
        lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }.compactMap { line in
            line.dropFirst(2).components(separatedBy: " — ").first
        }
    }

    @Test("by added, R puts the latest first in each section, F makes one list of them all")
    func reversedAndFlat() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(try sandbox.openStore())
        let tmux = try await sandbox.sandbox.start(width: 100, height: 24)
        try await tmux.waitFor(text: "crates · by artist")
        // artist → title → year → added.
        try await tmux.type("OOO")
        try await tmux.waitFor("the list by added") { lines in
            lines.first?.contains("crates · by added") == true
                && Self.artists(lines) == ["Miles Davis", "Bill Evans", "Queen", "The Beatles"]
        }
        try await tmux.type("R")
        try await tmux.waitFor("the latest added first, in sections") { lines in
            lines.first?.contains("crates · by added ↓") == true
                && Self.artists(lines) == ["Bill Evans", "Miles Davis", "The Beatles", "Queen"]
        }
        try await tmux.type("F")
        var screen = try await tmux.waitFor("the latest added first, flat") { lines in
            lines.first?.contains("crates · by added ↓, flat") == true
                && Self.artists(lines) == ["Bill Evans", "The Beatles", "Miles Davis", "Queen"]
        }
        #expect(screen.contains { $0.hasPrefix(" \(CollectionOutline.flatName) (4)") })
        #expect(!screen.contains { $0.hasPrefix(" Jazz") || $0.hasPrefix(" Rock") })
        try await tmux.type("R")
        screen = try await tmux.waitFor("the first added first, flat") { lines in
            lines.first?.contains("crates · by added, flat") == true
                && Self.artists(lines) == ["Queen", "Miles Davis", "The Beatles", "Bill Evans"]
        }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
