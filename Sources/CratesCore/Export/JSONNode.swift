/// One JSON value (RFC 8259) read from bytes, each value keeping where it lies in them, so
/// that a member can be taken as its exact text (Discogs' release JSON inside crates' export,
/// passed through without its numbers going through `Double`). Numbers are kept as their
/// text. Nesting deeper than `JSONText.maximumDepth` is refused.
public indirect enum JSONNode: Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONNode])
    /// The members, and where each member's value lies: byte offsets from the start of the
    /// bytes `parse` was given (for nested objects too).
    case object([String: JSONNode], ranges: [String: Range<Int>])

    /// Why bytes are not one JSON value.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The byte offset where reading stopped.
        public var offset: Int
        public var description: String { "not JSON (at byte \(offset + 1))" }
    }

    /// The one value of `bytes` (whitespace around it allowed).
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(SyntaxError) -> JSONNode {
        var parser = Parser(bytes: bytes, index: bytes.startIndex)
        let node = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.endIndex else { throw SyntaxError(offset: parser.index - bytes.startIndex) }
        return node
    }

    // MARK: Reading values

    public subscript(key: String) -> JSONNode? {
        if case .object(let members, _) = self { return members[key] }
        return nil
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
    public var string: String? { if case .string(let text) = self { return text } else { return nil } }
    public var bool: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    public var array: [JSONNode]? { if case .array(let items) = self { return items } else { return nil } }
    public var int64: Int64? { if case .number(let text) = self { return Int64(text) } else { return nil } }
    public var int: Int? { if case .number(let text) = self { return Int(text) } else { return nil } }

    private struct Parser {
        let bytes: ArraySlice<UInt8>
        var index: Int

        var current: UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        var error: SyntaxError { SyntaxError(offset: index - bytes.startIndex) }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONNode {
            guard depth <= JSONText.maximumDepth else { throw error }
            skipWhitespace()
            guard let byte = current else { throw error }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return .number(try number())
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONNode {
            index += 1
            var members: [String: JSONNode] = [:]
            var ranges: [String: Range<Int>] = [:]
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                return .object(members, ranges: ranges)
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw error }
                let key = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw error }
                index += 1
                skipWhitespace()
                let start = index
                members[key] = try value(depth: depth)
                ranges[key] = (start - bytes.startIndex)..<(index - bytes.startIndex)
                skipWhitespace()
                guard let byte = current else { throw error }
                index += 1
                if byte == UInt8(ascii: "}") { return .object(members, ranges: ranges) }
                guard byte == UInt8(ascii: ",") else { throw error }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONNode {
            index += 1
            var items: [JSONNode] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth))
                skipWhitespace()
                guard let byte = current else { throw error }
                index += 1
                if byte == UInt8(ascii: "]") { return .array(items) }
                guard byte == UInt8(ascii: ",") else { throw error }
            }
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.endIndex else { throw error }
            let matches = word.withUTF8Buffer { expected in
                (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
            }
            guard matches else { throw error }
            index += count
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            var digits = 0
            func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
            while isDigit(current) {
                index += 1
                digits += 1
            }
            guard digits > 0 else { throw error }
            if current == UInt8(ascii: ".") {
                index += 1
                guard isDigit(current) else { throw error }
                while isDigit(current) { index += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard isDigit(current) else { throw error }
                while isDigit(current) { index += 1 }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1  // opening quote
            var scalars = String.UnicodeScalarView()
            var plainStart = index
            func flushPlain(_ parser: Parser) {
                scalars.append(contentsOf: String(decoding: parser.bytes[plainStart..<parser.index], as: UTF8.self).unicodeScalars)
            }
            while let byte = current {
                if byte == UInt8(ascii: "\"") {
                    flushPlain(self)
                    index += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw error }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                flushPlain(self)
                index += 1
                guard let escape = current else { throw error }
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        // A surrogate pair (RFC 8259 §7).
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error }
                    scalars.append(scalar)
                default: throw error
                }
                plainStart = index
            }
            throw error
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.endIndex else { throw error }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: throw error
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}
