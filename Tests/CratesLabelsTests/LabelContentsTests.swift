import CratesCore
import CratesLabels
import CratesTestSupport
import Foundation
import Testing

/// Contents lists (the moving-box manifest): a page of their own headed by the crate's
/// label, every record listed, flowing onto more pages; read back with zbarimg and pdftotext.
@Suite("Contents lists")
struct LabelContentsTests {
    static func crate() throws -> Label {
        let code = try #require(LabelCode(kind: .location, id: 17))
        return Label(location: code, name: "Crate A3", path: ["Living Room", "Shelf 2"])
    }

    static func entries(_ count: Int) -> [LabelContents.Entry] {
        (1...max(1, count)).prefix(count).map {
            LabelContents.Entry(artist: "Artist \($0)", title: "Title \($0)", format: $0 % 3 == 0 ? "LP, Album" : "CD",
                                year: 1960 + $0 % 60, catalogueNumber: "CAT-\($0)")
        }
    }

    static func planner(_ layout: LabelSheetLayout) -> LabelPlanner {
        LabelPlanner(layout: layout, measurer: FixedAdvanceMeasurer())
    }

    @Test("a long list flows onto more pages, every record once and in order, inside the margins")
    func flow() throws {
        let list = LabelContents(label: try Self.crate(), entries: Self.entries(130))
        let plan = try Self.planner(.a4L7160).plan(labels: [], contents: [list])
        #expect(plan.pages.count == 3)
        // The crate's label heads the first page only.
        #expect(plan.pages.map(\.labels.count) == [1, 0, 0])
        #expect(plan.pages[0].labels[0].code == list.label.code)
        let listed = plan.pages.flatMap(\.texts).map(\.text)
            .filter { $0.hasPrefix("Artist ") && $0.contains(" — ") && $0 != "Artist — Title" }
        #expect(listed == (1...130).map { "Artist \($0) — Title \($0)" })
        for (index, page) in plan.pages.enumerated() {
            #expect(page.texts.contains { $0.text == "Crate A3 · page \(index + 1) of 3" })
            let margin = Points.millimetres(15)
            let area = LabelRect(x: 0, y: 0, width: page.width, height: page.height).insetBy(dx: margin, dy: margin / 4)
            for text in page.texts {
                #expect(area.contains(text.frame), "\(text.text) at \(text.frame)")
            }
            // Rows never reach the footer.
            let footer = try #require(page.texts.last)
            let rows = page.texts.dropLast()
            #expect(rows.allSatisfy { $0.frame.maxY < footer.frame.minY })
        }
        #expect(plan.pages[0].texts.contains { $0.text == "130 records" })
        #expect(plan.pages[1].texts.contains { $0.text == "Crate A3 (continued)" })
    }

    @Test("an empty crate says so; one record is 1 record; missing fields are left out")
    func shortLists() throws {
        let empty = try Self.planner(.a4L7160).plan(labels: [], contents: [LabelContents(label: Self.crate(), entries: [])])
        #expect(empty.pages.count == 1)
        #expect(empty.pages[0].texts.map(\.text).contains("(no records)"))
        #expect(empty.pages[0].texts.map(\.text).contains("0 records"))
        let sparse = LabelContents(label: try Self.crate(), entries: [LabelContents.Entry(title: "5099750442227")])
        let texts = try Self.planner(.a4L7160).plan(labels: [], contents: [sparse]).pages[0].texts.map(\.text)
        #expect(texts.contains("1 record") && texts.contains("5099750442227"))
    }

