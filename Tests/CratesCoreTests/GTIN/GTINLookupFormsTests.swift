import CratesCore
import CratesTestSupport
import Testing

@Suite("GTIN lookup forms for Discogs", .offThePool)
struct GTINLookupFormsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        let forms: [String]
        var testDescription: String { input }
    }

    static let cases: [Case] = [
        Case(input: "5099750442227", forms: ["5099750442227", "5 099750 442227"]),
        Case(input: "5 099750 442227 12", forms: ["5099750442227", "5 099750 442227"]),
        Case(input: "888462040747", forms: ["0888462040747", "888462040747", "8 88462 04074 7"]),
        Case(input: "0-77774-62002-4", forms: ["0077774620024", "077774620024", "0 77774 62002 4"]),
        Case(input: "04252614", forms: ["0042100005264", "042100005264", "04252614", "0 42100 00526 4", "0 425261 4"]),
        // A scanner that expands UPC-E sends the UPC-A: the sleeve's UPC-E is still tried.
        Case(input: "042100005264", forms: ["0042100005264", "042100005264", "04252614", "0 42100 00526 4", "0 425261 4"]),
        // A UPC-E as scanned that is not the canonical one: both are tried, scanned first.
        Case(input: "01200033", forms: ["0012000000003", "012000000003", "01200033", "01200003",
                                         "0 12000 00000 3", "0 120003 3", "0 120000 3"]),
        Case(input: "96385074", forms: ["96385074", "9638 5074"]),
        Case(input: "15012345678907", forms: ["15012345678907"]),
    ]

    @Test("forms in order", arguments: cases)
    func forms(_ testCase: Case) throws {
        let parsed = try GTIN.parse(testCase.input)
        #expect(parsed.lookupForms == testCase.forms)
    }

    @Test("the 13-digit form comes first, without repeats, for random GTINs")
    func firstAndUnique() throws {
        var random = SeededGenerator(seed: 0xA409_3822)
        for length in [8, 12, 13, 14] {
            for _ in 0..<500 {
                let gtin = try GTIN(parsing: withCheckDigit(random.digits(length - 1)))
                let forms = gtin.lookupForms
                #expect(forms.first == gtin.canonical)
                #expect(Set(forms).count == forms.count)
                // Every form is the same number once the spaces are gone (an 8-digit form of
                // a UPC-A is its UPC-E, which may also read as an EAN-8 on its own).
                for form in forms {
                    let digits = form.filter { $0 != " " }
                    if digits.count == 8, gtin.kind != .ean8 {
                        #expect(UPCE.expand(digits) == gtin.upcA, "\(form) of \(gtin)")
                    } else {
                        #expect(try GTIN(parsing: digits) == gtin, "\(form) of \(gtin)")
                    }
                }
            }
        }
    }
}
