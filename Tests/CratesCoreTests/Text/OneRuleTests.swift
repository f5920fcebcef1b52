import CratesCore
import Foundation
import Testing

/// Rules kept in one place: a string in JSON, a control character.
@Suite("One rule, one place: JSON strings, control characters")
struct OneRuleTests {
    @Test("a string written by hand in JSON is what JSONEncoder writes: every control, DEL, quote, slash, non-ASCII")
    func jsonStringIsTheEncoders() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var texts = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["\u{7F}", "\u{85}", "\"quoted\" \\ a/b", "Björk — 坂本龍一 🎹", "", "\u{1B}[2J"]
        for text in texts {
            let encoded = String(decoding: try encoder.encode([text]), as: UTF8.self)
            #expect("[" + JSONStringLiteral.quoted(text) + "]" == encoded, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("a control character is one rule: what input refuses includes what the screen cleans")
    func controlCharacters() {
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if ControlCharacters.isControl(scalar) { #expect(ControlCharacters.isInvisible(scalar), "U+\(String(value, radix: 16))") }
            #expect(ControlCharacters.isControl(scalar) == (scalar.properties.generalCategory == .control), "U+\(String(value, radix: 16))")
        }
        for scalar: Unicode.Scalar in ["\u{200B}", "\u{200E}", "\u{FEFF}", "\u{2028}", "\u{2029}"] {
            #expect(ControlCharacters.isInvisible(scalar) && !ControlCharacters.isControl(scalar))
        }
    }
}
