import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// What the collection UI tells a collector about one record, under tmux: the grading
/// lines' keys told apart from the grades, digits in the rating picker, the next step for a
/// barcode Discogs does not know, a duplicate scan naming the record, the genres offered in
/// the entry by hand, and `o` where no browser can open; and `crates edit` on a terminal
/// confirming what it set.
@Suite("TUI end to end: a record's hints", .serialized, .processTimeLimit)
struct TUIRecordHintsEndToEndTests {
    /// The Beatles — Abbey Road (with its Discogs page), in the sandbox's collection as record 1.
    static func seedAbbeyRoad(_ store: CollectionStore) async throws {
        let release = Release(
            id: 2, artist: "The Beatles", title: "Abbey Road", genres: ["Rock"], styles: [], formats: ["Vinyl, LP, Album"],
            year: 1969, country: "UK", labels: [.init(name: "Apple Records", catno: "PCS 7088")],
            url: "https://www.discogs.com/release/2-The-Beatles-Abbey-Road", thumbURL: nil, rawJSON: "{}")
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addMethod: .typed, release: release))
    }

    @Test("the grading lines name their keys apart from the grade; in the rating picker 3 sets three stars and 0 clears")
    func gradingKeys() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        try await Self.seedAbbeyRoad(store)
        #expect(try await sandbox.crates(["edit", "1", "--media", "m"]).status == 0)
        let tmux = try await sandbox.sandbox.start(width: 100, height: 30)
        try await tmux.waitFor(text: "1 record")
        try await tmux.press("Enter")
        let details = try await tmux.waitFor(text: "Media        Mint (M)  · M to change")
        #expect(!details.contains { $0.contains("(M) (M)") }, "\(details)")
        #expect(details.contains { $0.contains("Rating       not rated  · * to change") }, "\(details)")

        try await tmux.type("*")
        try await tmux.waitFor(text: "3  ★★★☆☆")
        try await tmux.type("3")
        let rated = try await tmux.waitFor(text: "Rating       ★★★☆☆  · * to change")
        #expect(!rated.contains { $0.contains("Add (barcode") }, "no add prompt: \(rated)")
        try await waitUntil("three stars stored") { try await store.record(1)?.grading.rating.value == 3 }
        try await tmux.type("*")
        try await tmux.waitFor(text: "3  ★★★☆☆")
        try await tmux.type("0")
        try await tmux.waitFor(text: "Rating       not rated  · * to change")
        try await waitUntil("the rating cleared") { try await store.record(1)?.grading.rating.isRated == false }
        try await tmux.press("Escape")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("crates edit on a terminal says every value it set, in words, on which record")
    func editConfirms() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedAbbeyRoad(try sandbox.openStore())
        let binary = try ProcessRunner.cratesBinary().path
        let command = ([binary, "edit", "1", "--media", "vg+", "--rating", "4", "--year", "1970"]).map(TmuxSession.quote)
            .joined(separator: " ")
        let tmux = try await TmuxSession(command: command, environment: sandbox.environment, width: 120, height: 10)
        #expect(try await tmux.exitReport().status == 0)
        let screen = try await tmux.screen().joined(separator: "\n")
        #expect(screen.contains("Set year 1970, media Very Good Plus (VG+), rating ★★★★☆ on 1 The Beatles — Abbey Road"), "\(screen)")
        #expect(!screen.contains("\t"), "\(screen)")
    }

    @Test("a barcode Discogs does not know: its details say s and m, and m enters it by hand; a duplicate names the record")
    func notFoundAndDuplicate() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        try await Self.seedAbbeyRoad(store)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(5), addMethod: .typed))
        let job = try #require(try await store.claimNext(now: Date(), lease: 3600))
        try await store.complete(job, with: .notFound)
        #expect(try await store.record(2)?.lookupState == .notFound)

        let tmux = try await sandbox.sandbox.start(width: 100, height: 30)
        try await tmux.waitFor(text: "no match on Discogs")
        try await tmux.press("G")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "s: search Discogs by artist or title · m: enter it by hand")
        try await tmux.type("m")
        try await tmux.waitFor(text: "Enter this record by hand (Discogs does not have it)")
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "no match on Discogs")
        try await tmux.press("Escape")

        // The same barcode scanned again: the question names the record.
        try await tmux.type(Fixtures.gtin(2).canonical + "\r")
        try await tmux.waitFor(text: "The Beatles — Abbey Road: already have 1 copy: add another? (y/N)")
        try await tmux.press("n")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("the entry by hand offers the collection's genres as the genre is typed; Tab takes the first")
    func genresOffered() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(3), addMethod: .typed,
            release: Seed.release(3, artist: "Fairport Convention", title: "Liege & Lief", genre: "Folk, World, & Country")))
        let tmux = try await sandbox.sandbox.start(width: 100, height: 30)
        try await tmux.waitFor(text: "1 record")
        try await tmux.type("m")
        try await tmux.waitFor(text: "Enter a record by hand")
        try await tmux.type("Nick Drake")
        try await tmux.press("Tab")
        try await tmux.type("Pink Moon")
        try await tmux.press("Tab")
        try await tmux.type("folk")
        try await tmux.waitFor(text: "Genres: Folk, World, & Country")
        try await tmux.press("Tab")
        try await tmux.waitFor("the genre completed") { lines in
            lines.contains { $0.hasPrefix(" Genre") && $0.contains("Folk, World, & Country") }
        }
        try await tmux.press("Enter")
        try await waitUntil("the record in the genre's section") {
            try await store.record(2)?.collector.genre == "Folk, World, & Country"
        }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }

    @Test("o where no browser can open says so with the page's address, from the list and from the details")
    func noBrowser() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedAbbeyRoad(try sandbox.openStore())
        var environment = sandbox.sandbox.environment
        environment["DISPLAY"] = ""
        environment["WAYLAND_DISPLAY"] = ""
        let binary = try ProcessRunner.cratesBinary().path
        let tmux = try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database))", environment: environment,
            width: 120, height: 24)
        try await tmux.waitFor(text: "1 record")
        try await tmux.type("o")
        let list = try await tmux.waitFor(text: "No browser here; the page is https://www.discogs.com/release/2-The-Beatles-Abbey-Road")
        #expect(list.contains { $0.contains("crates · by artist") }, "still the list: \(list)")
        try await tmux.press("Escape")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Apple Records")
        try await tmux.type("o")
        try await tmux.waitFor(text: "No browser here; the page is https://www.discogs.com/release/2-The-Beatles-Abbey-Road")
        try await tmux.press("Escape")
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
