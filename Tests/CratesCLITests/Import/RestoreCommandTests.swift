import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A collector's backup restores the collection exactly: `crates export --json` then
/// `crates import` of that file into an empty collection, and the CSV round trip of the
/// collector's own values and hand entries (processes, real SQLite, the loopback Discogs
/// server for the sync's links).
@Suite("crates import of crates' own exports: restore and round trip (process)", .serialized)
struct RestoreCommandTests {
    /// Every kind of record: matched (three, synced to Discogs), pending with a pinned
    /// release, ambiguous, not found, failed, entered by hand, a not-found barcode entered by
    /// hand, the collector's values, grades, rating, a note with a formula, places nested,
    /// empty and removed (so ids have gaps), a deleted record (so its id is never given again).
    static func seedEverything(_ sandbox: CommandSandbox) async throws {
        for arguments in [
            ["location", "add", "Living Room"], ["location", "add", "Shelf 2", "--in", "Living Room"],
            ["location", "add", "Gone"], ["location", "add", "Crate A1", "--in", "Living Room/Shelf 2"],
            ["location", "add", "Crate A2", "--in", "Living Room/Shelf 2"], ["location", "add", "Attic"],
            ["location", "remove", "Gone"],
            // Moved under a newer place: a place can come before the place it is in.
            ["location", "add", "Box"], ["location", "rename", "Attic", "--in", "Box"],
        ] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        let store = try sandbox.openStore()
        for (n, release) in [(1, "Stockholm"), (5_134_861, "Glory To The Brave"), (10_507_194, "Likemind 05")].enumerated() {
            _ = try await store.add(NewRecord(
                gtin: Fixtures.gtin(n), addedAt: Seed.addedAt.addingTimeInterval(Double(n) * 60), addMethod: .typed,
                release: Seed.release(release.0, artist: "Artist \(n)", title: release.1, genre: "Rock")))
        }
        let outcomes: [LookupOutcome] = [
            .ambiguous([ReleaseCandidate(releaseID: 2, artist: "A", title: "T", year: 1990, formats: ["CD"], coverURL: "https://i.discogs.com/c/R-2.jpeg"),
                        ReleaseCandidate(releaseID: 3, artist: "A", title: "T", label: "L", catno: "C 1")]),
            .notFound, .notFound, .failed(message: "HTTP 500", retryAt: Seed.addedAt.addingTimeInterval(86_400)),
        ]
        for (offset, outcome) in outcomes.enumerated() {
            let record = try await store.add(NewRecord(gtin: Fixtures.gtin(10 + offset), addedAt: Seed.addedAt, addMethod: .wedge))
            let job = try #require(try await store.claimNext(now: Date(), lease: 60))
            #expect(job.recordID == record.id)
            try await store.complete(job, with: outcome)
        }
        let notFound = try await store.needingAPerson()
        try await store.enterByHand(notFound[2], RecordFields(artist: "Local Band", title: "Demo", genre: "Punk", year: 1981))
        _ = try await store.add(NewRecord(
            gtin: nil, addedAt: Seed.addedAt, addMethod: .manual,
            collector: RecordFields(artist: "Nick Drake", title: "Pink Moon", genre: "Folk", year: 1972, label: "Island", catno: "ILPS 9184"),
            handEntered: true))
        _ = try await store.importEntries([try #require(ImportEntry(line: 1, gtin: Fixtures.gtin(20), releaseID: 777, note: "pinned"))])
        let deleted = try await store.add(NewRecord(gtin: Fixtures.gtin(21), addMethod: .typed))
        _ = try await store.delete([deleted.id])
        for arguments in [
            ["edit", "1", "--year", "1975", "--label", "EMI", "--media", "vg+", "--sleeve", "nm", "--rating", "4",
             "--note", "=HYPERLINK(\"http://x\")"],
            ["edit", "4", "--artist", "@SUM(1)", "--catno=-123", "--title", "+cmd"],
            ["move", "1", "2", "--to", "Crate A1"], ["move", "3", "5", "--to", "Crate A2"], ["move", "7", "--to", "Shelf 2"],
            ["move", "8", "--to", "Attic"],
        ] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
    }

    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// An export as crates wrote it before version 3: no counts in the header, no digest
    /// line (the records' `]` closes the object).
    static func asVersion2(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[0] = lines[0].replacingOccurrences(of: #""version":3"#, with: #""version":2"#)
            .replacingOccurrences(of: #","counts":\{[^}]*\}"#, with: "", options: .regularExpression)
        if let digest = lines.lastIndex(where: { $0.hasPrefix(#""digest":"#) }) {
            lines.remove(at: digest)
            lines[digest - 1] = "]}"
        }
        return lines.joined(separator: "\n")
    }

    @Test("export --json, then import into an empty collection: the second export is the first, byte for byte")
    func jsonRestoresExactly() async throws {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "sync-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "sync-token")
        try await Self.seedEverything(sandbox)
        let sync = try await sandbox.crates(["sync"])
        #expect(sync.status == 0, "\(sync)")

        let first = sandbox.directory.appendingPathComponent("first.json").path
        #expect(try await sandbox.crates(["export", "--json", first]).status == 0)
        let text = try Self.read(first)
        #expect(text.contains(#""discogsCopy":["#) && text.contains(#""instanceID":"#), "the sync's links are exported")
        #expect(text.contains(#"{"code":"2900000000063","createdAt":"#), "the empty place Attic (id 6) is exported")
        // A pressing's cover address, which the picker fetches its thumbnail from.
        #expect(text.contains(#""country":null,"coverURL":"https://i.discogs.com/c/R-2.jpeg","formats":["CD"]"#), "a candidate's cover address is exported")

        let restored = sandbox.directory.appendingPathComponent("restored.sqlite").path
        // --dry-run: what it would restore, nothing written.
        let dry = try await sandbox.crates(["import", "--dry-run", "--db", restored, first])
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdoutLines == ["\(first): would restore 9 records and 6 places with their Discogs links, ids and label codes as they were; nothing was written (--dry-run)."], "\(dry)")
        #expect(!FileManager.default.fileExists(atPath: restored), "a dry run creates no database file")
        let restore = try await sandbox.crates(["import", "--db", restored, first])
        #expect(restore.status == 0, "\(restore)")
        #expect(restore.stdoutLines.first == "\(first): restored 9 records and 6 places with their Discogs links, ids and label codes as they were.")
        let second = sandbox.directory.appendingPathComponent("second.json").path
        #expect(try await sandbox.crates(["export", "--db", restored, "--json", second]).status == 0)
        #expect(try Self.read(second) == text)

        // The labels on the shelves name the same places and copies; the list is the same.
        for command in [["location", "list"], ["list"], ["list", "--json"]] {
            let before = try await sandbox.crates(command)
            let after = try await sandbox.crates(command + ["--db", restored])
            #expect(before.stdout == after.stdout && !before.stdout.isEmpty, "\(command)")
        }
        // Ids are never given again: not the removed place's, not the deleted record's.
        let place = try await sandbox.crates(["location", "add", "New", "--db", restored])
        #expect(place.stdoutLines.first?.hasPrefix("8\t2900000000087\t") == true, "\(place)")
        let record = try await sandbox.crates(["add", "--no-lookup", "--db", restored, Fixtures.gtin(30).canonical])
        #expect(record.stdoutLines.first?.hasPrefix("11\t") == true, "\(record)")
        // The restored collection syncs as the original would: nothing to pull or push.
        let again = try await sandbox.crates(["sync", "--db", restored])
        #expect(again.status == 0 && again.stdout.contains("0 pulled, 0 pushed, 0 linked"), "\(again)")
    }

    @Test("catalogueEdition is in list --json and the export, a restore keeps it, and an export written before it still restores")
    func catalogueEditionRoundTrips() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let waiting = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed)).id
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addedAt: Seed.addedAt, addMethod: .typed))
        // The local catalogue of 2026-06-01 did not know the first record: it waits for Discogs.
        let batch = try await store.answerFromCatalogue(CatalogueEdition(dumpDate: "20260601"), now: Date(), limit: 1) { _ in .absent }
        #expect(batch.absent == 1)

        let list = try await sandbox.crates(["list", "--json"])
        #expect(list.status == 0 && list.stdoutLines.count == 2, "\(list)")
        let marked = list.stdoutLines.filter { $0.contains(#""catalogueEdition":"2026-06-01""#) }
        #expect(marked.count == 1 && marked.first?.contains(#""id":\#(waiting),"#) == true, "\(list)")
        #expect(list.stdoutLines.filter { $0.contains(#""catalogueEdition":null"#) }.count == 1, "\(list)")

        let exported = sandbox.directory.appendingPathComponent("export.json").path
        #expect(try await sandbox.crates(["export", "--json", exported]).status == 0)
        let text = try Self.read(exported)
        #expect(text.contains(#""catalogueEdition":"2026-06-01""#), "\(text)")
        let restored = sandbox.directory.appendingPathComponent("restored.sqlite").path
        let restore = try await sandbox.crates(["import", "--db", restored, exported])
        #expect(restore.status == 0, "\(restore)")
        let after = try await sandbox.crates(["list", "--json", "--db", restored])
        #expect(after.stdout == list.stdout, "\(after)")

        // An export of an older crates (version 2: no counts, no digest) has no such member:
        // it restores, with none.
        let older = sandbox.directory.appendingPathComponent("older.json").path
        let stripped = Self.asVersion2(text).replacingOccurrences(of: #""catalogueEdition":"2026-06-01","#, with: "")
            .replacingOccurrences(of: #""catalogueEdition":null,"#, with: "")
        #expect(!stripped.contains("catalogueEdition"))
        try stripped.write(toFile: older, atomically: true, encoding: .utf8)
        let olderDB = sandbox.directory.appendingPathComponent("older.sqlite").path
        let fromOlder = try await sandbox.crates(["import", "--db", olderDB, older])
        #expect(fromOlder.status == 0, "\(fromOlder)")
        let olderList = try await sandbox.crates(["list", "--json", "--db", olderDB])
        #expect(olderList.stdoutLines.count == 2 && olderList.stdoutLines.allSatisfy { $0.contains(#""catalogueEdition":null"#) }, "\(olderList)")
    }

    @Test("an export through a pipe (/dev/stdin, -) restores as the file does")
    func restoreThroughAPipe() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedEverything(sandbox)
        let first = sandbox.directory.appendingPathComponent("first.json").path
        #expect(try await sandbox.crates(["export", "--json", first]).status == 0)
        let text = try Self.read(first)
        for (n, path) in ["/dev/stdin", "-"].enumerated() {
            let restored = sandbox.directory.appendingPathComponent("piped-\(n).sqlite").path
            let restore = try await sandbox.crates(["import", "--db", restored, path], stdin: Data(text.utf8))
            // Named as a list read from standard input is: "stdin".
            let name = path == "-" ? "stdin" : path
            #expect(restore.status == 0 && restore.stdoutLines.first?.hasPrefix("\(name): restored 9 records") == true, "\(path): \(restore)")
            let again = sandbox.directory.appendingPathComponent("again-\(n).json").path
            #expect(try await sandbox.crates(["export", "--db", restored, "--json", again]).status == 0)
            #expect(try Self.read(again) == text, "\(path)")
        }
    }

    @Test("restoring into a collection that holds anything is refused, and changes nothing")
    func restoreNeedsAnEmptyCollection() async throws {
        let sandbox = try CommandSandbox()
        #expect(try await sandbox.crates(["location", "add", "Shelf"]).status == 0)
        let export = sandbox.directory.appendingPathComponent("export.json").path
        #expect(try await sandbox.crates(["export", "--json", export]).status == 0)
        let refused = try await sandbox.crates(["import", export])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("the collection is not empty (1 place): an export is restored into an empty collection only"))
        // A dry run says the same.
        let dry = try await sandbox.crates(["import", "--dry-run", export])
        #expect(dry.status == 1 && dry.stderr.contains("the collection is not empty (1 place)"), "\(dry)")
        #expect(try await sandbox.crates(["location", "list"]).stdoutLines.count == 1)
    }

    @Test("a damaged, cut or filtered export restores nothing, and says where")
    func badExportsRestoreNothing() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedEverything(sandbox)
        let export = sandbox.directory.appendingPathComponent("export.json").path
        #expect(try await sandbox.crates(["export", "--json", export]).status == 0)
        var lines = try Self.read(export).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let damaged = sandbox.directory.appendingPathComponent("damaged.json").path
        let recordLine = try #require(lines.firstIndex(of: #""records":["#)) + 2
        lines[recordLine] = String(lines[recordLine].dropLast(8))
        try lines.joined(separator: "\n").write(toFile: damaged, atomically: true, encoding: .utf8)
        let cut = sandbox.directory.appendingPathComponent("cut.json").path
        try lines.prefix(recordLine).joined(separator: "\n").write(toFile: cut, atomically: true, encoding: .utf8)
        let filtered = sandbox.directory.appendingPathComponent("filtered.json").path
        #expect(try await sandbox.crates(["export", "--json", filtered, "--genre", "Rock"]).status == 0)
        for (file, message) in [
            (damaged, "\(damaged):\(recordLine + 1): not JSON"), (cut, "the export ends early"),
            (filtered, "is an export of part of the collection"),
        ] {
            let database = sandbox.directory.appendingPathComponent(UUID().uuidString + ".sqlite").path
            let result = try await sandbox.crates(["import", "--db", database, file])
            #expect(result.status == 1 && result.stderr.contains(message) && result.stderr.contains("nothing was restored"), "\(result)")
            #expect(try await sandbox.crates(["location", "list", "--db", database]).stdout.isEmpty)
            #expect(try await sandbox.crates(["list", "--db", database]).stdout.isEmpty)
        }
        // JSON that is not crates' export is refused as a whole, not read as barcodes.
        let other = sandbox.directory.appendingPathComponent("other.json").path
        try "[\n{\"url\":\"https://www.discogs.com/release/249504\"}\n]\n".write(toFile: other, atomically: true, encoding: .utf8)
        let result = try await sandbox.crates(["import", "--no-lookup", other])
        #expect(result.status == 1 && result.stderr.contains("line 1 starts JSON"), "\(result)")
    }

    @Test("export --csv, then import: the collector's values, hand entries, genre and formula-like cells come back")
    func csvRoundTrip() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seedEverything(sandbox)
        let first = sandbox.directory.appendingPathComponent("first.csv").path
        #expect(try await sandbox.crates(["export", "--csv", first]).status == 0)
        let text = try Self.read(first)
        // Formulas are inert in a spreadsheet.
        #expect(text.contains(#""'=HYPERLINK(""http://x"")""#) && text.contains("'-123,'@SUM(1),'+cmd,"), "\(text)")
        #expect(!text.contains(",=") && !text.contains(",@") && !text.contains(",+"))

        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        let imported = try await sandbox.crates(["import", "--no-lookup", "--db", copy, first])
        #expect(imported.status == 0, "\(imported)")
        func records(_ database: String?) async throws -> [String: [String: String]] {
            let result = try await sandbox.crates((database.map { ["--db", $0] } ?? []) + ["list", "--json"])
            var byKey: [String: [String: String]] = [:]
            for line in result.stdoutLines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let collector = (object["collector"] as? [String: Any] ?? [:]).compactMapValues { $0 is NSNull ? nil : "\($0)" }
                let key = (object["gtin"] as? String) ?? (collector["title"] ?? "?")
                var values = collector
                values["state"] = object["state"] as? String == "handEntered" ? "handEntered" : "other"
                values["note"] = object["note"] as? String
                values["place"] = (object["location"] as? [String: Any])?["path"] as? String
                values["media"] = object["mediaCondition"] as? String
                values["rating"] = "\(object["rating"] ?? 0)"
                byKey[key] = values
            }
            return byKey
        }
        let before = try await records(nil)
        let after = try await records(copy)
        #expect(after == before)
        #expect(after[Fixtures.gtin(0).canonical]?["year"] == "1975" && after[Fixtures.gtin(0).canonical]?["label"] == "EMI")
        #expect(after["Pink Moon"]?["genre"] == "Folk" && after["Pink Moon"]?["state"] == "handEntered")
        #expect(after[Fixtures.gtin(12).canonical]?["state"] == "handEntered" && after[Fixtures.gtin(12).canonical]?["genre"] == "Punk")
        #expect(after[Fixtures.gtin(0).canonical]?["note"] == "=HYPERLINK(\"http://x\")")
        #expect(after[Fixtures.gtin(10).canonical]?["catno"] == "-123" && after[Fixtures.gtin(10).canonical]?["artist"] == "@SUM(1)")

