import CratesCore
import Testing

@Suite struct CatalogueNumberTests {
    @Test func keysIgnoreSpacesDashesDotsSlashesCaseAccentsAndWidth() {
        let forms = ["CDP 7 46001 2", "cdp7460012", "CDP-7-46001-2", "C.D.P./7/46001/2", "ＣＤＰ７４６００１２", " cdp 7 46001 2 "]
        #expect(Set(forms.map(CatalogueNumber.key)) == ["cdp7460012"])
        #expect(CatalogueNumber.key("1C 064-82 306") == "1c06482306")
        #expect(CatalogueNumber.key("SHVL.804") == CatalogueNumber.key("SHVL 804"))
        #expect(CatalogueNumber.key("ÉPC 12") == "epc12")
        #expect(CatalogueNumber.key("---") == "")
    }

    @Test func wordsAreTheIndexWords() {
        #expect(CatalogueNumber.words("CDP 7 46001-2") == ["cdp", "7", "46001", "2"])
        #expect(CatalogueNumber.words("1C 064-82 306") == ["1c", "064", "82", "306"])
        #expect(TextFolding.words("Motörhead – Ace Of Spades") == ["motorhead", "ace", "of", "spades"])
        #expect(TextFolding.words("坂本龍一 / 音楽図鑑") == ["坂本龍一", "音楽図鑑"])
    }

    @Test(arguments: [
        ("ILPS9135", "ILPS 9135"),
        ("cdp7460012", "cdp 7 46001 2"),   // EMI's 7 46001 2, run together
        ("CDM 7483282", "CDM 7 48328 2"),
        ("cdp4460012", "cdp 4460012"),      // not EMI's pattern: as before
        ("CDP7-46001-2", "CDP 7 46001 2"),
        ("1C064-82306", "1C 064 82306"),  // "1C" stays one word, as printed
        ("2C064.05249", "2C 064 05249"),
        ("12345X", "12345 X"),            // three digits or more, then letters: split
        ("SHVL 804", "SHVL 804"),
        ("  shvl--804 ", "shvl 804"),
        ("MOVLP001", "MOVLP 001"),
        ("HSH005", "HSH 005"),
        ("7599-26094-2", "7599 26094 2"),
        ("", ""),
    ])
    func respacing(typed: String, respaced: String) {
        #expect(CatalogueNumber.respaced(typed) == respaced)
        #expect(CatalogueNumber.key(CatalogueNumber.respaced(typed)) == CatalogueNumber.key(typed))
    }

    @Test func compacting() {
        #expect(CatalogueNumber.compacted("MOVLP 001") == "MOVLP001")
        #expect(CatalogueNumber.compacted("tplp 71-cd") == "tplp71cd")
        #expect(CatalogueNumber.compacted("Ö.1") == "Ö1")
    }

    @Test func noneIsNoNumber() {
        #expect(CatalogueNumber.isNone("none") && CatalogueNumber.isNone(" None "))
        #expect(!CatalogueNumber.isNone("NONE 1"))
    }

    @Test("the key of printable ASCII (a build's fast path) is the key of the words: every pair of such characters")
    func asciiKeysAreTheWordsKeys() {
        let printable = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
        var samples = ["SOMA 92", "soma-92", "1C 064-82 306", "", "AbC_dEf/12.3", printable.joined()]
        for first in printable {
            for second in printable { samples.append(first + second) }
        }
        for sample in samples {
            #expect(CatalogueNumber.key(sample) == TextFolding.words(sample).joined(), "\(sample)")
        }
    }
}
