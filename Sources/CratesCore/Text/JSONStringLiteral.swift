/// The one JSON string escaper, for JSON written by hand where a whole encoder is not
/// wanted (the scanner protocol's events, the import's batched statements, `stats --json`,
/// `export --json`'s lines). It writes a string as Foundation's JSONEncoder does with
/// `.withoutEscapingSlashes` (RFC 8259 §7): quote and backslash escaped, \b \f \n \r \t by
/// name, the other characters below U+0020 as \u00xx (lowercase hex), everything else, DEL
/// and non-ASCII included, as UTF-8. So a string reads the same in every JSON crates writes,
/// by hand or through an encoder.
public enum JSONStringLiteral {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal, quotes included, to `bytes`.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var plainStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                if byte >= 0x20, byte != 0x22, byte != 0x5C { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: bytes.append(UInt8(ascii: "\""))
                case 0x5C: bytes.append(UInt8(ascii: "\\"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
                plainStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// JSON text (one value a line) as it may reach a terminal whole: each control character
    /// other than the line feed between values, which can only stand inside a string, written
    /// as its escape (`\u009b`). DEL and the C1 controls are the ones an encoder leaves raw
    /// (RFC 8259 requires escapes below U+0020 only), and some terminals obey them; escaped,
    /// a program reading the JSON gets the same strings.
    public static func escapingControls(_ json: String) -> String {
        guard ControlCharacters.holdsUnprintable(json, countingTabs: true) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if ControlCharacters.isControl(scalar), scalar != "\n" {
                let digits = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - digits.count) + digits).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}