        // Written again, the file is the same, but for the rows Discogs filled in (their
        // release waits to be looked up again in the copy).
        let second = sandbox.directory.appendingPathComponent("second.csv").path
        #expect(try await sandbox.crates(["export", "--db", copy, "--csv", second]).status == 0)
        let matched = (0..<3).map { Fixtures.gtin($0).canonical }
        let unmatched = { (text: String) in text.split(separator: "\n").filter { row in !matched.contains { row.contains($0) } } }
        let again = try Self.read(second)
        #expect(unmatched(again).sorted() == unmatched(text).sorted(), "\(again)\n---\n\(text)")
    }

    @Test("export --csv carries each place's label code; import keeps a code that is free, and says when one is not")
    func csvKeepsPlaceCodes() async throws {
        let sandbox = try CommandSandbox()
        // Ids with a gap: a collection built afresh would number these places otherwise.
        for arguments in [
            ["location", "add", "Gone"], ["location", "add", "Living Room"], ["location", "add", "CDs", "--in", "Living Room"],
            ["location", "remove", "Gone"],
        ] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(0), addedAt: Seed.addedAt, addMethod: .typed))
        #expect(try await sandbox.crates(["move", "1", "--to", "Living Room/CDs"]).status == 0)
        let places = try await sandbox.crates(["location", "list"]).stdoutLines
        #expect(places == ["2\t2900000000025\t1\tLiving Room", "3\t2900000000032\t1\tLiving Room › CDs"])
        let export = sandbox.directory.appendingPathComponent("places.csv").path
        #expect(try await sandbox.crates(["export", "--csv", export]).status == 0)
        let text = try Self.read(export)
        #expect(text.hasPrefix(DiscogsCollectionCSV.columns.joined(separator: ",")) && text.contains("Location Codes"), "\(text)")
        #expect(text.contains("2900000000025 › 2900000000032"), "\(text)")

        // Into a new collection: both places keep their codes (so their printed labels).
        let fresh = sandbox.directory.appendingPathComponent("fresh.sqlite").path
        let imported = try await sandbox.crates(["import", "--no-lookup", "--db", fresh, export])
        #expect(imported.status == 0, "\(imported)")
        #expect(try await sandbox.crates(["location", "list", "--db", fresh]).stdoutLines == places)

        // Into one whose place 3 is another: that code is not free; the place gets another,
        // and the import says so.
        let other = sandbox.directory.appendingPathComponent("other.sqlite").path
        for name in ["Kitchen", "Hall", "Garage"] {
            #expect(try await sandbox.crates(["location", "add", name, "--db", other]).status == 0)
        }
        let clashed = try await sandbox.crates(["import", "--no-lookup", "--db", other, export])
        #expect(clashed.status == 0, "\(clashed)")
        #expect(clashed.stdout.contains("label code 2900000000032 is Garage's"), "\(clashed)")
        let after = try await sandbox.crates(["location", "list", "--db", other]).stdoutLines
        #expect(after.contains("2\t2900000000025\t1\tLiving Room") == false)  // id 2 is Hall's
        #expect(after.contains { $0.hasSuffix("\tLiving Room › CDs") && !$0.contains("2900000000032") }, "\(after)")
    }
}
