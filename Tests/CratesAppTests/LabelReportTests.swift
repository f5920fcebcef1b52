import CratesApp
import CratesCore
import Foundation
import Testing

/// What `crates scan` and `crates barcode` say of crates' own labels.
@Suite("Labels in crates scan and crates barcode")
struct LabelReportTests {
    static let at = Date(timeIntervalSince1970: 0)

    @Test("crates scan's action column: a place's label sets the place, a copy's selects it, a mistyped one is refused")
    func scanActions() {
        #expect(ScanReport.action(for: ScanEvent(symbology: .ean13, data: "2900000000179", at: Self.at))
            == "sets the current place (crates location label 17)")
        #expect(ScanReport.action(for: ScanEvent(symbology: .qrCode, data: "2910000000055", at: Self.at))
            == "selects the copy (crates copy label 5)")
        #expect(ScanReport.action(for: ScanEvent(symbology: .ean13, data: "2900000000173", at: Self.at))
            == "refused: looks like crates location label 17, but its check digit should be 9, got 3: a misread or a typo (read as EAN-13)")
        #expect(ScanReport.action(for: ScanEvent(symbology: .ean13, data: "2012345678903", at: Self.at)).hasPrefix("refused: a restricted-circulation"))
    }

    @Test("crates barcode: a label's class says whose it is and it has no lookup forms; a mistyped one's error says what was meant")
    func explanations() throws {
        #expect(BarcodeExplanation("2900000000179").line == "2900000000179\t2900000000179\tEAN-13\t-\t"
            + "crates location label 17: a place's own label, not a record's barcode (never looked up)\t-\t-")
        let mistyped = BarcodeExplanation("2900000000173")
        #expect(mistyped.isInvalid)
        #expect(mistyped.line == "2900000000173\terror\tlooks like crates location label 17, but its check digit should be 9, got 3: "
            + "a misread or a typo (read as EAN-13)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(BarcodeExplanation("2910000000055").jsonLine().utf8)) as? [String: Any])
        #expect((json["label"] as? [String: Any])?["id"] as? Int == 5)
        #expect(json["isMusicReleaseCandidate"] as? Bool == false)
    }
}
