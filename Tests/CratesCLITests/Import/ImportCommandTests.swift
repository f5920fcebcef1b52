import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates import` run as a process, without Discogs (`--no-lookup`, or not signed in): what
/// it reads, what it refuses and how it says so, what it writes, and its exit codes.
@Suite("crates import (process)", .processTimeLimit)
struct ImportCommandTests {
    /// A file as people and scanners make them: a byte order mark, CRLF, comments, blank and
    /// space-only lines, spaced groups, dashes, UPC-E, a GS1 element string, trailing spaces,
    /// a wrong check digit, letters, an ISBN, a 10,000-character line, and a repeat.
    static var messy: Data {
        let lines = [
            "# shelf 3, scanned 2024-05-01",  // 1
            "5099750442227",  // 2
            "",  // 3
            "7 27361 62652 5   ",  // 4: spaced, trailing spaces
            "0-77774-62002-4 # with a comment",  // 5
            "5099750442228",  // 6: check digit
            "5O99750442227",  // 7: a letter O
            "04252614",  // 8: UPC-E
            "9781617292156",  // 9: an ISBN
            String(repeating: "7", count: 10_000),  // 10
            "   ",  // 11
            "(01)05012345678900",  // 12
            "5099750442227",  // 13: a second copy
        ]
        return Data([0xEF, 0xBB, 0xBF]) + Data(lines.joined(separator: "\r\n").utf8) + Data("\r\n".utf8)
    }

    static let messyRefusals = [
        "messy.txt:6: 5099750442228: check digit should be 7, got 8: a misread or a typo (read as EAN-13)",
        "messy.txt:7: 5O99750442227: \"O\" at position 2 is not a digit: a barcode holds only digits, with spaces or dashes between groups",
        "messy.txt:9: 9781617292156: an ISBN: a book, not a record; add it anyway with --force",
        // Over the 4 KB a line may have (issue 12): skipped unread, not parsed as a barcode.
        "messy.txt:10: \(String(repeating: "7", count: 64))…: the line is 10000 bytes long, more than the 4096 a line may have: skipped",
    ]

    static let messyGTINs = ["0042100005264", "0077774620024", "0727361626525", "5012345678900", "5099750442227", "5099750442227"]

    private func write(_ data: Data, _ name: String, in sandbox: CommandSandbox) throws -> String {
        let path = sandbox.directory.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every record's GTIN, sorted (a GTIN twice for two copies).
    static func gtins(_ store: CollectionStore) async throws -> [String] {
        try await store.sections().flatMap(\.rows).map(\.gtin).sorted()
    }

    @Test("a messy file: the valid lines added, each bad one reported as FILE:LINE: TEXT: REASON, exit 2")
    func messyFile() async throws {
        let sandbox = try CommandSandbox()
        let path = try write(Self.messy, "messy.txt", in: sandbox)
        // Run from the sandbox so the file is named as the user typed it.
        let result = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["import", "--no-lookup", "messy.txt"],
            environment: sandbox.environment, directory: sandbox.directory)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderrLines == Self.messyRefusals, "\(result)")
        #expect(result.stdoutLines.first == "messy.txt: 6 added, 0 already in the collection, 4 refused (3 invalid, 1 not a record).")
        #expect(result.stdout.contains("6 lookups wait in the queue"), "\(result)")
        let store = try sandbox.openStore()
        #expect(try await Self.gtins(store) == Self.messyGTINs)
        #expect(try await store.record(1)?.addMethod == .import)
        _ = path
    }

    @Test("the same import twice adds nothing the second time; --copies adds every line again")
    func reimport() async throws {
        let sandbox = try CommandSandbox()
        let path = try write(Self.messy, "messy.txt", in: sandbox)
        #expect(try await sandbox.crates(["import", "--no-lookup", path]).status == 2)
        let again = try await sandbox.crates(["import", "--no-lookup", path])
        #expect(again.status == 2, "\(again)")
        #expect(again.stdoutLines.first?.hasSuffix(": 0 added, 6 already in the collection, 4 refused (3 invalid, 1 not a record).") == true, "\(again)")
        let store = try sandbox.openStore()
        #expect(try await Self.gtins(store) == Self.messyGTINs)

        // One more copy of a record in the file: the file's two copies are there already.
        _ = try await store.add(NewRecord(gtin: try GTIN(parsing: "5099750442227"), addMethod: .typed))
        let oneMore = try await sandbox.crates(["import", "--no-lookup", path])
        #expect(oneMore.status == 2, "the refused lines still refused: \(oneMore)")
        #expect(oneMore.stdout.contains(": 0 added, 6 already"), "\(oneMore)")

        let copies = try await sandbox.crates(["import", "--no-lookup", "--copies", path])
        #expect(copies.status == 2, "\(copies)")
        #expect(copies.stdoutLines.first?.contains(": 6 added, 0 already in the collection") == true, "\(copies)")
        #expect(try await Self.gtins(store).count == 13)
    }

    @Test("--force takes the book line (to be looked up), never the shop's price label")
    func force() async throws {
        let sandbox = try CommandSandbox()
        let path = try write(Data("9781617292156\n2012345678903\n5099750442227\n".utf8), "books.txt", in: sandbox)
        let result = try await sandbox.crates(["import", "--no-lookup", "--force", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdoutLines.first == "\(path): 2 added, 0 already in the collection, 1 refused (0 invalid, 1 not a record).",
            "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("\(path):2: 2012345678903: a restricted-circulation number") == true, "\(result)")
        let store = try sandbox.openStore()
        #expect(try await Self.gtins(store).sorted() == ["5099750442227", "9781617292156"])
    }

    @Test("--dry-run lists each line's fate and writes nothing, not even a new database file")
    func dryRun() async throws {
        let sandbox = try CommandSandbox()
        let path = try write(Self.messy, "messy.txt", in: sandbox)
        let before = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted()
        let result = try await sandbox.crates(["import", "--dry-run", path])
        #expect(result.status == 2, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted() == before)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        let listing = result.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).prefix(3).joined(separator: " ") }
        #expect(listing == [
            "2 new 5099750442227", "4 new 0727361626525", "5 new 0077774620024", "6 invalid 5099750442228",
            "7 invalid 5O99750442227", "8 new 0042100005264", "9 not-a-record 9781617292156",
            "10 invalid \(String(repeating: "7", count: 64))…", "12 new 5012345678900", "13 new 5099750442227",
        ], "\(result)")
        #expect(result.stderr.contains("would add 6 records; 0 already in the collection; 4 lines refused"), "\(result)")

        // Against a collection that has some of them: "present", and still nothing written.
        #expect(try await sandbox.crates(["add", "5099750442227", "5012345678900"]).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))
        let second = try await sandbox.crates(["import", "--dry-run", path])
        #expect(second.status == 2, "lines would be refused: \(second)")
        #expect(second.stdoutLines.filter { $0.contains("\tpresent\t") }.map { $0.split(separator: "\t").first ?? "" } == ["2", "12"], "\(second)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).sorted() == files)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == bytes)
        #expect(try await sandbox.openStore().waitingCount() == 2)
    }

    @Test("--strict: one bad line and nothing is imported (the database is not even created), exit 2")
    func strict() async throws {
        let sandbox = try CommandSandbox()
        let path = try write(Self.messy, "messy.txt", in: sandbox)
        let result = try await sandbox.crates(["import", "--strict", "--no-lookup", path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderrLines.last == "\(path): 4 lines refused: nothing imported (--strict)", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        let clean = try write(Data("5099750442227\n5012345678900\n".utf8), "clean.txt", in: sandbox)
        let ok = try await sandbox.crates(["import", "--strict", "--no-lookup", clean])
        #expect(ok.status == 0, "\(ok)")
        #expect(try await Self.gtins(sandbox.openStore()) == ["5012345678900", "5099750442227"])
    }

    @Test("standard input with -: lines named stdin:LINE")
    func standardInput() async throws {
        let sandbox = try CommandSandbox()
        let result = try await sandbox.crates(["import", "--no-lookup", "-"], stdin: Data("5099750442227\nnot a barcode\n96385074\n".utf8))
        #expect(result.status == 2, "\(result)")
        #expect(result.stderrLines.first?.hasPrefix("stdin:2: not a barcode: \"n\" at position 1") == true, "\(result)")
        #expect(try await Self.gtins(sandbox.openStore()) == ["5099750442227", "96385074"])
    }

    @Test("exit codes", arguments: [
        // (file contents, extra arguments, expected status, text expected on stdout or stderr)
        ("5099750442227\n", [], 0, "1 added"),
        ("5099750442227\nbad\n", [], 2, "1 refused"),
        ("release_id,Collection Notes\n5134861,mine\n", [], 3, "its barcode comes from Discogs: run `crates auth`"),
        ("release_id\n5134861\n", ["--no-lookup"], 3, "import again without --no-lookup"),
        ("Artist,Rating\nPink Floyd,5\n", [], 1, "has no barcode, gtin, upc, ean or release_id column"),
        ("", [], 0, "0 added"),
    ] as [(String, [String], Int32, String)])
    func exitCodes(_ contents: String, _ arguments: [String], _ status: Int32, _ text: String) async throws {
        let sandbox = try CommandSandbox()
        let path = try write(Data(contents.utf8), "in.txt", in: sandbox)
        let result = try await sandbox.crates(["import"] + arguments + [path])
        #expect(result.status == status, "\(result)")
        #expect((result.stdout + result.stderr).contains(text), "\(result)")
    }

    @Test("a file that cannot be read, and a wrong command line")
    func unreadable() async throws {
        let sandbox = try CommandSandbox()
        let missing = try await sandbox.crates(["import", sandbox.directory.appendingPathComponent("nope.txt").path])
        #expect(missing.status == 1 && missing.stderr.contains("nope.txt: no such file"), "\(missing)")
        let directory = try await sandbox.crates(["import", sandbox.directory.path])
        #expect(directory.status == 1 && directory.stderr.contains("is a directory"), "\(directory)")
        let utf16 = try write(Data([0xFF, 0xFE, 0x35, 0x00, 0x0A, 0x00]), "utf16.txt", in: sandbox)
        let wide = try await sandbox.crates(["import", utf16])
        #expect(wide.status == 1 && wide.stderr.contains("UTF-16"), "\(wide)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(try await sandbox.crates(["import"]).status == 64)
        #expect(try await sandbox.crates(["import", "--dry-run", "--report", "r.tsv", "x"]).status == 64)
    }

    @Test("--report writes what needs a person, refused lines included, tab-separated in file order")
    func report() async throws {
        let sandbox = try CommandSandbox()
        let path = try write(
            Data("barcode,release_id,note\n5099750442227,,\nbad,,\n,249504,from Discogs\n".utf8), "in.csv", in: sandbox)
        let reportPath = sandbox.directory.appendingPathComponent("todo.tsv").path
        let result = try await sandbox.crates(["import", "--no-lookup", "--report", reportPath, path])
        #expect(result.status == 2, "\(result)")
        let report = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(report.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).prefix(4).joined(separator: "|") } == [
            "line|kind|barcode|release_id", "3|invalid|bad|", "4|not-added||249504",
        ], "\(report)")
        #expect(result.stdout.contains("Needs a person (1):"), "\(result)")
        #expect(result.stdout.contains("in.csv:4: release 249504: not-added: its barcode comes from Discogs"), "\(result)")
    }

    @Test("a note over the limit `crates edit` applies: that line refused, naming its length; the rest imported")
    func noteOverTheLimit() async throws {
        let sandbox = try CommandSandbox()
        let limit = RecordFieldValue.maximumNoteLength
        let long = String(repeating: "é", count: limit + 1)
        let atLimit = String(repeating: "n", count: limit)
        // A plain CSV and a Discogs collection export (its note column is Collection Notes).
        _ = try write(Data("""
            barcode,note
            5099750442227,short
            0077774620024,\(long)
            0727361626525,\(atLimit)

            """.utf8), "notes.csv", in: sandbox)
        _ = try write(Data("""
            Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes,Barcode
            TPLP 71,Björk,Homogenic,One Little Indian,CD,,1997,,Uncategorized,2024-05-01 10:00:00,,,"\(long)
            second line",5012345678900

            """.utf8), "discogs.csv", in: sandbox)
        let plain = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["import", "--no-lookup", "notes.csv"],
            environment: sandbox.environment, directory: sandbox.directory)
        #expect(plain.status == 2, "\(plain)")
        #expect(plain.stderrLines == ["notes.csv:3: the note is \(limit + 1) characters long; at most \(limit) are taken"], "\(plain)")
        let discogs = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["import", "--no-lookup", "discogs.csv"],
            environment: sandbox.environment, directory: sandbox.directory)
        #expect(discogs.status == 2, "\(discogs)")
        #expect(discogs.stderrLines == ["discogs.csv:2: the note is \(limit + 13) characters long; at most \(limit) are taken"], "\(discogs)")
        let store = try sandbox.openStore()
        #expect(try await Self.gtins(store) == ["0727361626525", "5099750442227"])
        var notes: Set<String> = []
        for row in try await store.sections().flatMap(\.rows) {
            if let note = try await store.record(row.recordID)?.note { notes.insert(note) }
        }
        #expect(notes == ["short", atLimit])
    }

    @Test("a Discogs CSV row for a copy already there fills its empty grades, rating and note, and says what it kept")
    func presentRowFills() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        // Two copies already there: one without grades, rating or note; one graded VG.
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed, release: Seed.release(249_504, artist: "CSN", title: "Déjà Vu", genre: "Rock")))
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(2), addedAt: Seed.addedAt, addMethod: .typed, note: "mine",
            release: Seed.release(13, artist: "Ada", title: "Ambient", genre: "Electronic"), grading: CopyGrading(media: .veryGood)))
        _ = try write(Data("""
            Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes
            SD 7200,CSN,Déjà Vu,Atlantic,LP,4,1970,249504,Uncategorized,2024-05-01 10:00:00,Very Good Plus (VG+),Near Mint (NM or M-),signed
            X 1,Ada,Ambient,Label,CD,3,1997,13,Uncategorized,2024-05-01 10:00:00,Mint (M),,theirs

            """.utf8), "discogs.csv", in: sandbox)
        let result = try await ProcessRunner.run(
            try ProcessRunner.cratesBinary(), arguments: ["import", "--no-lookup", "discogs.csv"],
            environment: sandbox.environment, directory: sandbox.directory)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("0 added, 2 already in the collection"), "\(result)")
        #expect(result.stdout.contains("discogs.csv:2: already there as record 1: filled media VG+, sleeve NM, rating 4, note"), "\(result)")
        #expect(result.stdout.contains("discogs.csv:3: already there as record 2: filled rating 3; kept its media VG (the row says M), its note"), "\(result)")
        let first = try #require(try await store.record(1))
        #expect(first.grading == CopyGrading(media: .veryGoodPlus, sleeve: .nearMint, rating: Rating(clamping: 4)) && first.note == "signed")
        let second = try #require(try await store.record(2))
        #expect(second.grading == CopyGrading(media: .veryGood, rating: Rating(clamping: 3)) && second.note == "mine")
    }

    @Test("--help says what import does, with examples and the exit codes")
    func help() async throws {
        let result = try await ProcessRunner.crates(["import", "--help"])
        #expect(result.status == 0, "\(result)")
        for text in ["Examples:", "crates import gtins.txt", "Exit status:", "130", "--dry-run", "--strict", "--copies", "--report"] {
            #expect(result.stdout.contains(text), "\(text)")
        }
    }
}
