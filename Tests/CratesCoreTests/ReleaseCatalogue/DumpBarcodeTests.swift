import CratesTestSupport
import Testing

@testable import CratesCore

/// Barcodes as Discogs' dump writes them: every value that is a barcode gives its GTIN-14
/// key, whatever the typing; a value that is not one gives none.
@Suite struct DumpBarcodeTests {
    /// 0602498674123 as a UPC-A, 7961220922684 as an EAN-13 (releases 4497865 and 21).
    static let upc = GTIN(canonical: "0602498674123")!
    static let ean = GTIN(canonical: "7961220922684")!

    @Test("bare digits, as scanned", arguments: ["7961220922684", " 7961220922684 "])
    func bare(_ value: String) {
        #expect(DumpBarcode.gtin(value) == Self.ean)
    }

    @Test("digit groups with spaces or dashes", arguments: ["0 602498 674123", "0-602498-674123", "06024 98674 123", "0 60249 86741 2 3"])
    func groups(_ value: String) {
        #expect(DumpBarcode.gtin(value) == Self.upc)
    }

    @Test("a trailing > (the light-margin mark, &gt; in the XML) and a leading <", arguments: ["7 961220 922684 >", "7 961220 922684>", "<7961220922684>"])
    func margins(_ value: String) {
        #expect(DumpBarcode.gtin(value) == Self.ean)
    }

    /// The fast path for digit groups (`groupedDigits`) gives what `GTIN.parse` gives, on
    /// generated values of 10 to 17 digits in groups split by spaces and hyphens, half of
    /// them with a right check digit: the same GTIN, or none.
    @Test("digit groups: the fast path reads what GTIN.parse reads")
    func groupsAsParsed() {
        var random = SeededGenerator(seed: 32)
        var fast = 0
        for _ in 0..<20_000 {
            var digits = (0..<Int.random(in: 10...17, using: &random)).map { _ in UInt8.random(in: 0...9, using: &random) }
            if Bool.random(using: &random) { digits[digits.count - 1] = CheckDigit.compute(body: digits.dropLast()) }
            var value = Bool.random(using: &random) ? " " : ""
            for (index, digit) in digits.enumerated() {
                if index > 0, Int.random(in: 0..<5, using: &random) == 0 { value += ["-", " ", "  ", " - "].randomElement(using: &random) ?? " " }
                value += String(digit)
            }
            if Bool.random(using: &random) { value += " " }
            let parsed = DumpBarcode.parsed(Substring(value).utf8)
            #expect(DumpBarcode.gtin(value) == parsed, "\(value)")
            if DumpBarcode.groupedDigits(Substring(value).utf8) != nil { fast += 1 }
        }
        #expect(fast > 2_000)
    }

    @Test("the UPC-A and its EAN-13 are one key")
    func upcAndEAN() {
        #expect(DumpBarcode.gtin("602498674123")?.gtin14Value == DumpBarcode.gtin("0602498674123")?.gtin14Value)
        #expect(DumpBarcode.gtin("602498674123")?.gtin14Value == 602_498_674_123)
    }

    @Test("Text and Scanned forms of one code give one key")
    func textAndScanned() {
        #expect(DumpBarcode.keys(["7961220922684", "7 961220 922684 >"]) == [Self.ean.gtin14Value])
        #expect(DumpBarcode.keys(["0 602498 674123", "602498674123", "0602498674123"]) == [Self.upc.gtin14Value])
    }

    @Test("a wrong check digit as printed is not indexed", arguments: ["7961220922685", "0 602498 674124", "602498674120"])
    func wrongCheckDigit(_ value: String) {
        #expect(DumpBarcode.gtin(value) == nil)
    }

    @Test("runout and other text in the barcode field is not indexed",
          arguments: ["SD 4000-A2 FOON", "LC 01846", "", "   ", ">", "none", "ABCD-1234", "SABAM-BIEM"])
    func notBarcodes(_ value: String) {
        #expect(DumpBarcode.gtin(value) == nil)
    }

