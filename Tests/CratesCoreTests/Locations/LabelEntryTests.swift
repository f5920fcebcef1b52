import CratesCore
import Foundation
import Testing

/// crates' own labels are told apart wherever a code enters, before the rule for records.
@Suite("Label codes where codes enter: parsing, admission, camera, Discogs, import")
struct LabelEntryTests {
    @Test("a place's and a copy's label parse as labels; a wrong check digit says which label was meant")
    func codeEntry() throws {
        #expect(try CodeEntry.parse("2900000000179") == .label(try #require(LabelCode(kind: .location, id: 17))))
        #expect(try CodeEntry.parse("]E02910000000055") == .label(try #require(LabelCode(kind: .copy, id: 5))))
        #expect(try CodeEntry.parse("5099750442227") == .barcode(try GTIN.parse("5099750442227").gtin))
        #expect(try CodeEntry.parse("r249504") == .release(249_504))
        #expect(throws: LabelCodeError.checkDigit(kind: .location, id: 17, expected: 9, found: 3)) {
            try CodeEntry.parse("2900000000173")
        }
        #expect(throws: LabelCodeError.self) { try CodeEntry.parse("5099750442228") }
    }

    @Test("as a GTIN, a label is admitted as a label, never as a record; nothing is searched on Discogs")
    func admission() throws {
        let gtin = try GTIN.parse("2900000000179").gtin
        let code = try #require(LabelCode(gtin))
        #expect(gtin.admission == .label(code))
        #expect(gtin.admission.refusal(force: true) == "crates location label 17: a place's own label, not a record's barcode")
        let query = DiscogsBarcodeQuery(gtin: gtin)
        #expect(query.forms.isEmpty && query.skipReason == code.notARecordReason)
        // Another shop's in-store number stays a price label.
        #expect({ if case .reserved = try? GTIN.parse("2012345678903").gtin.admission { true } else { false } }())
    }

    @Test("the camera: an EAN-13 label and a QR code holding one are taken; other QR text is ignored")
    func camera() {
        let at = Date(timeIntervalSince1970: 0)
        #expect(ScanEvent(symbology: .ean13, data: "2900000000179", at: at).intent == .barcode("2900000000179"))
        #expect(ScanEvent(symbology: .qrCode, data: "2900000000179", at: at).intent == .barcode("2900000000179"))
        #expect(ScanEvent(symbology: .qrCode, data: "2900000000173", at: at).intent == .barcode("2900000000173"),
                "read, so that its wrong check digit is said")
        #expect(ScanEvent(symbology: .qrCode, data: "5099750442227", at: at).intent == .ignored(.qrCode, "5099750442227"))
    }

    @Test("an import refuses a label line with whose label it is, and a mistyped one with what was meant")
    func importLines() throws {
        let file = try ImportFile.parse(Array("5099750442227\n2900000000179\n2910000000055\n2900000000173\n".utf8))
        #expect(file.entries.count == 1)
        #expect(file.refusals.map(\.description) == [
            "2: 2900000000179: crates location label 17: a place's own label, not a record's barcode",
            "3: 2910000000055: crates copy label 5: the sticker of record 5 in the collection, not a record's barcode",
            "4: 2900000000173: looks like crates location label 17, but its check digit should be 9, got 3: a misread or a typo (read as EAN-13)",
        ])
    }

    @Test("the move question: its text, Enter's answer and what each answer sends")
    func moveQuestion() throws {
        let from = Location(id: 3, name: "Crate A1", parentID: 2, ancestors: ["Living Room", "Shelf 1"])
        let to = Location(id: 5, name: "Crate A3", parentID: 4, ancestors: ["Living Room", "Shelf 2"])
        let entry = CodeEntry.barcode(try GTIN.parse("5099750442227").gtin)
        let question = AddQuestion(
            entry: entry, gtin: try GTIN.parse("5099750442227").gtin, method: .wedge,
            kind: .moveHere(MoveHere(recordID: 12, title: "HOLOVR — Holovr", from: from, to: to, copies: 1)), allowing: [])
        #expect(question.text == "HOLOVR — Holovr, in Crate A1: move it here?")
        #expect(question.defaultAnswer == .yes)
        #expect(question.request(for: .yes) == .move([12], to: 5))
        #expect(question.request(for: .anotherCopy) == .add(entry, method: .wedge, allowing: .anotherCopy))
        #expect(question.request(for: .no) == nil)
        let nowhere = MoveHere(recordID: 12, title: "5099750442227", from: nil, to: to, copies: 2)
        #expect(nowhere.text == "5099750442227 (2 copies), in no place: move it here?")
        let copy = AddQuestion(entry: entry, gtin: try GTIN.parse("5099750442227").gtin, method: .wedge,
                               kind: .anotherCopy(copies: 1), allowing: [])
        #expect(copy.defaultAnswer == .no && copy.request(for: .anotherCopy) == nil)
    }
}
