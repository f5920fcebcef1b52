import CratesTestSupport
import CratesCore
import Testing

/// crates' label codes: 290/291 + 9-digit id + GS1 check digit, read back from any form a
/// scanner or a person produces.
@Suite("Label codes", .offThePool)
struct LabelCodeTests {
    @Test("the scheme: 290 + location id, 291 + copy id, 9 digits zero-padded, GS1 check digit")
    func scheme() throws {
        let location = try #require(LabelCode(kind: .location, id: 17))
        #expect(location.digits == "2900000000179")
        #expect(location.gtin.kind == .ean13)
        #expect(location.summary == "crates location label 17")
        #expect(location.description == "2900000000179")

        let copy = try #require(LabelCode(kind: .copy, id: 5))
        #expect(copy.digits == "2910000000055")
        #expect(copy.summary == "crates copy label 5")

        #expect(LabelCode(kind: .location, id: 0)?.digits == withCheckDigit("290000000000"))
        #expect(LabelCode(kind: .copy, id: 999_999_999)?.digits == withCheckDigit("291999999999"))
        #expect(LabelCode(kind: .location, id: 1_000_000_000) == nil)
        #expect(LabelCode(kind: .copy, id: -1) == nil)
    }

    @Test("the codes are in GS1's restricted-distribution range, never a record")
    func restrictedDistribution() throws {
        for kind in LabelCode.Kind.allCases {
            let code = try #require(LabelCode(kind: kind, id: 123_456))
            #expect(code.gtin.classification == .restrictedCirculation)
            #expect(!code.gtin.isMusicReleaseCandidate)
        }
    }

    @Test("seeded round trip: (kind, id) → code → GTIN and text → (kind, id)")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0x1ABE1)
        for _ in 0..<2_000 {
            let kind = LabelCode.Kind.allCases.randomElement(using: &generator) ?? .location
            let id = Int.random(in: LabelCode.idRange, using: &generator)
            let code = try #require(LabelCode(kind: kind, id: id))
            #expect(code.digits.count == 13)
            #expect(CheckDigit.isValid(code.digits))
            #expect(LabelCode(code.gtin) == code)
            #expect(try LabelCode.parse(code.digits) == code)
            let back = try #require(LabelCode(try GTIN(parsing: code.digits)))
            #expect(back.kind == kind)
            #expect(back.id == id)
        }
    }

    @Test("read as the GTIN parser reads: spaces, dashes, a symbology identifier, other scripts, GTIN-14")
    func parsingForms() throws {
        let code = try #require(LabelCode(kind: .location, id: 17))
        for input in [
            "2900000000179", " 2900000000179\r\n", "2 900000 000179", "290-000000017-9", "]E02900000000179",
            "02900000000179", "(01)02900000000179", "٢٩٠٠٠٠٠٠٠٠١٧٩", "２９００００００００１７９",
        ] {
            #expect(try LabelCode.parse(input) == code, "\(input)")
        }
    }

    @Test("other barcodes are not labels: a record, another in-store prefix, a UPC-A")
    func notLabels() throws {
        for input in ["5099750442227", withCheckDigit("292000000017"), withCheckDigit("200000000017"),
                      withCheckDigit("29000000017"), "96385074"] {
            #expect(try LabelCode.parse(input) == nil, "\(input)")
            #expect(LabelCode(try GTIN(parsing: input)) == nil, "\(input)")
        }
    }

    @Test("a label code with a wrong check digit says what it looks like and what the digit should be")
    func wrongCheckDigit() {
        #expect(throws: LabelCodeError.checkDigit(kind: .location, id: 17, expected: 9, found: 3)) {
            try LabelCode.parse("2900000000173")
        }
        #expect(throws: LabelCodeError.checkDigit(kind: .copy, id: 5, expected: 5, found: 0)) {
            try LabelCode.parse("]E0 291 000000005 0")
        }
        #expect(throws: LabelCodeError.checkDigit(kind: .location, id: 17, expected: 9, found: 3)) {
            try LabelCode.parse("02900000000173")
        }
        let error = LabelCodeError.checkDigit(kind: .location, id: 17, expected: 9, found: 3)
        #expect(error.description
            == "looks like crates location label 17, but its check digit should be 9, got 3: a misread or a typo (read as EAN-13)")
        // The parser's own check-digit error, for callers that handle every barcode error alike.
        #expect(error.gtinError == .checkDigit(kind: .ean13, expected: 9, found: 3))
        #expect(error.localizedDescription == error.description)
    }

    @Test("anything else that is not a barcode gets the GTIN parser's reason")
    func notABarcode() {
        #expect(throws: LabelCodeError.barcode(.invalidCharacter("A", position: 4))) { try LabelCode.parse("290A") }
        #expect(throws: LabelCodeError.barcode(.checkDigit(kind: .ean13, expected: 7, found: 4))) {
            try LabelCode.parse("5099750442224")
        }
        #expect(throws: LabelCodeError.barcode(.empty)) { try LabelCode.parse(" ") }
    }
}