    @Test("short numbers whose check digit would be assumed are not indexed", arguments: ["123456", "0123456", "4000"])
    func shortNumbers(_ value: String) {
        #expect(DumpBarcode.gtin(value) == nil)
    }

    @Test("an EAN-8 and a UPC-E with their check digits are barcodes")
    func shortSymbols() {
        #expect(DumpBarcode.gtin("96385074") == GTIN(canonical: "96385074"))
        // 8 digits are an EAN-8 when its check digit holds, else a UPC-E, as a scan reads them.
        #expect(DumpBarcode.gtin("01234565") == (try? GTIN.parse("01234565"))?.gtin)
        #expect(DumpBarcode.gtin("04252614")?.canonical == (try? GTIN.parse("04252614"))?.gtin.canonical)
        #expect(DumpBarcode.gtin("04252614") != nil)
    }

    @Test("an add-on after the code keys the code")
    func addOn() {
        #expect(DumpBarcode.gtin("7 961220 922684 12") == Self.ean)
    }

    @Test("every barcode of a release is indexed, each once, in order")
    func everyBarcode() {
        let keys = DumpBarcode.keys(["7961220922684", "SD 4000-A2", "0 602498 674123", "7961220922684"])
        #expect(keys == [Self.upc.gtin14Value, Self.ean.gtin14Value])
    }

    @Test("catalogue numbers: variants of one number are one key; none and empty give none")
    func catalogueNumbers() {
        #expect(DumpBarcode.catalogueNumberKeys(["SK 026", "SK026", "sk-026"]) == ["sk026"])
        #expect(DumpBarcode.catalogueNumberKeys(["SOMA 92", "none", "", "  "]) == ["soma92"])
        #expect(CatalogueNumber.key("SOMA92") == CatalogueNumber.key("soma 92"))
        #expect(CatalogueNumber.key("SOMA-92") == CatalogueNumber.key("SOMA 92"))
    }

    @Test("released: every form the dump writes")
    func released() {
        #expect(DumpRelease(id: 1, released: "1999-07-13").releasedNumber == 19_990_713)
        #expect(DumpRelease(id: 1, released: "2004").releasedNumber == 20_040_000)
        #expect(DumpRelease(id: 1, released: "2004-05-00").releasedNumber == 20_040_500)
        #expect(DumpRelease(id: 1, released: "2004-00-00").year == 2004)
        #expect(DumpRelease(id: 1, released: nil).year == nil)
        #expect(DumpRelease(id: 1, released: "unknown").year == nil)
    }

    @Test("artists joined as Discogs shows them, suffixes kept")
    func artistCredit() {
        let release = DumpRelease(id: 1, artists: [.init(name: "Heiko Laux", join: "&"), .init(name: "Johannes Heil (2)", join: ","), .init(name: "Blaze")])
        #expect(release.artistCredit == "Heiko Laux & Johannes Heil (2), Blaze")
        #expect(DiscogsName.displayCredit(release.artistCredit) == "Heiko Laux & Johannes Heil, Blaze")
        // Names and join words trimmed of any white space, Unicode's included.
        let spaced = DumpRelease(id: 2, artists: [.init(name: " Björk\u{00A0}", join: " Feat. "), .init(name: "\tE.B.E. (2)\n")])
        #expect(spaced.artistCredit == "Björk Feat. E.B.E. (2)")
    }

    @Test("a format's summary: its name, its descriptions, then its text, the empty ones left out")
    func formatSummary() {
        #expect(DumpRelease.Format(name: "Vinyl", text: "Blue", descriptions: ["12\"", "EP"]).summary == "Vinyl, 12\", EP, Blue")
        #expect(DumpRelease.Format(name: "", descriptions: ["", "LP"]).summary == "LP")
        #expect(DumpRelease.Format(name: "CD").summary == "CD")
        #expect(DumpRelease.Format(name: "", text: "Promo").summary == "Promo")
        #expect(DumpRelease.Format(name: "").summary == "")
    }
}
