import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates location`, `crates move` and `crates list --location`, as processes: what they
/// print, how they exit, and what each bad input is told.
@Suite("crates location and crates move (process)", .processTimeLimit)
struct LocationCommandTests {
    /// Living Room (#1) › Shelf 1 (#2) › Crate A (#4), Living Room › Shelf 2 (#3) › Crate A (#5),
    /// and two records (1, 2) in no place.
    static func seed(_ sandbox: CommandSandbox) async throws {
        for arguments in [
            ["Living Room"], ["Shelf 1", "--in", "Living Room"], ["Shelf 2", "--in", "living room"],
            ["Crate A", "--in", "Shelf 1"], ["Crate A", "--in", "Living Room/Shelf 2"],
        ] {
            let result = try await sandbox.crates(["location", "add"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        let added = try await sandbox.crates(["add", Fixtures.gtin(1).canonical, Fixtures.gtin(2).canonical])
        #expect(added.status == 0, "\(added)")
    }

    @Test("add prints the new place; list: lines and JSON Lines from the top down, with counts; move and list --location")
    func addListMove() async throws {
        let sandbox = try CommandSandbox()
        let first = try await sandbox.crates(["location", "add", "Kitchen"])
        #expect(first.status == 0 && first.stdout == "1\t2900000000018\t0\tKitchen\n", "\(first)")
        try await Self.seed(sandbox)
        // By path, and by the copy's label (291 + record id) for the second record.
        let moved = try await sandbox.crates(["move", "1", "2910000000024", "--to", "Shelf 2/Crate A"])
        #expect(moved.status == 0, "\(moved)")
        #expect(moved.stdout == "Moved 2 records into Crate A (Living Room › Shelf 2)\n")
        let list = try await sandbox.crates(["location", "list"])
        #expect(list.status == 0, "\(list)")
        #expect(list.stdoutLines == [
            "1\t2900000000018\t0\tKitchen", "2\t2900000000025\t2\tLiving Room", "3\t2900000000032\t0\tLiving Room › Shelf 1",
            "5\t2900000000056\t0\tLiving Room › Shelf 1 › Crate A", "4\t2900000000049\t2\tLiving Room › Shelf 2",
            "6\t2900000000063\t2\tLiving Room › Shelf 2 › Crate A",
        ])
        let json = try await sandbox.crates(["location", "list", "--json"])
        #expect(json.status == 0, "\(json)")
        let objects = try json.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { Set($0.keys) }.allSatisfy { $0 == ["id", "name", "path", "parent", "code", "count"] })
        let crate = try #require(objects.last)
        #expect(crate["name"] as? String == "Crate A" && crate["path"] as? String == "Living Room › Shelf 2 › Crate A")
        #expect((crate["parent"] as? NSNumber)?.intValue == 4 && crate["code"] as? String == "2900000000063")
        #expect((crate["count"] as? NSNumber)?.intValue == 2 && objects.first?["parent"] is NSNull)

        // The room holds what its shelves hold; the other shelf nothing.
        let inRoom = try await sandbox.crates(["list", "--location", "Living Room", "--json"])
        #expect(inRoom.status == 0 && inRoom.stdoutLines.count == 2, "\(inRoom)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data((inRoom.stdoutLines.first ?? "").utf8)) as? [String: Any])
        let location = try #require(record["location"] as? [String: Any])
        #expect(location["name"] as? String == "Crate A" && location["path"] as? String == "Living Room › Shelf 2 › Crate A")
        let onShelf1 = try await sandbox.crates(["list", "--location", "2900000000032"])
        #expect(onShelf1.status == 0 && onShelf1.stdout.isEmpty, "\(onShelf1)")
        let csv = try await sandbox.crates(["export", "--csv", "-", "--location", "#6"])
        #expect(csv.status == 0, "\(csv)")
        #expect(csv.stdoutLines.first?.contains(",Barcode,Location,Collector Fields,Genre,Country,Entered By Hand,Purchase Price,") == true)
        #expect(csv.stdoutLines.dropFirst().allSatisfy { $0.contains(",Living Room › Shelf 2 › Crate A,") && $0.contains(",Crate A,") })
    }

    @Test("bad input: a taken name, an ambiguous name, a cycle, a label with a wrong check digit, a name too long, unknown ids")
    func badInput() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(sandbox)
        let cases: [([String], String)] = [
            (["location", "add", "crate a", "--in", "Shelf 1"], "Living Room › Shelf 1 already holds a place called “crate a”"),
            (["move", "1", "--to", "Crate A"],
             "“Crate A” could be any of 2 places: Living Room › Shelf 1 › Crate A (#4), Living Room › Shelf 2 › Crate A (#5); "
                + "name one by its path (“Shelf 1/Crate A”) or its id (#4 or #5)"),
            (["location", "rename", "Living Room", "--in", "Shelf 2/Crate A"],
             "cannot put Living Room inside Living Room › Shelf 2 › Crate A: Crate A is inside Living Room"),
            (["location", "rename", "Shelf 1", "--in", "Shelf 1"], "cannot put Living Room › Shelf 1 inside itself"),
            // Removing a place moves its contents: never "cannot put Living Room inside …".
            (["location", "remove", "Living Room", "--move-to", "Shelf 2/Crate A"],
             "cannot move what Living Room holds into Living Room › Shelf 2 › Crate A: it is inside Living Room, "
                + "which is being removed; choose a place outside it"),
            (["location", "remove", "Shelf 1", "--move-to", "Shelf 1"],
             "cannot move what Living Room › Shelf 1 holds into itself: it is the place being removed"),
            (["move", "1", "--to", "2900000000038"],
             "looks like crates location label 3, but its check digit should be 2, got 8: a misread or a typo (read as EAN-13)"),
            (["location", "add", String(repeating: "Crate ", count: 14)],
             "characters is too long for a label: a name has at most 80"),
            (["location", "add", "Box › 2"], "a name cannot hold “›”"),
            (["move", "1", "--to", "Attic"], "no place is called “Attic” (see `crates location list`)"),
            (["list", "--location", "#99"], "no place has id 99 (removed?)"),
        ]
        for (arguments, message) in cases {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("SQLITE"), "\(result)")
        }
        let missing = try await sandbox.crates(["move", "1", "77", "2900000000025", "--to", "#4"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderrLines == [
            "crates move: “2900000000025”: this is a place's label (crates location label 2), not a record's; give a record id",
            "crates move: record 77 is not in the collection",
        ])
        #expect(missing.stdout == "Moved 1 record into Crate A (Living Room › Shelf 1)\n")
        // Nothing of the refused changes was made.
        let list = try await sandbox.crates(["location", "list"])
        #expect(list.stdoutLines.count == 5, "\(list)")
    }

    @Test("rename and move a place; remove asks first, takes --move-to, and leaves records in no place on yes")
    func renameAndRemove() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(sandbox)
        let renamed = try await sandbox.crates(["location", "rename", "Shelf 1/Crate A", "Crate B"])
        #expect(renamed.status == 0 && renamed.stdout == "4\t2900000000049\t0\tLiving Room › Shelf 1 › Crate B\n", "\(renamed)")
        let moved = try await sandbox.crates(["location", "rename", "Crate B", "--in", "Shelf 2"])
        #expect(moved.status == 0 && moved.stdout == "4\t2900000000049\t0\tLiving Room › Shelf 2 › Crate B\n", "\(moved)")
        #expect(try await sandbox.crates(["move", "1", "2", "--to", "Crate B"]).status == 0)

        // No answer (standard input at its end): not removed.
        let unanswered = try await sandbox.crates(["location", "remove", "Shelf 2"])
        #expect(unanswered.status == 1, "\(unanswered)")
        #expect(unanswered.stderr.contains(
            "Shelf 2 (Living Room) holds 2 records and 2 places: remove it and the places inside it? The records stay in the "
                + "collection, in no place (--move-to PLACE moves them instead). (y/N)"))
        #expect(unanswered.stderr.contains("not removed: Living Room › Shelf 2"))
        let no = try await sandbox.crates(["location", "remove", "Shelf 2"], stdin: Data("n\n".utf8))
        #expect(no.status == 1, "\(no)")
        // --move-to: what it holds moves, nothing is asked.
        let into = try await sandbox.crates(["location", "remove", "Shelf 2", "--move-to", "Shelf 1"])
        #expect(into.status == 0, "\(into)")
        #expect(into.stdout == "Removed Shelf 2 (Living Room); moved 2 places into Shelf 1 (Living Room)\n")
        let store = try sandbox.openStore()
        #expect(try await store.record(1)?.location?.pathText == "Living Room › Shelf 1 › Crate B")
        // Yes: the room goes with everything inside it; the records stay, in no place.
        let yes = try await sandbox.crates(["location", "remove", "Living Room"], stdin: Data("y\n".utf8))
        #expect(yes.status == 0, "\(yes)")
        #expect(yes.stdout == "Removed Living Room and 3 places inside it; 2 records now in no place\n")
        #expect(try await store.record(1)?.location == nil)
        #expect(try await store.sections().flatMap(\.rows).count == 2)
        // An empty place goes without a question.
        #expect(try await sandbox.crates(["location", "add", "Attic"]).status == 0)
        let empty = try await sandbox.crates(["location", "remove", "Attic"])
        #expect(empty.status == 0 && empty.stdout == "Removed Attic\n", "\(empty)")
    }

    @Test("a crates label is never added, looked up or imported as a record; crates barcode names it")
    func labelsAreNotRecords() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(sandbox)
        let add = try await sandbox.crates(["add", "2900000000025", "2910000000017"])
        #expect(add.status == 1, "\(add)")
        #expect(add.stderrLines == [
            "crates add: 2900000000025: crates location label 2: a place's own label, not a record's barcode",
            "crates add: 2910000000017: crates copy label 1: the sticker of record 1 in the collection, not a record's barcode",
        ])
        let lookup = try await sandbox.crates(["lookup", "2900000000025"])
        #expect(lookup.status == 1, "\(lookup)")
        #expect(lookup.stderr == "crates lookup: 2900000000025: crates location label 2: a place's own label, not a record's barcode: nothing to look up\n")
        let file = sandbox.directory.appendingPathComponent("codes.txt")
        try Data("\(Fixtures.gtin(3).canonical)\n2900000000025\n2900000000026\n".utf8).write(to: file)
        let imported = try await sandbox.crates(["import", "--no-lookup", file.path])
        #expect(imported.status == 2, "\(imported)")
        #expect(imported.stderr.contains("codes.txt:2: 2900000000025: crates location label 2: a place's own label, not a record's barcode"))
        #expect(imported.stderr.contains("codes.txt:3: 2900000000026: looks like crates location label 2, but its check digit should be 5, got 6"))
        let barcode = try await sandbox.crates(["barcode", "--json", "2900000000025"])
        #expect(barcode.status == 0, "\(barcode)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(barcode.stdout.utf8)) as? [String: Any])
        #expect((object["label"] as? [String: Any])?["kind"] as? String == "location")
        #expect(object["lookupForms"] as? [String] == [])
        let store = try sandbox.openStore()
        #expect(try await store.sections().flatMap(\.rows).map(\.gtin).sorted()
            == [Fixtures.gtin(1), Fixtures.gtin(2), Fixtures.gtin(3)].map(\.canonical).sorted())
    }

    @Test("an import's location column joins the places it names, or makes them")
    func importedPlaces() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(sandbox)
        let file = sandbox.directory.appendingPathComponent("shelf.csv")
        try Data("""
            barcode,location
            \(Fixtures.gtin(3).canonical),Shelf 2/Crate A
            \(Fixtures.gtin(4).canonical),Living Room › Shelf 3
            \(Fixtures.gtin(5).canonical),Uncategorized

            """.utf8).write(to: file)
        let imported = try await sandbox.crates(["import", "--no-lookup", file.path])
        #expect(imported.status == 0, "\(imported)")
        let store = try sandbox.openStore()
        var paths: [String: String] = [:]
        for row in try await store.sections().flatMap(\.rows) {
            paths[row.gtin] = try await store.record(row.recordID)?.location?.pathText ?? "-"
        }
        #expect(paths[Fixtures.gtin(3).canonical] == "Living Room › Shelf 2 › Crate A")
        #expect(paths[Fixtures.gtin(4).canonical] == "Living Room › Shelf 3")
        #expect(paths[Fixtures.gtin(5).canonical] == "-", "Discogs' default folder is no place")
    }
}
