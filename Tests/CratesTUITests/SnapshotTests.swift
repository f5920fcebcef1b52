import CratesCore
import Foundation
import Testing
@testable import CratesTUI

/// Screens rendered into a text grid, compared line by line with what a collector should see.
@Suite struct SnapshotTests {
    static let release = Release(
        id: 249504, artist: "Rick Astley", title: "Never Gonna Give You Up", genres: ["Electronic", "Pop"],
        styles: ["Synth-pop"], formats: ["Vinyl, 7\", 45 RPM, Single"], year: 1987, country: "UK",
        labels: [.init(name: "RCA", catno: "PB 41447")],
        url: "https://www.discogs.com/release/249504-Rick-Astley-Never-Gonna-Give-You-Up", rawJSON: "{}")

    static let candidates = [
        ReleaseCandidate(releaseID: 11, artist: "Portishead", title: "Dummy", country: "UK", year: 1994, formats: ["CD", "Album"], label: "Go! Beat", catno: "828 522-2"),
        ReleaseCandidate(releaseID: 12, artist: "Portishead", title: "Dummy", country: "Europe", year: 1994, formats: ["CD"], label: "Go! Beat", catno: "828 553-2"),
        ReleaseCandidate(releaseID: 13, artist: "Portishead", title: "Dummy", country: "US", year: 1995, formats: ["CD"], label: "London Records", catno: "828 553-2"),
    ]