    @Test("an entry from a Discogs release: formats and catalogue numbers as the list shows them")
    func fromRelease() {
        let release = Release(id: 249504, artist: "Rick Astley", title: "Never Gonna Give You Up",
                              formats: ["Vinyl, 7\", 45 RPM, Single"], year: 1987,
                              labels: [Release.LabelCredit(name: "RCA", catno: "PB 41447")])
        #expect(LabelContents.Entry(release: release) == LabelContents.Entry(
            artist: "Rick Astley", title: "Never Gonna Give You Up", format: "Vinyl, 7\", 45 RPM, Single", year: 1987,
            catalogueNumber: "PB 41447"))
        let bare = LabelContents.Entry(release: Release(id: 1, artist: "A", title: "T"))
        #expect(bare.format == nil && bare.catalogueNumber == nil && bare.year == nil)
    }

    @Test("a die-cut roll cannot hold a contents list")
    func dieCut() throws {
        let list = LabelContents(label: try Self.crate(), entries: Self.entries(3))
        #expect(throws: LabelError.contentsNeedPage(layout: "roll-29x90")) {
            try Self.planner(.roll29x90).plan(labels: [], contents: [list])
        }
    }

    @Test("on a4-3x7: labels first, then the list's pages; the list's barcode decodes to the crate; pdftotext finds every record")
    func decodedSheet() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let labels = try LabelFixtures.locations(2, from: 40)
        let list = LabelContents(label: try Self.crate(), entries: Self.entries(70))
        let plan = try LabelFixtures.write(labels: labels, contents: [list], layout: .a4L7160, to: pdf.path)
        #expect(plan.pages.count == 3)
        try await LabelPDFDecodeTests.expectPageSizes(pdf, plan)
        #expect(try await PDFTools.decode(pdf, page: 1) == labels.map(LabelFixtures.decoded).sorted())
        #expect(try await PDFTools.decode(pdf, page: 2) == ["EAN-13:2900000000179"])
        #expect(try await PDFTools.decode(pdf, page: 3) == [])

        let text = try await PDFTools.text(pdf, layout: true)
        var searchFrom = text.startIndex
        for entry in 1...70 {
            // In order: each after the one before.
            let range = try #require(text.range(of: "Artist \(entry) — Title \(entry) ", range: searchFrom..<text.endIndex),
                                     "record \(entry)")
            searchFrom = range.upperBound
        }
        for expected in ["Crate A3", "Living Room › Shelf 2", "70 records", "Cat. no.", "CAT-69", "LP, Album",
                         "Crate A3 · page 1 of 2", "Crate A3 · page 2 of 2", "Crate A3 (continued)"] {
            #expect(text.contains(expected), "\(expected)")
        }
    }

    @Test("on roll-62: one long page, entries on two lines, the crate's barcode decodes")
    func decodedRoll() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let list = LabelContents(label: try Self.crate(), entries: Self.entries(12))
        let plan = try LabelFixtures.write(labels: [], contents: [list], layout: .roll62, to: pdf.path)
        #expect(plan.pages.count == 1)
        let sizes = try await PDFTools.pageSizes(pdf)
        #expect(sizes.count == 1)
        #expect(abs((sizes.first?.width ?? 0) - 175.748) < 0.002)
        #expect(abs((sizes.first?.height ?? 0) - plan.pages[0].height) < 0.01)
        #expect(try await PDFTools.decode(pdf, page: 1) == ["EAN-13:2900000000179"])
        let text = try await PDFTools.text(pdf)
        #expect(text.contains("Artist 12 — Title 12") && text.contains("LP, Album · 1972 · CAT-12"))
    }
}

/// Adds up the characters it measures: how much text a layout reads, whatever the machine.
final class CountingMeasurer: TextMeasuring {
    private let counted = LockBox(0)

    var characters: Int { counted.value }

    func width(of text: String, font: LabelFont, size: Double) -> Double {
        counted.withLock { $0 += text.count }
        return FixedAdvanceMeasurer().width(of: text, font: font, size: size)
    }
}

@Suite("Contents lists and paths: the places inside, and deep places")
struct LabelPlacesInsideTests {
    @Test("a place inside the listed one is one line with its record count and label code; the heading counts both")
    func placesInside() throws {
        let shelf = try #require(LabelCode(kind: .location, id: 21))
        let list = LabelContents(label: try LabelContentsTests.crate(), entries: [
            LabelContents.Entry(artist: "Björk", title: "Homogenic"),
            .place(name: "Crate B1", records: 12, code: shelf.digits),
        ])
        let plan = try LabelContentsTests.planner(.a4L7160).plan(labels: [], contents: [list])
        let texts = plan.pages.flatMap(\.texts).map(\.text)
        #expect(texts.contains("1 record, 1 place inside"), "\(texts)")
        #expect(texts.contains("▸ Crate B1") && texts.contains("12 records") && texts.contains(shelf.digits), "\(texts)")
        #expect(!texts.contains("(no records)"))
    }

    @Test("a place 1,000 deep: its label measures a few short paths, not the whole path again for each place dropped")
    func deepPath() throws {
        let path = (1...1_000).map { "Place \($0)" }
        let code = try #require(LabelCode(kind: .location, id: 1_001))
        let measurer = CountingMeasurer()
        let plan = try LabelPlanner(layout: .a4L7160, measurer: measurer)
            .plan(labels: [Label(location: code, name: "Place 1001", path: path)])
        let shown = plan.pages.flatMap(\.labels).flatMap(\.texts).map(\.text)
        #expect(shown.contains { $0.hasPrefix("… › ") && $0.hasSuffix(" › Place 1000") }, "\(shown)")
        // Each label measures its name and a handful of paths of a label's width; the whole
        // path is 12,000 characters, and dropping one place at a time measured millions.
        #expect(measurer.characters < 2_000, "\(measurer.characters) characters measured")
    }
}
