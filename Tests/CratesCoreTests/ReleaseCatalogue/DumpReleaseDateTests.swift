import Testing

@testable import CratesCore

/// A release's `released`, read byte by byte when ASCII (the catalogue build reads millions),
/// gives what reading it as characters gives: the same year and date number for every form,
/// well written or not.
@Suite struct DumpReleaseDateTests {
    static let forms = [
        "1999-07-13", "2004", "2004-05-00", "2004-00-00", "1999-13-01", "1999-07-32", "0", "0000", "10000", "9999-12-31",
        "", "-", "--", "1999-", "-1999", "1999--13", "1999-07-13-01", "+1999", "++1999", "1999+", "+", "1999-+7-+3",
        "1999-07-1x", "19 99", " 1999", "1999-07-13 ", "unknown", "99999999999999999999", "1999-99999999999999999999",
        "1999-07-13\r\n", "199\r\n9", "0001-1-1", "1999-007-0013",
    ]

    @Test("every form: the ASCII reading and the reading as characters agree")
    func asciiAgrees() {
        for form in Self.forms {
            let ascii = DumpRelease.releasedASCII(form)
            let characters = DumpRelease.releasedByCharacters(form)
            #expect(ascii?.year == characters.year && ascii?.number == characters.number, "\(form): \(String(describing: ascii)) \(characters)")
        }
    }

    @Test("random ASCII of digits, dashes, plus signs and letters: the two readings agree")
    func randomAgrees() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789--+a ")
        for _ in 0..<20_000 {
            let form = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "0" })
            let ascii = DumpRelease.releasedASCII(form)
            #expect(ascii?.year == DumpRelease.releasedByCharacters(form).year, "\(form)")
            #expect(ascii?.number == DumpRelease.releasedByCharacters(form).number, "\(form)")
        }
    }

    @Test("a text beyond ASCII is read as characters")
    func beyondASCII() {
        #expect(DumpRelease.releasedASCII("1999-\u{301}07") == nil)
        #expect(DumpRelease(id: 1, released: "1999-\u{301}07").releasedNumber == DumpRelease.releasedByCharacters("1999-\u{301}07").number)
        #expect(DumpRelease(id: 1, released: "１９９９").year == nil)
    }
}