    @Test func severalSections() {
        let screen = Harness().lines
        #expect(screen.count == 24)
        #expect(Array(screen[0...9]) == [
            " crates · by artist                       ?:help a:add s:search /:filter q:quit",
            " Electronic (2)",
            "  Björk — Homogenic                                  CD         1997",
            "  Massive Attack — Mezzanine                         LP         1998",
            " Folk, World, & Country (1)",
            "  坂本龍一 — 音楽図鑑                                CD         1984",
            " Unknown (3)",
            "  0 77774 62002 4  waits for Discogs",
            "  5012345678900  3 pressings: press Enter to choose",
            "  4006381333931  no match on Discogs",
        ])
        #expect(screen[22] == " 6 records · Discogs: not signed in (A or `crates auth`)")
        #expect(screen[10...21].allSatisfy { $0.isEmpty })
    }

    @Test("a record the local catalogue did not know says so in its row, as everywhere else, while it waits for Discogs")
    func notInTheCatalogue() {
        var waiting = Sample.item(4, "0077774620024", state: .pending)
        waiting.catalogueEdition = CatalogueEdition(dumpDate: "20260601")
        let screen = Harness(MemoryCollection(sections: [("Unknown", [waiting])])).lines
        #expect(screen[2] == "  0 77774 62002 4  not in the catalogue of 2026-06-01; waiting for Discogs", "\(screen)")
    }

    @Test("a lookup that failed for a record the catalogue did not know says it waits for Discogs, as the README promises, not \"lookup failed\"")
    func notInTheCatalogueFailed() {
        var waiting = Sample.item(4, "0077774620024", state: .failed)
        waiting.catalogueEdition = CatalogueEdition(dumpDate: "20260601")
        let screen = Harness(MemoryCollection(sections: [("Unknown", [waiting])])).lines
        #expect(screen[2] == "  0 77774 62002 4  not in the catalogue of 2026-06-01; waiting for Discogs", "\(screen)")
    }

    @Test func emptyCollection() {
        let screen = Harness(Sample.empty).lines
        #expect(screen[2] == "  No records yet.")
        #expect(screen[4] == "  Scan a barcode (or type one and press Enter),")
        #expect(screen[22] == " 0 records · Discogs: not signed in (A or `crates auth`)")
    }

    @Test func cameraStatusShortensBeforeTheRest() {
        var wide = Harness()
        wide.send(.camera(.connected))
        #expect(wide.lines[22] == " 6 records · Discogs: not signed in (A or `crates auth`) · camera: connected")
        wide.send(.camera(.noDaemon))
        #expect(wide.lines[22] == " 6 records · Discogs: not signed in (A or `crates auth`) · camera: no daemon")
        var middle = Harness(width: 60, height: 24)
        middle.send(.camera(.connected))
        middle.send(.camera(.noDaemon))
        #expect(middle.lines[22] == " 6 records · not signed in · no cam")
        var narrow = Harness(width: 24, height: 12)
        narrow.send(.camera(.connected))
        #expect(narrow.lines[10] == " 6 rec · not signed in")
    }

    /// A wedge scanner's user runs no camera daemon: that is said once, on the message line,
    /// and the status line says nothing of a camera until a daemon was there and went away.
    @Test func noCameraDaemonIsSaidOnceUntilOneWasSeen() {
        var h = Harness()
        h.send(.camera(.noDaemon))
        #expect(h.lines[22] == " 6 records · Discogs: not signed in (A or `crates auth`)")
        #expect(h.state.message?.text == "No camera daemon (crates scand starts one); a wedge scanner needs none")
        h.type("5099750442227")
        h.type([.enter])
        h.send(.message("Added 5099750442227", isError: false))
        h.send(.camera(.noDaemon))
        #expect(h.state.message?.text == "Added 5099750442227")
        #expect(!h.lines.contains { $0.contains("camera") || $0.contains("no cam") })
    }

    @Test func narrowTerminalDegradesWithoutGarbling() {
        let screen = Harness(width: 40, height: 12).lines
        #expect(screen == [
            " crates    ?:help a:add /:filter q:quit",
            " Electronic (2)",
            "  Björk — Homogenic",
            "  Massive Attack — Mezzanine",
            " Folk, World, & Country (1)",
            "  坂本龍一 — 音楽図鑑",
            " Unknown (3)",
            "  0 77774 62002 4  waits for Discogs",
            "  5012345678900  3 pressings: press Ent…",
            "  4006381333931  no match on Discogs",
            // The least important fact shortens first: the count keeps its long form.
            " 6 records · not signed in",
            "",
        ])
        let render = Harness(width: 40, height: 12).screen
        for row in 0..<render.height {
            #expect(DisplayWidth.of(render.line(row)) == 40, "row \(row) fills exactly the width")
        }
    }

    @Test func tinyTerminal() {
        let screen = Harness(width: 8, height: 3).lines
        #expect(screen == ["crates", "too sma…", ""])
    }

    @Test func pendingRowTurnsIntoArtistAndTitleInPlace() {
        var h = Harness()
        h.send(.discogs(.signedIn(username: "DamIDhagor")))
        h.type([.character("G"), .up, .up])
        #expect(h.lines[7] == "  0 77774 62002 4  looking up…", "while signed in, a waiting record is being looked up")
        h.storeChanged { store in
            store.sections[2].items[0] = Sample.item(4, "0077774620024", artist: "Nirvana", title: "Nevermind", format: "CD", year: 1991)
        }
        #expect(h.lines[7] == "  Nirvana — Nevermind                                CD         1991")
        #expect(h.state.selectedLine == 6)
    }

    @Test func details() {
        var h = Harness(width: 60, height: 20)
        h.type([.enter])
        #expect(h.lines[2] == "  Loading…")
        h.send(.details(AppStateTests.details(id: 1, state: .matched, release: Self.release)))
        let screen = h.lines
        #expect(Array(screen[0...13]) == [
            // 19 lines, 17 shown: the title says so.
            " crates · details 1–17 of 19          j Space:more Esc:back",
            " Rick Astley — Never Gonna Give You Up",
            "",
            " Artist       Rick Astley",
            " Title        Never Gonna Give You Up",
            " Genres       Electronic, Pop",
            " Styles       Synth-pop",
            " Formats      Vinyl, 7\", 45 RPM, Single",
            " Year         1987",
            " Country      UK",
            " Labels       RCA – PB 41447",
            " Barcode      5012345678900 (EAN-13, United Kingdom)",
            " Lookup       matched",
            " Discogs      https://www.discogs.com/release/249504-Rick-A…",
        ])
        #expect(screen[14].hasPrefix(" Added        2023-11-1"))
        #expect(h.screen.hyperlink?.url == Self.release.url)
    }

    @Test func ambiguousPicker() {
        var h = Harness(width: 60, height: 14)
        h.type([.character("G"), .up, .enter])
        h.send(.details(AppStateTests.details(id: 5, state: .ambiguous, candidates: Self.candidates)))
        h.type([.down])
        #expect(Array(h.lines[0...8]) == [
            " crates · choose a pressing                Esc:back F1:help",
            " 3 pressings share 5012345678900: type to narrow, Enter cho…",
            "",
            " 1. Portishead — Dummy",
            "    UK · 1994 · Go! Beat · 828 522-2 · CD, Album",
            " 2. Portishead — Dummy",
            "    Europe · 1994 · Go! Beat · 828 553-2 · CD",
            " 3. Portishead — Dummy",
            "    US · 1995 · London Records · 828 553-2 · CD",
        ])
        let render = h.screen
        #expect(render[5, 1].style == .selected)
        #expect(render[3, 1].style != .selected)
    }

    @Test func helpIsGeneratedFromTheKeyMap() {
        var h = Harness(width: 80, height: 52)
        h.type([.character("?")])
        let text = h.screen.text
        for binding in KeyMap.bindings where binding.contexts.contains(.list) {
            #expect(text.contains(binding.help), "help lists \(binding.action)")
        }
        #expect(text.contains("   d Delete           delete the record, or every tagged one (asks first)"))
    }

    @Test func cjkTitlesAreCutByDisplayWidth() {
        let long = MemoryCollection(sections: [("Pop", [
            Sample.item(1, "4988006555556", artist: "坂本龍一", title: "音楽図鑑音楽図鑑音楽図鑑音楽図鑑音楽図鑑", format: "CD", year: 1984),
        ])])
        let render = Harness(long, width: 40, height: 6).screen
        #expect(render.line(2) == "  坂本龍一 — 音楽図鑑音楽図鑑音楽図鑑音…")
        #expect(DisplayWidth.of(render.line(2)) == 40)
    }

    @Test func escapeSequencesFromDiscogsNeverReachTheTerminal() {
        let evil = MemoryCollection(sections: [("Rock\u{1B}[31m", [
            Sample.item(1, "5099750442227", artist: "Evil\u{1B}]0;pwned\u{07}", title: "Title\u{1B}[2J\u{9B}1m", format: "CD"),
        ])])
        let render = Harness(evil, width: 40, height: 6).screen
        #expect(render.line(1).hasPrefix(" Rock[31m (1)"))
        #expect(render.line(2).hasPrefix("  Evil]0;pwned — Title[2J1m"))
        for row in 0..<render.height {
            for column in 0..<render.width {
                #expect(!render[row, column].character.unicodeScalars.contains { ControlCharacters.isControl($0) })
            }
        }
    }
}
