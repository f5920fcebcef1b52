import CratesCore
import Testing

/// Published vectors and the input forms of issue 2, each with its expected canonical GTIN.
@Suite("GTIN parsing: published vectors and accepted forms")
struct GTINVectorTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let input: String
        let canonical: String
        let kind: GTINKind
        var addOn: String? = nil
        var upcE: String? = nil
        var notes: [ParseNote] = []
        var testDescription: String { "\(escapedForDisplay(input)) → \(canonical)" }
    }

    static let published: [Vector] = [
        Vector(input: "9781617292156", canonical: "9781617292156", kind: .ean13),
        Vector(input: "888462040747", canonical: "0888462040747", kind: .upcA),
        Vector(input: "96385074", canonical: "96385074", kind: .ean8),
        Vector(input: "04252614", canonical: "0042100005264", kind: .upcE, upcE: "04252614"),
        Vector(input: "5099750442227", canonical: "5099750442227", kind: .ean13),
    ]

    @Test("published vectors", arguments: published)
    func publishedVector(_ vector: Vector) throws {
        try check(vector)
    }

    @Test("UPC-E 04252614 expands to the UPC-A 042100005264")
    func upcEExpansion() throws {
        let parsed = try GTIN.parse("04252614")
        #expect(parsed.gtin.upcA == "042100005264")
        #expect(UPCE.expand("04252614") == "042100005264")
        #expect(UPCE.compress("042100005264") == "04252614")
    }

    @Test("the ITF-14 12345678901234 is invalid: its check digit should be 1")
    func itf14Invalid() {
        #expect(parseError("12345678901234") == .checkDigit(kind: .gtin14, expected: 1, found: 4))
        #expect(!CheckDigit.isValid("12345678901234"))
    }

    static let forms: [Vector] = [
        // Groups as printed on sleeves.
        Vector(input: "5 099750 442227", canonical: "5099750442227", kind: .ean13),
        Vector(input: "0-77774-62002-4", canonical: "0077774620024", kind: .upcA),
        Vector(input: "0 77774 62002 4", canonical: "0077774620024", kind: .upcA),
        Vector(input: "0077774620024", canonical: "0077774620024", kind: .upcA),
        Vector(input: "9638 5074", canonical: "96385074", kind: .ean8),
        // Unicode spaces and dashes separate too.
        Vector(input: "5\u{00A0}099750\u{2013}442227", canonical: "5099750442227", kind: .ean13),
        // Whitespace around (a wedge's Enter, a file's line end) is trimmed.
        Vector(input: "  5099750442227\r\n", canonical: "5099750442227", kind: .ean13),
        Vector(input: "\t5099750442227\n", canonical: "5099750442227", kind: .ean13),
        // GTIN-14: indicator 0 reduces; others stay; six leading zeros make a GTIN-8.
        Vector(input: "05099750442227", canonical: "5099750442227", kind: .ean13),
        Vector(input: "00012345678905", canonical: "0012345678905", kind: .upcA),
        Vector(input: "15012345678907", canonical: "15012345678907", kind: .gtin14),
        Vector(input: "00000096385074", canonical: "96385074", kind: .ean8),
        // UPC-E sent short by wedge scanners.
        Vector(input: "425261", canonical: "0042100005264", kind: .upcE, upcE: "04252614",
               notes: [.numberSystemAssumed, .checkDigitComputed(4)]),
        Vector(input: "4252614", canonical: "0042100005264", kind: .upcE, upcE: "04252614",
               notes: [.numberSystemAssumed]),
        Vector(input: "0123456", canonical: "0012345000065", kind: .upcE, upcE: "01234565",
               notes: [.checkDigitComputed(5)]),
        // Add-ons, appended or separated.
        Vector(input: "509975044222712", canonical: "5099750442227", kind: .ean13, addOn: "12"),
        Vector(input: "509975044222712345", canonical: "5099750442227", kind: .ean13, addOn: "12345"),
        Vector(input: "88846204074712345", canonical: "0888462040747", kind: .upcA, addOn: "12345"),
        Vector(input: "5099750442227 12", canonical: "5099750442227", kind: .ean13, addOn: "12"),
        Vector(input: "5 099750 442227 12345", canonical: "5099750442227", kind: .ean13, addOn: "12345"),
        Vector(input: "888462040747 12", canonical: "0888462040747", kind: .upcA, addOn: "12"),
        Vector(input: "04252614 12", canonical: "0042100005264", kind: .upcE, addOn: "12", upcE: "04252614"),
        Vector(input: "96385074 12345", canonical: "96385074", kind: .ean8, addOn: "12345"),
        // GS1 element strings.
        Vector(input: "(01)05099750442227", canonical: "5099750442227", kind: .ean13, notes: [.elementString]),
        Vector(input: "(01) 05099750442227", canonical: "5099750442227", kind: .ean13, notes: [.elementString]),
        Vector(input: "0105099750442227", canonical: "5099750442227", kind: .ean13, notes: [.elementString]),
        Vector(input: "(01)05099750442227(17)250101(10)AB12", canonical: "5099750442227", kind: .ean13,
               notes: [.elementString, .ignoredApplicationIdentifiers(["(17)", "(10)"])]),
        Vector(input: "(17)250101(01)00000096385074", canonical: "96385074", kind: .ean8,
               notes: [.elementString, .ignoredApplicationIdentifiers(["(17)"])]),
        // Symbology identifiers.
        Vector(input: "]E05099750442227", canonical: "5099750442227", kind: .ean13,
               notes: [.symbologyIdentifier("]E0")]),
        Vector(input: "]E0 0888462040747", canonical: "0888462040747", kind: .upcA,
               notes: [.symbologyIdentifier("]E0")]),
        Vector(input: "]E4 96385074", canonical: "96385074", kind: .ean8, notes: [.symbologyIdentifier("]E4")]),
        Vector(input: "]E3509975044222712", canonical: "5099750442227", kind: .ean13, addOn: "12",
               notes: [.symbologyIdentifier("]E3")]),
        Vector(input: "]E388846204074712", canonical: "0888462040747", kind: .upcA, addOn: "12",
               notes: [.symbologyIdentifier("]E3")]),
        Vector(input: "]I115012345678907", canonical: "15012345678907", kind: .gtin14,
               notes: [.symbologyIdentifier("]I1")]),
        Vector(input: "]C10105099750442227\u{1D}10AB12", canonical: "5099750442227", kind: .ean13,
               notes: [.symbologyIdentifier("]C1"), .elementString, .ignoredTrailingData]),
        Vector(input: "]C10105099750442227", canonical: "5099750442227", kind: .ean13,
               notes: [.symbologyIdentifier("]C1"), .elementString]),
        // Digits of other scripts are normalised to ASCII.
        Vector(input: "٥٠٩٩٧٥٠٤٤٢٢٢٧", canonical: "5099750442227", kind: .ean13, notes: [.unicodeDigits]),
        Vector(input: "۵۰۹۹۷۵۰۴۴۲۲۲۷", canonical: "5099750442227", kind: .ean13, notes: [.unicodeDigits]),
        Vector(input: "５０９９７５０４４２２２７", canonical: "5099750442227", kind: .ean13, notes: [.unicodeDigits]),
        Vector(input: "509975044222٧", canonical: "5099750442227", kind: .ean13, notes: [.unicodeDigits]),
    ]

    @Test("accepted input forms", arguments: forms)
    func acceptedForm(_ vector: Vector) throws {
        try check(vector)
    }

    @Test("8 digits valid as both EAN-8 and UPC-E read as EAN-8, as issue 2 orders")
    func eightDigitsPreferEAN8() throws {
        // 01234565 is a valid EAN-8, and also a valid UPC-E (of 012345000065).
        #expect(UPCE.isValid("01234565"))
        let parsed = try GTIN.parse("01234565")
        #expect(parsed.kind == .ean8)
        #expect(parsed.gtin.canonical == "01234565")
    }

    private func check(_ vector: Vector) throws {
        let parsed = try GTIN.parse(vector.input)
        #expect(parsed.gtin.canonical == vector.canonical)
        #expect(parsed.kind == vector.kind)
        #expect(parsed.addOn?.digits == vector.addOn)
        #expect(parsed.upcE == vector.upcE)
        #expect(parsed.notes == vector.notes)
        #expect(parsed.input == vector.input)
        #expect(GTIN(canonical: vector.canonical) == parsed.gtin)
        #expect(try GTIN(parsing: vector.input) == parsed.gtin)
    }
}
