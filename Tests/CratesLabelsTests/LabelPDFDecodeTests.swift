import CratesCore
import CratesLabels
import CratesTestSupport
import Foundation
import Testing

/// Every layout rendered to a real PDF, rasterised by pdftoppm at 300 dpi and decoded by
/// zbarimg: every label on every page decodes to its code, none missing, none extra; pdfinfo
/// reports the layout's page sizes; cropping each sheet position decodes that position's
/// label and nothing else.
@Suite("Label PDFs read back with pdfinfo, pdftoppm and zbarimg")
struct LabelPDFDecodeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let layout: String
        let count: Int
        /// pdfinfo's page size for every page (points), when the layout fixes it.
        let pageSize: (Double, Double)?
        let pages: Int
        var testDescription: String { "\(layout), \(count) labels" }
    }

    static let cases: [Case] = [
        Case(layout: "a4-3x7", count: 45, pageSize: (595.276, 841.89), pages: 3),
        Case(layout: "letter-3x10", count: 35, pageSize: (612, 792), pages: 2),
        Case(layout: "sheet:a4:2x4:label=99.1x67.7:gap=2.5,0", count: 10, pageSize: (595.276, 841.89), pages: 2),
        Case(layout: "roll-62", count: 3, pageSize: nil, pages: 3),
        Case(layout: "roll-29x90", count: 3, pageSize: (255.118, 82.2047), pages: 3),
    ]

    /// Location and copy labels, alternating.
    static func labels(_ count: Int) throws -> [Label] {
        try (1...count).map { $0 % 2 == 0 ? try LabelFixtures.copy($0 * 7) : try LabelFixtures.location($0) }
    }

    /// Decodes every page and checks it holds exactly the plan's labels for that page.
    static func expectEveryPageDecodes(_ pdf: URL, _ plan: LabelDocumentPlan, dpi: Int = 300,
                                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (index, page) in plan.pages.enumerated() {
            let found = try await PDFTools.decode(pdf, page: index + 1, dpi: dpi)
            let expected = page.labels.map { "EAN-13:\($0.code.canonical)" }.sorted()
            #expect(found == expected, "page \(index + 1)", sourceLocation: sourceLocation)
        }
    }

    /// pdfinfo's page sizes against the plan's (pdfinfo rounds to 3 decimals).
    static func expectPageSizes(_ pdf: URL, _ plan: LabelDocumentPlan,
                                sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let sizes = try await PDFTools.pageSizes(pdf)
        #expect(sizes.count == plan.pages.count, sourceLocation: sourceLocation)
        #expect(try await PDFTools.pageCount(pdf) == plan.pages.count, sourceLocation: sourceLocation)
        for (size, page) in zip(sizes, plan.pages) {
            #expect(abs(size.width - page.width) < 0.01 && abs(size.height - page.height) < 0.01,
                    "pdfinfo \(size) against \(page.width) × \(page.height)", sourceLocation: sourceLocation)
        }
    }

    @Test("every layout: every label on every page decodes to its code; page sizes as the layout says",
          arguments: cases)
    func everyLayout(_ testCase: Case) async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let labels = try Self.labels(testCase.count)
        let layout = try LabelSheetLayout.named(testCase.layout)
        let plan = try LabelFixtures.write(labels: labels, layout: layout, to: pdf.path)
        #expect(plan.pages.count == testCase.pages)
        #expect(plan.codes == labels.map(\.code))
        try await Self.expectPageSizes(pdf, plan)
        if let (width, height) = testCase.pageSize {
            for size in try await PDFTools.pageSizes(pdf) {
                #expect(abs(size.width - width) < 0.002 && abs(size.height - height) < 0.002, "\(size)")
            }
        } else {
            // roll-62: 62 mm wide (175.748 pt), each as long as its label.
            for size in try await PDFTools.pageSizes(pdf) {
                #expect(abs(size.width - 175.748) < 0.002 && size.height > Points.millimetres(30), "\(size)")
            }
        }
        try await Self.expectEveryPageDecodes(pdf, plan)
    }

    @Test("each position of a letter-3x10 sheet, cropped on its own, decodes to that position's label")
    func letterCells() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let labels = try Self.labels(30)
        let plan = try LabelFixtures.write(labels: labels, layout: .letter5160, to: pdf.path)
        let sheet = try LabelSheetLayoutTests.sheet(.letter5160)
        let page = try #require(plan.pages.first)
        #expect(page.labels.count == 30)
        for (position, label) in page.labels.enumerated() {
            // The cell from the layout's own numbers, not from the plan.
            let cell = sheet.cell(at: position)
            #expect(label.cell == cell)
            let found = try await PDFTools.decode(pdf, page: 1, crop: (cell.x, cell.y, cell.width, cell.height))
            #expect(found == ["EAN-13:\(labels[position].code.canonical)"], "position \(position)")
        }
    }

    @Test("a custom sheet: each position, cropped from the numbers worked by hand, decodes to its label")
    func customSheetCells() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let layout = try LabelSheetLayout.named("sheet:a4:2x4:label=99.1x67.7:gap=2.5,0")
        let labels = try Self.labels(8)
        let plan = try LabelFixtures.write(labels: labels, layout: layout, to: pdf.path)
        #expect(plan.pages.count == 1)
        for position in 0..<8 {
            // Centred: 2 × 99.1 + 2.5 = 200.7 mm across 210 (left 4.65), 4 × 67.7 = 270.8 mm down 297 (top 13.1).
            let x = Points.millimetres(4.65 + Double(position % 2) * (99.1 + 2.5))
            let y = Points.millimetres(13.1 + Double(position / 2) * 67.7)
            let (width, height) = (Points.millimetres(99.1), Points.millimetres(67.7))
            let cell = try #require(plan.pages.first?.labels[position].cell)
            #expect(abs(cell.x - x) < 1e-6 && abs(cell.y - y) < 1e-6, "position \(position): \(cell)")
            let found = try await PDFTools.decode(pdf, page: 1, crop: (x, y, width, height))
            #expect(found == ["EAN-13:\(labels[position].code.canonical)"], "position \(position)")
        }
    }

    @Test("skip and bleed on a4-3x7: skipped positions stay empty, every other one decodes, thinned bars too")
    func skipAndBleed() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let labels = try Self.labels(25)
        let options = LabelOptions(skip: 4, bleed: 0.08)
        let plan = try LabelFixtures.write(labels: labels, layout: .a4L7160, options: options, to: pdf.path)
        #expect(plan.pages.map(\.labels.count) == [17, 8])
        try await Self.expectPageSizes(pdf, plan)
        try await Self.expectEveryPageDecodes(pdf, plan)
        let sheet = try LabelSheetLayoutTests.sheet(.a4L7160)
        for position in 0..<21 {
            let cell = sheet.cell(at: position)
            let found = try await PDFTools.decode(pdf, page: 1, crop: (cell.x, cell.y, cell.width, cell.height))
            let expected = position < 4 ? [] : ["EAN-13:\(labels[position - 4].code.canonical)"]
            #expect(found == expected, "position \(position)")
        }
    }

    @Test("a 203 dpi thermal printer: 3-dot modules on roll-62 decode when rendered at 203 dpi")
    func thermal() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let options = LabelOptions(bleed: 0.06, dpi: 203)
        let plan = try LabelFixtures.write(labels: Self.labels(2), layout: .roll62, options: options, to: pdf.path)
        #expect(plan.pages.allSatisfy { $0.labels.allSatisfy { $0.symbol.scale == ModuleScale(dots: 3, dpi: 203) } })
        try await Self.expectEveryPageDecodes(pdf, plan, dpi: 203)
    }

    @Test("a QR label holds the same 13 digits")
    func qr() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { directory.remove() }
        let code = try #require(LabelCode(kind: .location, id: 17))
        let label = Label(location: code, name: "Crate A3", path: ["Living Room", "Shelf 2"], symbology: .qr)
        _ = try LabelFixtures.write(labels: [label], layout: .roll29x90, to: pdf.path)
        let found = try await PDFTools.decode(pdf, page: 1)
        #expect(found == ["QR-Code:2900000000179"])
    }
}
