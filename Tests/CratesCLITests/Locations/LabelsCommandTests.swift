import CratesCore
import CratesLabels
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates labels` as a process: every layout rendered by the command, rasterised by
/// pdftoppm and decoded by zbarimg (every label on every page decodes to its code), page
/// sizes read by pdfinfo, each sheet position cropped from the layout's own numbers; and
/// every bad input refused with its message, the file left as it was.
@Suite("crates labels (process)", .serialized, .processTimeLimit)
struct LabelsCommandTests {
    /// `count` places at the top, "Crate 1"…, and their codes in the tree's order (by name).
    static func places(_ sandbox: CommandSandbox, _ count: Int) async throws -> [String] {
        let store = try sandbox.openStore()
        var codes: [(String, String)] = []
        for n in 1...count {
            let place = try await store.addLocation(name: "Crate \(n)", in: nil)
            codes.append((LocationName.key(place.name), try #require(place.code).digits))
        }
        return codes.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static func run(_ sandbox: CommandSandbox, _ arguments: [String]) async throws -> ProcessResult {
        try await sandbox.crates(["labels"] + arguments, deadline: .seconds(120))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let layout: String
        let count: Int
        /// pdfinfo's page size (points) for every page, when the layout fixes it.
        let pageSize: (Double, Double)?
        let pages: Int
        var testDescription: String { "\(layout), \(count) places" }
    }

    static let cases: [Case] = [
        Case(layout: "a4-3x7", count: 23, pageSize: (595.276, 841.89), pages: 2),
        Case(layout: "letter-3x10", count: 31, pageSize: (612, 792), pages: 2),
        Case(layout: "sheet:a4:2x4:label=99.1x67.7:gap=2.5,0", count: 9, pageSize: (595.276, 841.89), pages: 2),
        Case(layout: "roll-62", count: 2, pageSize: nil, pages: 2),
        Case(layout: "roll-29x90", count: 2, pageSize: (255.118, 82.2047), pages: 2),
    ]

    @Test("every layout through the command: every label on every page decodes to its place's code; pdfinfo's sizes",
          arguments: cases)
    func everyLayout(_ testCase: Case) async throws {
        let sandbox = try CommandSandbox()
        let codes = try await Self.places(sandbox, testCase.count)
        let pdf = sandbox.directory.appendingPathComponent("labels.pdf")
        let result = try await Self.run(sandbox, ["--all", "--layout", testCase.layout, "-o", pdf.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "Wrote \(testCase.count) labels on \(testCase.pages) pages (\(testCase.layout)) to \(pdf.path); "
            + "print it with `lp \(pdf.path)`\n")
        let sizes = try await PDFTools.pageSizes(pdf)
        #expect(sizes.count == testCase.pages)
        #expect(try await PDFTools.pageCount(pdf) == testCase.pages)
        for size in sizes {
            if let (width, height) = testCase.pageSize {
                #expect(abs(size.width - width) < 0.002 && abs(size.height - height) < 0.002, "\(size)")
            } else {
                #expect(abs(size.width - 175.748) < 0.002 && size.height > Points.millimetres(30), "roll-62: \(size)")
            }
        }
        var found: [String] = []
        for page in 1...testCase.pages { found += try await PDFTools.decode(pdf, page: page) }
        #expect(found.sorted() == codes.map { "EAN-13:\($0)" }.sorted())
    }

    @Test("a4-3x7 with --skip 2: the skipped positions stay empty, each other position decodes to its label, in order")
    func positions() async throws {
        let sandbox = try CommandSandbox()
        let codes = try await Self.places(sandbox, 19)
        let pdf = sandbox.directory.appendingPathComponent("labels.pdf")
        let result = try await Self.run(sandbox, ["--all", "--layout", "a4-3x7", "-o", pdf.path, "--skip", "2", "--bleed", "0.05"])
        #expect(result.status == 0, "\(result)")
        #expect(try await PDFTools.pageCount(pdf) == 1)
        guard case let .sheet(sheet) = LabelSheetLayout.a4L7160.form else {
            Issue.record("a4-3x7 is a sheet")
            return
        }
        for position in 0..<21 {
            // The cell from the layout's numbers (L7160: 7.25 mm, 15.15 mm, 66.04 × 38.1 mm pitch).
            let cell = sheet.cell(at: position)
            #expect(abs(Points.toMillimetres(cell.x) - (7.25 + Double(position % 3) * 66.04)) < 0.001)
            #expect(abs(Points.toMillimetres(cell.y) - (15.15 + Double(position / 3) * 38.1)) < 0.001)
            let found = try await PDFTools.decode(pdf, page: 1, crop: (cell.x, cell.y, cell.width, cell.height))
            #expect(found == (position < 2 ? [] : ["EAN-13:\(codes[position - 2])"]), "position \(position)")
        }
    }

    @Test("copy labels (--records) carry each copy's code; --contents adds the place's list, whose label decodes to the place; a record without a barcode shows its own values")
    func copiesAndContents() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let crate = try await store.addLocation(name: "Crate A3", in: nil)
        let a = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, locationID: crate.id))
        let b = try await store.add(NewRecord(
            gtin: Fixtures.gtin(2), addMethod: .typed, locationID: crate.id,
            release: Seed.release(7, artist: "Björk", title: "Homogenic", genre: "Electronic")))
        // Entered by hand (issue 14): no barcode, the collector's values are what it is.
        let c = try await store.add(NewRecord(
            gtin: nil, addMethod: .manual, locationID: crate.id,
            collector: RecordFields(artist: "The Nice", title: "Elegy", year: 1971), handEntered: true))
        let pdf = sandbox.directory.appendingPathComponent("copies.pdf")
        let copies = try await Self.run(
            sandbox, ["--records", "\(a.id)", "2910000000024", "\(c.id)", "--layout", "roll-29x90", "-o", pdf.path])
        #expect(copies.status == 0, "\(copies)")
        #expect(try await PDFTools.decode(pdf, page: 1) == ["EAN-13:2910000000017"])
        #expect(try await PDFTools.decode(pdf, page: 2) == ["EAN-13:2910000000024"])
        #expect(try await PDFTools.decode(pdf, page: 3) == ["EAN-13:2910000000031"])
        let copyText = try await PDFTools.text(pdf)
        #expect(copyText.contains("Björk — Homogenic") && copyText.contains("The Nice — Elegy"), "\(copyText)")

        let manifest = sandbox.directory.appendingPathComponent("crate.pdf")
        let contents = try await Self.run(sandbox, ["Crate A3", "--contents", "--layout", "a4-3x7", "-o", manifest.path])
        #expect(contents.status == 0, "\(contents)")
        #expect(contents.stderr.hasPrefix("Wrote 1 label and 1 contents list on 2 pages (a4-3x7)"), "\(contents)")
        #expect(try await PDFTools.decode(manifest, page: 1) == ["EAN-13:\(try #require(crate.code).digits)"])
        #expect(try await PDFTools.decode(manifest, page: 2) == ["EAN-13:\(try #require(crate.code).digits)"])
        let text = try await PDFTools.text(manifest)
        #expect(text.contains("3 records") && text.contains("Björk — Homogenic") && text.contains(Fixtures.gtin(1).canonical))
        #expect(text.contains("The Nice — Elegy"), "\(text)")
        _ = b
    }

    @Test("a contents list names its own records and, one line each, the places inside it; theirs are on their own lists")
    func contentsOfNestedPlaces() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let room = try await store.addLocation(name: "Room", in: nil)
        let shelf = try await store.addLocation(name: "Shelf 2", in: room.id)
        let crate = try await store.addLocation(name: "Crate A3", in: shelf.id)
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(1), addMethod: .typed, locationID: room.id,
            release: Seed.release(7, artist: "Björk", title: "Homogenic", genre: "Electronic")))
        for n in 2...4 {
            _ = try await store.add(NewRecord(
                gtin: Fixtures.gtin(n), addMethod: .typed, locationID: crate.id,
                release: Seed.release(n, artist: "Artist \(n)", title: "Title \(n)", genre: "Rock")))
        }
        let pdf = sandbox.directory.appendingPathComponent("rooms.pdf")
        let result = try await Self.run(sandbox, ["Room", "Crate A3", "--contents", "--layout", "a4-3x7", "-o", pdf.path])
        #expect(result.status == 0, "\(result)")
        // Page 1 the labels, then one list per place.
        let roomList = try await PDFTools.text(pdf, page: 2)
        #expect(roomList.contains("1 record, 1 place inside") && roomList.contains("Björk — Homogenic"), "\(roomList)")
        #expect(roomList.contains("▸ Shelf 2") && roomList.contains("3 records"), "\(roomList)")
        #expect(!roomList.contains("Title 2"), "a nested record is on its own place's list: \(roomList)")
        let crateList = try await PDFTools.text(pdf, page: 3)
        #expect(crateList.contains("3 records") && crateList.contains("Artist 2 — Title 2"), "\(crateList)")
    }

    @Test("a place or copy whose id is past what a label code holds: named and refused, or left out of --all and said")
    func idsPastTheLabelCodes() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        _ = try await store.addLocation(name: "Crate A1", in: nil)
        let attic = try await store.addLocation(name: "Attic", in: nil)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        let shell = try #require(SQLiteLock.shell.map(URL.init(fileURLWithPath:)))
        let moved = try await ProcessRunner.run(shell, arguments: [
            sandbox.database, "UPDATE location SET id = 1000000000 WHERE id = \(attic.id); UPDATE record SET id = 1000000001",
        ])
        #expect(moved.status == 0, "\(moved)")
        let pdf = sandbox.directory.appendingPathComponent("big.pdf")
        let all = try await Self.run(sandbox, ["--all", "--layout", "a4-3x7", "-o", pdf.path])
        #expect(all.status == 0, "\(all)")
        #expect(all.stderr.contains("Wrote 1 label") && all.stderr.contains("; 1 place left out: Attic (#1000000000): a label code holds ids up to 999,999,999"), "\(all)")
        let named = try await Self.run(sandbox, ["Attic", "--layout", "a4-3x7", "-o", pdf.path])
        #expect(named.status != 0 && named.stderr.contains("Attic (#1000000000) cannot have a label: a label code holds ids up to 999,999,999"), "\(named)")
        let copy = try await Self.run(sandbox, ["--records", "1000000001", "--layout", "a4-3x7", "-o", pdf.path])
        #expect(copy.status != 0 && copy.stderr.contains("copy 1000000001 cannot have a label"), "\(copy)")
    }

    @Test("a place's list printed without the places inside it names their records, each with its place inside the listed one")
    func contentsPlaceColumn() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let room = try await store.addLocation(name: "Room", in: nil)
        let shelf = try await store.addLocation(name: "Shelf 2", in: room.id)
        let crate = try await store.addLocation(name: "Crate A3", in: shelf.id)
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(1), addMethod: .typed, locationID: room.id,
            release: Seed.release(7, artist: "Björk", title: "Homogenic", genre: "Electronic")))
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(2), addMethod: .typed, locationID: shelf.id,
            release: Seed.release(2, artist: "Artist 2", title: "Title 2", genre: "Rock")))
        _ = try await store.add(NewRecord(
            gtin: Fixtures.gtin(3), addMethod: .typed, locationID: crate.id,
            release: Seed.release(3, artist: "Artist 3", title: "Title 3", genre: "Rock")))
        let pdf = sandbox.directory.appendingPathComponent("room.pdf")
        let result = try await Self.run(sandbox, ["Room", "--contents", "--layout", "a4-3x7", "-o", pdf.path])
        #expect(result.status == 0, "\(result)")
        let lines = try await PDFTools.text(pdf, page: 2, layout: true).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("3 records, 1 place inside") }, "\(lines)")
        #expect(lines.contains { $0.contains("Artist — Title") && $0.contains("Place") }, "a place column: \(lines)")
        let björk = try #require(lines.first { $0.contains("Björk — Homogenic") }, "\(lines)")
        #expect(!björk.contains("Shelf") && !björk.contains("Crate"), "directly in the room: no place: \(björk)")
        let second = try #require(lines.first { $0.contains("Artist 2 — Title 2") }, "\(lines)")
        #expect(second.hasSuffix("Shelf 2"), "\(second)")
        let third = try #require(lines.first { $0.contains("Artist 3 — Title 3") }, "\(lines)")
        #expect(third.hasSuffix("Shelf 2 › Crate A3"), "\(third)")
    }

    @Test("one rule: a place's long name is cut with … as a copy's long title is, standard error names both, both decode")
    func longTitlesCut() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let long = "The crate of the long winter evenings by the fire, top shelf"
        let place = try await store.addLocation(name: long, in: nil)
        let short = try await store.addLocation(name: "Crate A3", in: nil)
        let copy = try await store.add(NewRecord(
            gtin: Fixtures.gtin(1), addMethod: .typed, locationID: short.id,
            release: Seed.release(7, artist: "Godspeed You! Black Emperor",
                                  title: "Lift Your Skinny Fists Like Antennas to Heaven", genre: "Rock")))
        let pdf = sandbox.directory.appendingPathComponent("labels.pdf")
        let places = try await Self.run(sandbox, ["--all", "--layout", "a4-3x7", "-o", pdf.path])
        #expect(places.status == 0, "\(places)")
        let placeCode = try #require(place.code).digits
        let lines = places.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(places)")
        #expect(lines.first?.hasPrefix("label \(placeCode) cut to fit: \"The crate of") == true, "\(places)")
        #expect(lines.first?.hasSuffix("…\" of \"\(long)\"") == true, "\(places)")
        #expect(lines.last?.hasPrefix("Wrote 2 labels on 1 page (a4-3x7)") == true, "\(places)")
        #expect(try await PDFTools.decode(pdf, page: 1).sorted()
            == ["EAN-13:\(placeCode)", "EAN-13:\(try #require(short.code).digits)"].sorted())
        #expect(try await PDFTools.text(pdf).contains("…"))

        let copies = try await Self.run(sandbox, ["--records", "\(copy.id)", "--layout", "roll-29x90", "-o", pdf.path])
        #expect(copies.status == 0, "\(copies)")
        #expect(copies.stderr.hasPrefix("label 2910000000017 cut to fit: \"Godspeed You! Black Emperor"), "\(copies)")
        #expect(copies.stderr.contains("Lift Your Skinny Fists Like Antennas to Heaven\"\n"), "\(copies)")
        #expect(try await PDFTools.decode(pdf, page: 1) == ["EAN-13:2910000000017"])
    }

    @Test("bad input is refused with its message and nothing is written: an unknown layout, a skip too far, …")
    func badInput() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        _ = try await store.addLocation(name: "Crate A3", in: nil)
        let pdf = sandbox.directory.appendingPathComponent("labels.pdf")
        try Data("old".utf8).write(to: pdf)
        let cases: [([String], String)] = [
            (["Crate A3", "--layout", "a4-3x8"], "unknown layout \"a4-3x8\": use one of a4-3x7, letter-3x10, roll-62, roll-29x90"),
            (["Crate A3", "--layout", "a4-3x7", "--skip", "21"], "skip 21: a sheet of a4-3x7 has 21 positions, so at most 20 can be skipped"),
            (["Crate A3", "--layout", "sheet:a4:9x9:label=99x99"], "custom sheet \"sheet:a4:9x9:label=99x99\""),
            (["Crate A3", "--contents", "--layout", "roll-29x90"], "contents lists need a sheet layout"),
            (["Attic", "--layout", "a4-3x7"], "no place is called “Attic”"),
            (["2900000000013", "--layout", "a4-3x7"], "looks like crates location label 1, but its check digit should be 8, got 3"),
            (["--records", "99", "--layout", "a4-3x7"], "record 99 is not in the collection"),
            (["--layout", "a4-3x7"], "nothing to print: name the places, or give --all, or --records ID..."),
        ]
        for (arguments, message) in cases {
            let result = try await Self.run(sandbox, arguments + ["-o", pdf.path])
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result)")
            #expect(try Data(contentsOf: pdf) == Data("old".utf8), "\(arguments): the file is left as it was")
        }
        let missing = sandbox.directory.appendingPathComponent("no/such/dir/labels.pdf").path
        let noDirectory = try await Self.run(sandbox, ["Crate A3", "--layout", "roll-62", "-o", missing])
        #expect(noDirectory.status == 1 && noDirectory.stderr.contains("cannot write \(missing): there is no directory"), "\(noDirectory)")
        let overDirectory = try await Self.run(sandbox, ["Crate A3", "--layout", "roll-62", "-o", sandbox.directory.path])
        #expect(overDirectory.status == 1 && overDirectory.stderr.contains("it is a directory"), "\(overDirectory)")
        // An empty path names no file: never "cannot write : permission denied".
        let empty = try await Self.run(sandbox, ["Crate A3", "--layout", "roll-62", "-o", ""])
        #expect(empty.status == 1 && empty.stderr.contains("an output path is needed: the one given is empty"), "\(empty)")
        #expect(!empty.stderr.contains("cannot write :"), "\(empty)")
        let emptyExport = try await sandbox.crates(["export", "--csv", ""])
        #expect(emptyExport.status == 1 && emptyExport.stderr.contains("an output path is needed"), "\(emptyExport)")
        // A good run replaces the file whole, and leaves nothing beside it.
        let good = try await Self.run(sandbox, ["Crate A3", "--layout", "roll-62", "-o", pdf.path])
        #expect(good.status == 0, "\(good)")
        let bytes = try Data(contentsOf: pdf)
        #expect(bytes.starts(with: Data("%PDF-".utf8)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { $0.contains("partial") } == [])
    }
}
