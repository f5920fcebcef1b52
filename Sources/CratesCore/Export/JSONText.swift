/// JSON text checked and compacted without building a value: for passing a stored document
/// (Discogs' release JSON) into crates' own JSON output at the speed of a byte scan.
///
/// The grammar is RFC 8259's (§2–§7): one value, with whitespace (space, tab, LF, CR)
/// allowed around tokens; strings with their escapes and no raw control characters;
/// numbers as `-? int frac? exp?`. Nesting deeper than `maximumDepth` is refused rather
/// than risking the stack.
public enum JSONText {
    public static let maximumDepth = 512

    /// `text` without the whitespace between tokens (strings are copied byte for byte),
    /// so that it fits on one line; nil when `text` is not exactly one JSON value.
    public static func compacted(_ text: String) -> String? {
        var scanner = Scanner(bytes: Array(text.utf8))
        guard scanner.value(depth: 0) else { return nil }
        scanner.skipWhitespace()
        guard scanner.index == scanner.bytes.count else { return nil }
        return String(decoding: scanner.output, as: UTF8.self)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count)
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// Copies the current byte to the output and moves on.
        mutating func take() {
            output.append(bytes[index])
            index += 1
        }

        mutating func value(depth: Int) -> Bool {
            skipWhitespace()
            guard let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func object(depth: Int) -> Bool {
            guard depth <= JSONText.maximumDepth else { return false }
            take()  // {
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                take()
                return true
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return false }
                take()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                guard let byte = current else { return false }
                take()
                if byte == UInt8(ascii: "}") { return true }
                guard byte == UInt8(ascii: ",") else { return false }
            }
        }

        mutating func array(depth: Int) -> Bool {
            guard depth <= JSONText.maximumDepth else { return false }
            take()  // [
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                take()
                return true
            }
            while true {
                guard value(depth: depth) else { return false }
                skipWhitespace()
                guard let byte = current else { return false }
                take()
                if byte == UInt8(ascii: "]") { return true }
                guard byte == UInt8(ascii: ",") else { return false }
            }
        }

        mutating func string() -> Bool {
            take()  // opening quote
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    take()
                    return true
                case UInt8(ascii: "\\"):
                    take()
                    guard let escaped = current else { return false }
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        take()
                    case UInt8(ascii: "u"):
                        take()
                        for _ in 0..<4 {
                            guard let hex = current, isHexDigit(hex) else { return false }
                            take()
                        }
                    default:
                        return false
                    }
                case 0x00..<0x20:
                    return false  // §7: control characters must be escaped
                default:
                    take()
                }
            }
            return false
        }

        mutating func number() -> Bool {
            if current == UInt8(ascii: "-") { take() }
            guard let first = current, isDigit(first) else { return false }
            take()
            if first != UInt8(ascii: "0") {
                while let byte = current, isDigit(byte) { take() }
            }
            if current == UInt8(ascii: ".") {
                take()
                guard let byte = current, isDigit(byte) else { return false }
                while let byte = current, isDigit(byte) { take() }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                take()
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { take() }
                guard let byte = current, isDigit(byte) else { return false }
                while let byte = current, isDigit(byte) { take() }
            }
            return true
        }

        mutating func literal(_ word: String) -> Bool {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
                return false
            }
            for _ in expected { take() }
            return true
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
        }
    }
}
