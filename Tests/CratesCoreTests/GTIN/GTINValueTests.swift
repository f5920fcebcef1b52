import CratesCore
import Foundation
import Testing

@Suite("GTIN value: canonical form, coding, check digits")
struct GTINValueTests {
    @Test("canonical forms are accepted", arguments: [
        "5099750442227", "0888462040747", "96385074", "15012345678907", "01234565",
    ])
    func canonicalAccepted(_ text: String) throws {
        let gtin = try #require(GTIN(canonical: text))
        #expect(gtin.canonical == text)
        #expect(gtin.description == text)
    }

    @Test("non-canonical or invalid text is refused", arguments: [
        "888462040747",      // 12 digits: the canonical UPC-A has its leading 0
        "05099750442227",    // indicator 0: the GTIN-13 is canonical
        "0000096385074",     // a padded GTIN-8
        "5099750442224",     // check digit
        "٥٠٩٩٧٥٠٤٤٢٢٢٧",     // not ASCII
        "5 099750 442227",   // not bare digits
        "", "12345678901234",
    ])
    func canonicalRefused(_ text: String) {
        #expect(GTIN(canonical: text) == nil)
    }

    @Test("forms of a GTIN")
    func forms() throws {
        let upcA = try GTIN(parsing: "042100005264")
        #expect(upcA.gtin14 == "00042100005264")
        #expect(upcA.upcA == "042100005264")
        #expect(upcA.upcE == "04252614")
        #expect(upcA.kind == .upcA)
        let ean = try GTIN(parsing: "5099750442227")
        #expect(ean.upcA == nil)
        #expect(ean.upcE == nil)
        #expect(ean.kind == .ean13)
        #expect(try GTIN(parsing: "96385074").gtin14 == "00000096385074")
    }

    @Test("GTINs order by their 14-digit form")
    func ordering() throws {
        let sorted = try ["5099750442227", "96385074", "15012345678907", "888462040747"].map(GTIN.init(parsing:)).sorted()
        #expect(sorted.map(\.canonical) == ["96385074", "0888462040747", "5099750442227", "15012345678907"])
    }

    @Test("encoded as a plain string, validated when decoded")
    func coding() throws {
        let gtin = try GTIN(parsing: "0-77774-62002-4")
        let data = try JSONEncoder().encode([gtin])
        #expect(String(decoding: data, as: UTF8.self) == #"["0077774620024"]"#)
        #expect(try JSONDecoder().decode([GTIN].self, from: data) == [gtin])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([GTIN].self, from: Data(#"["5099750442224"]"#.utf8))
        }
    }

    @Test("check digits of the published vectors", arguments: [
        ("978161729215", 6), ("88846204074", 7), ("9638507", 4), ("04210000526", 4), ("1234567890123", 1),
    ])
    func checkDigit(body: String, digit: Int) {
        #expect(CheckDigit.compute(body: body) == digit)
        #expect(CheckDigit.isValid(body + String(digit)))
    }

    @Test("check digit helpers refuse what is not ASCII digits")
    func checkDigitRefusals() {
        #expect(CheckDigit.compute(body: "") == nil)
        #expect(CheckDigit.compute(body: "12a") == nil)
        #expect(CheckDigit.compute(body: "١٢٣") == nil)
        #expect(!CheckDigit.isValid("7"))
        #expect(!CheckDigit.isValid(""))
    }

    @Test("add-ons are 2 or 5 digits")
    func addOns() {
        #expect(GTINAddOn("12")?.name == "EAN-2")
        #expect(GTINAddOn("12345")?.name == "EAN-5")
        #expect(GTINAddOn("123") == nil)
        #expect(GTINAddOn("1a") == nil)
    }
}
