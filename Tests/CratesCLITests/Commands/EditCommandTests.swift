import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates add --manual`, `crates edit`, `crates refresh`, and how `list` and `export` show
/// the collector's values, as processes (Discogs on loopback where a lookup is made).
@Suite("crates add --manual, edit, refresh (process)", .serialized, .processTimeLimit)
struct EditCommandTests {
    @Test("add --manual: a record without a barcode, in its genre's section, marked entered by hand; a duplicate is skipped")
    func addByHand() async throws {
        let sandbox = try CommandSandbox()
        let added = try await sandbox.crates([
            "add", "--manual", "--artist", "The Nice", "--title", "Ars Longa Vita Brevis", "--genre", "Rock", "--year", "1968",
            "--label", "Immediate", "--catno", "IMSP 020", "--country", "UK", "--format", "Vinyl, LP",
        ])
        #expect(added.status == 0, "\(added)")
        #expect(added.stdoutLines == ["1\t\thandEntered\tThe Nice — Ars Longa Vita Brevis (entered by hand)"])
        let list = try await sandbox.crates(["list"])
        #expect(list.stdoutLines == [
            "1\t\thandEntered\tRock\tThe Nice\tArs Longa Vita Brevis\tVinyl, LP\t1968\tImmediate\tIMSP 020\t\t"
                + (list.stdoutLines.first?.split(separator: "\t", omittingEmptySubsequences: false)[11]).map(String.init)!
                + "\tartist,title,genre,year,format,label,catno,country\t",
        ], "\(list)")
        let again = try await sandbox.crates(["add", "--manual", "--artist", "the nice", "--title", "ars longa vita brevis", "--catno", "imsp-020"])
        #expect(again.status == 2, "\(again)")
        #expect(again.stderr.contains("is already in the collection (1 copy): skipped; add another copy with --copy"), "\(again)")
        #expect(try await sandbox.crates(["add", "--manual", "--copy", "--artist", "The Nice", "--title", "Ars Longa Vita Brevis", "--catno", "IMSP 020"]).status == 0)

        let missing = try await sandbox.crates(["add", "--manual", "--artist", "Somebody"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("a record entered by hand needs the title"), "\(missing)")
        let badYear = try await sandbox.crates(["add", "--manual", "--artist", "A", "--title", "T", "--year", "99999"])
        #expect(badYear.status == 1 && badYear.stderr.contains("the year 99999 is out of range"), "\(badYear)")
        let mixed = try await sandbox.crates(["add", "--artist", "A", "5099750442227"])
        #expect(mixed.status == 64 && mixed.stderr.contains("add --manual"), "\(mixed)")
    }

    @Test("edit: the collector's values shown, sorted and exported as theirs; --clear gives them back; --note")
    func edit() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let release = Seed.release(13, artist: "Ada", title: "Ambient", genre: "Electronic")
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed, release: release))
        let edited = try await sandbox.crates(["edit", "1", "--genre", "Jazz", "--year", "1974", "--note", "signed"])
        #expect(edited.status == 0, "\(edited)")
        #expect(edited.stdoutLines == [
            "1\t\(Fixtures.gtin(1).canonical)\tmatched\tJazz\tAda\tAmbient\tCD, Album\t1974\t\t\t13\t2024-01-31T12:34:56Z\tgenre,year\t",
        ], "\(edited)")
        let json = try await sandbox.crates(["list", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let collector = try #require(object["collector"] as? [String: Any])
        #expect(collector["year"] as? Int == 1974 && collector["genre"] as? String == "Jazz" && collector["title"] is NSNull)
        #expect((object["release"] as? [String: Any])?["year"] as? Int == 1997, "Discogs' value kept apart")
        #expect(object["note"] as? String == "signed" && object["section"] as? String == "Jazz")
        let csv = try await sandbox.crates(["export", "--csv", "-"])
        #expect(csv.stdoutLines.last?.hasSuffix(",1974,13,,2024-01-31 12:34:56,,,signed,\(Fixtures.gtin(1).canonical),,\"Genre,Released\",Jazz,UK,,,,,,,,,") == true, "\(csv)")

        let cleared = try await sandbox.crates(["edit", "1", "--clear", "genre", "--clear", "note"])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(cleared.stdoutLines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)[3] == "Electronic")
        #expect(try await store.record(1)?.note == nil)
        #expect(try await store.record(1)?.collector == RecordFields(year: 1974))

        for (arguments, message) in [
            (["edit", "1", "--year", "19x4"], "the year \"19x4\" is not a year"),
            (["edit", "1", "--artist", "a\u{7}b"], "the artist contains a control character"),
            (["edit", "1", "--year", "1980", "--clear", "year"], "both set and cleared"),
            (["edit", "1", "--clear", "colour"], "no field is named \"colour\""),
            (["edit", "9", "--year", "1980"], "no record has id 9"),
        ] {
            let refused = try await sandbox.crates(arguments)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused)")
        }
        let nothing = try await sandbox.crates(["edit", "1"])
        #expect(nothing.status == 64 && nothing.stderr.contains("nothing to change"), "\(nothing)")
    }

    @Test("--rating= and --media= (the shell's reading of --rating='') clear, as the help's '' does; a note up to the one limit")
    func emptyValuesWithEquals() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed))
        let set = try await sandbox.crates(["edit", "1", "--rating=4", "--media=VG+"])
        #expect(set.status == 0, "\(set)")
        #expect(try await store.record(1)?.grading == CopyGrading(media: .veryGoodPlus, rating: try Rating(4)))
        let cleared = try await sandbox.crates(["edit", "1", "--rating=", "--media="])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(try await store.record(1)?.grading == CopyGrading.none)

        let longest = String(repeating: "n", count: RecordFieldValue.maximumNoteLength)
        let note = try await sandbox.crates(["edit", "1", "--note", longest])
        #expect(note.status == 0, "\(note)")
        let tooLong = try await sandbox.crates(["edit", "1", "--note", longest + "n"])
        #expect(tooLong.status == 1 && tooLong.stderr.contains("\(RecordFieldValue.maximumNoteLength)"), "\(tooLong)")
    }

    @Test("a value that begins with a dash, as the help writes it: --catno '-123' (and --note, --title…), for edit and add --manual")
    func dashedValues() async throws {
        let sandbox = try CommandSandbox()
        let added = try await sandbox.crates(["add", "--manual", "--artist", "-OZ-", "--title", "-", "--catno", "-7"])
        #expect(added.status == 0, "\(added)")
        let edited = try await sandbox.crates(["edit", "1", "--catno", "-123", "--note", "-signed-"])
        #expect(edited.status == 0, "\(edited)")
        let json = try await sandbox.crates(["list", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let collector = try #require(object["collector"] as? [String: Any])
        #expect(collector["catno"] as? String == "-123" && collector["artist"] as? String == "-OZ-" && collector["title"] as? String == "-")
        #expect(object["note"] as? String == "-signed-")
        // An option after an option that takes a value is still an option.
        let missing = try await sandbox.crates(["edit", "1", "--catno", "--rating", "4"])
        #expect(missing.status == 64, "\(missing)")
    }

    @Test("refresh: the release fetched again, the edit still wins; entered by hand: refused; not signed in: exit 3")
    func refresh() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "refresh-token")
        sandbox.api = server.base
        let offline = try await sandbox.crates(["refresh", "--all"])
        #expect(offline.status == 0 && offline.stdout.isEmpty, "an empty collection: nothing to do: \(offline)")
        try await sandbox.signIn(token: "refresh-token")
        #expect(try await sandbox.crates(["add", "r20000001"]).status == 0)
        #expect(try await sandbox.crates(["edit", "1", "--title", "DSOTM", "--year", "1974"]).status == 0)
        #expect(try await sandbox.crates(["add", "--manual", "--artist", "X", "--title", "Y"]).status == 0)
        try await server.reset()
        let result = try await sandbox.crates(["refresh", "1"], deadline: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines == ["1\t\tmatched\tPink Floyd — DSOTM"], "\(result)")
        #expect(try await server.stats().releases == ["20000001"])
        let list = try await sandbox.crates(["list", "--state", "matched"])
        #expect(list.stdoutLines.first?.contains("\tDSOTM\tVinyl, LP, Album, Stereo\t1974\tHarvest\tSHVL 804\t20000001\t") == true, "\(list)")

        let handEntered = try await sandbox.crates(["refresh", "2"])
        #expect(handEntered.status == 1 && handEntered.stderr.contains("entered by hand: never looked up"), "\(handEntered)")
        let all = try await sandbox.crates(["refresh", "--all"], deadline: .seconds(120))
        #expect(all.status == 0 && all.stdoutLines.count == 1, "every record but the one entered by hand: \(all)")
        #expect(try await sandbox.crates(["refresh"]).status == 64)
    }

    @Test("import of a CSV without barcodes: searched, reported, --manual-missing enters the rows not found")
    func importWithoutBarcodes() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "import-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "import-token")
        let path = sandbox.directory.appendingPathComponent("shelf.csv").path
        try Data("artist,title,catno\nKraftwerk,Trans Europa Express,1C 064-82 306\nPink Floyd,Dark Side,CDP 7 46001 2\nNobody,Nothing,ZZZ 999\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let dry = try await sandbox.crates(["import", "--dry-run", path])
        #expect(dry.status == 0 && dry.stdoutLines.first == "2\tnew\tKraftwerk — Trans Europa Express (1C 064-82 306)\tadd; search Discogs by catalogue number", "\(dry)")
        let result = try await sandbox.crates(["import", "--manual-missing", path], deadline: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.prefix(3) == [
            "\(path): 3 added, 0 already in the collection.",
            "Discogs: 3 lookups: 1 matched, 1 ambiguous, 1 not found, 0 failed.",
            "1 row Discogs has no release for entered by hand (--manual-missing).",
        ], "\(result)")
        #expect(result.stdout.contains("\(path):3: ambiguous: Pink Floyd — Dark Side (CDP 7 46001 2): 2 pressings fit: choose one"), "\(result)")
        #expect(result.stdoutLines.last?.contains("press N") == true)
        let list = try await sandbox.crates(["list"])
        let states = list.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
        #expect(states.sorted() == ["ambiguous", "handEntered", "matched"], "\(list)")
    }
}
