import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// Bad input never crashes: each gets a precise error whose message is safe on a terminal.
@Suite("GTIN parsing: bad input", .offThePool)
struct GTINBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let input: String
        let error: GTINError
        /// Words the message must contain.
        let mentions: [String]
        var testDescription: String { escapedForDisplay(input) }
    }

    static let cases: [Case] = [
        Case(input: "", error: .empty, mentions: ["empty"]),
        Case(input: "   \r\n", error: .empty, mentions: ["empty"]),
        Case(input: "- -", error: .wrongLength(digits: 0), mentions: ["no digits"]),
        Case(input: "50997A0442227", error: .invalidCharacter("A", position: 6),
             mentions: ["\"A\"", "position 6", "only digits"]),
        Case(input: "ISBN 9781617292156", error: .invalidCharacter("I", position: 1), mentions: ["position 1"]),
        Case(input: "5099750442227.", error: .invalidCharacter(".", position: 14), mentions: ["position 14"]),
        Case(input: "5099750442227²", error: .invalidCharacter("²", position: 14), mentions: ["\"²\""]),
        Case(input: String(repeating: "1", count: 200), error: .wrongLength(digits: 200),
             mentions: ["200 digits", "too long", "8 (EAN-8, UPC-E)", "13 (EAN-13)"]),
        Case(input: "12345", error: .wrongLength(digits: 5), mentions: ["5 digits", "too short"]),
        Case(input: "1234567890", error: .wrongLength(digits: 10), mentions: ["10 digits", "not a barcode length"]),
        Case(input: "1234567890123456", error: .wrongLength(digits: 16), mentions: ["16 digits"]),
        // Check digits: the expected digit is named.
        Case(input: "5099750442224", error: .checkDigit(kind: .ean13, expected: 7, found: 4),
             mentions: ["check digit should be 7, got 4: a misread or a typo"]),
        Case(input: "888462040745", error: .checkDigit(kind: .upcA, expected: 7, found: 5),
             mentions: ["check digit should be 7, got 5", "UPC-A"]),
        Case(input: "12345678901234", error: .checkDigit(kind: .gtin14, expected: 1, found: 4),
             mentions: ["check digit should be 1, got 4", "GTIN-14"]),
        Case(input: "٥٠٩٩٧٥٠٤٤٢٢٢٤", error: .checkDigit(kind: .ean13, expected: 7, found: 4),
             mentions: ["should be 7"]),
        // 8 digits: both EAN-8 and UPC-E tried.
        Case(input: "96385075", error: .notEAN8NorUPCE(ean8Expected: 4, upcEExpected: nil, found: 5),
             mentions: ["EAN-8 (check digit should be 4, got 5)", "UPC-E", "0 or 1"]),
        Case(input: "04252615", error: .notEAN8NorUPCE(ean8Expected: 0, upcEExpected: 4, found: 5),
             mentions: ["EAN-8 (check digit should be 0, got 5)", "UPC-E (check digit should be 4, got 5)"]),
        Case(input: "04252615 12", error: .notEAN8NorUPCE(ean8Expected: 0, upcEExpected: 4, found: 5),
             mentions: ["EAN-8", "UPC-E"]),
        Case(input: "]E496385075", error: .checkDigit(kind: .ean8, expected: 4, found: 5), mentions: ["EAN-8"]),
        Case(input: "4252615", error: .notShortUPCE(expected: 4, found: 5, firstDigit: 4),
             mentions: ["7 digits", "check digit should be 4, got 5", "not 4"]),
        // Control characters are refused and named as escapes, never echoed raw.
        Case(input: "5099\u{0}750442227", error: .controlCharacter(scalar: 0, position: 5),
             mentions: ["\\0", "NUL", "position 5"]),
        Case(input: "\u{0}", error: .controlCharacter(scalar: 0, position: 1), mentions: ["NUL"]),
        Case(input: "5099750442227\u{1B}[31m", error: .controlCharacter(scalar: 0x1B, position: 14),
             mentions: ["\\u{1B}", "ESC"]),
        Case(input: "5099750\t442227", error: .controlCharacter(scalar: 9, position: 8), mentions: ["\\t", "tab"]),
        Case(input: "5099750\r\n442227", error: .controlCharacter(scalar: 0x0D, position: 8), mentions: ["\\r"]),
        Case(input: "5099750\u{7}442227", error: .controlCharacter(scalar: 7, position: 8), mentions: ["BEL"]),
        Case(input: "5099750\u{9B}442227", error: .controlCharacter(scalar: 0x9B, position: 8), mentions: ["C1"]),
        Case(input: "\u{202E}5099750442227", error: .controlCharacter(scalar: 0x202E, position: 1),
             mentions: ["\\u{202E}", "bidirectional"]),
        Case(input: "5099750\u{200B}442227", error: .controlCharacter(scalar: 0x200B, position: 8),
             mentions: ["zero-width space"]),
        Case(input: "\u{FEFF}5099750442227", error: .controlCharacter(scalar: 0xFEFF, position: 1),
             mentions: ["byte order mark"]),
        Case(input: "5099750442227\u{1D}", error: .controlCharacter(scalar: 0x1D, position: 14), mentions: ["GS"]),
        // Symbology identifiers and GS1 element strings.
        Case(input: "]E", error: .symbologyIdentifier("]E", position: 1), mentions: ["\"]E\"", "cut short"]),
        Case(input: "]", error: .symbologyIdentifier("]", position: 1), mentions: ["cut short"]),
        Case(input: "]\u{1B}0", error: .controlCharacter(scalar: 0x1B, position: 2), mentions: ["ESC"]),
        Case(input: "]E0", error: .empty, mentions: []),
        Case(input: "(01)5099750442227", error: .elementString("(01) holds 14 digits, this one has 13"),
             mentions: ["GS1 element string", "14 digits"]),
        Case(input: "(17)250101(10)AB", error: .elementString("no (01) GTIN among (17) (10)"), mentions: ["(01)"]),
        Case(input: "(01", error: .elementString("the \"(\" at position 1 is not closed"), mentions: ["not closed"]),
        Case(input: "(1)05099750442227",
             error: .elementString("at position 1, an application identifier should be 2 to 4 digits in parentheses, like (01)"),
             mentions: []),
        Case(input: "(01)05099750442227 x", error: .invalidCharacter("x", position: 20), mentions: ["\"x\""]),
        Case(input: "(01)05099750442227(01)05099750442227", error: .elementString("(01) appears twice"), mentions: []),
        Case(input: "]C10205099750442227", error: .elementString("GS1 data should start with 01 and the 14 digits of the GTIN"),
             mentions: []),
    ]

    @Test("each bad input gets its error", arguments: cases)
    func badInput(_ badCase: Case) {
        guard let error = parseError(badCase.input) else {
            Issue.record("\(escapedForDisplay(badCase.input)) parsed")
            return
        }
        #expect(error == badCase.error)
        for word in badCase.mentions {
            #expect(error.description.contains(word), "\(error.description) should mention \(word)")
        }
        #expect(isTerminalSafe(error.description))
    }

    @Test("the check digit message is worded as issue 2 asks, also as a localized description")
    func checkDigitWording() {
        let error: any Error = GTINError.checkDigit(kind: .ean13, expected: 7, found: 4)
        #expect(error.localizedDescription.hasPrefix("check digit should be 7, got 4: a misread or a typo"))
        #expect(GTINError.checkDigit(kind: .ean13, expected: 7, found: 4).description
            == "check digit should be 7, got 4: a misread or a typo (read as EAN-13)")
    }

    @Test("random junk never crashes and its errors are terminal-safe")
    func randomJunk() {
        let alphabet: [Character] = Array("0123456789 -()]E01ABx٥۵５\u{0}\u{1B}\u{7}\t\n\r\u{1D}\u{200B}\u{202E}é😀²")
        var random = SeededGenerator(seed: 0x6A09_E667)
        var refused = 0
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...24, using: &random)
            let input = String((0..<length).map { _ in alphabet.randomElement(using: &random) ?? "0" })
            do {
                let barcode = try GTIN.parse(input)
                #expect(GTIN(canonical: barcode.gtin.canonical) == barcode.gtin)
            } catch {
                refused += 1
                #expect(isTerminalSafe(error.description), "\(escapedForDisplay(input)): \(error)")
            }
        }
        // The generator does produce bad input: the loop above is not vacuous.
        #expect(refused > 4_000)
    }

    /// The limit only catches a quadratic reading (hours at these sizes), never the machine's
    /// speed: in the whole suite on two cores this test waits minutes for a thread.
    @Test("huge inputs are read in linear time", .timeLimit(.minutes(5)))
    func hugeInputs() throws {
        let padding = String(repeating: " ", count: 300_000)
        #expect(try GTIN(parsing: padding + "5099750442227" + padding).canonical == "5099750442227")
        #expect(parseError(String(repeating: "1", count: 300_000)) == .wrongLength(digits: 300_000))
        #expect(parseError(String(repeating: "(", count: 100_000)) != nil)
        #expect(parseError("(01)" + String(repeating: "0", count: 300_000)) == .elementString("(01) holds 14 digits, this one has 300000"))
        #expect(GTIN.displayForm(of: padding + "x").count == 65)
    }

    private func isTerminalSafe(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: false
            default: true
            }
        }
    }
}
