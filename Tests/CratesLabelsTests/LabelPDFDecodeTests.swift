import CratesCore
import CratesLabels
import Foundation
import Testing

/// Every layout rendered to a real PDF, rasterised by pdftoppm at 300 dpi and decoded by
/// zbarimg: every label on every page decodes to its code, none missing, none extra.
@Suite("Label PDFs decoded by zbarimg")
struct LabelPDFDecodeTests {
    @Test("smoke")
    func smoke() async throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        let labels = try LabelFixtures.locations(4)
        let plan = try LabelDocument.write(labels: labels, layout: .a4L7160, to: pdf.path)
        print(directory.path, plan.pages.count)
        let found = try await LabelTools.decode(pdf, page: 1)
        #expect(found == labels.map(LabelFixtures.decoded).sorted())
    }
}
