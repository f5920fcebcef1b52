/// crates' one reading of JSON (RFC 8259, §2–§8): every JSON document crates reads goes
/// through this grammar, so that the export's splice, the restore and the configuration file
/// never disagree on what JSON is. What is made of the document is the builder's: values
/// (`JSONNode`), compacted text (`JSONText`), the top-level members' offsets (`JSONOutline`).
///
/// The reader is generic over its builder rather than calling through a protocol's witness
/// table or building a tree every reader then walks: specialised, a builder that makes nothing
/// costs nothing, and the compaction keeps the speed of a plain byte scan.
///
/// What the grammar takes: one value with whitespace (space, tab, LF, CR) around tokens;
/// strings with their escapes, no raw control characters, and `\u` surrogates in pairs (a lone
/// half is no character, and a reader downstream may refuse it); numbers as
/// `-? int frac? exp?` without leading zeros; `true`, `false`, `null` in lower case; nesting
/// at most `maximumDepth` deep (deeper is refused rather than risking the stack). A failure
/// says where (a byte offset) and what is wrong in the words of a person who edits JSON by hand.
public struct JSONReader<Builder: JSONBuilding> {
    public static var maximumDepth: Int { JSONReading.maximumDepth }

    let bytes: ArraySlice<UInt8>
    private(set) var index: Int
    var builder: Builder

    public init(_ bytes: ArraySlice<UInt8>, builder: Builder) {
        self.bytes = bytes
        self.index = bytes.startIndex
        self.builder = builder
    }

    /// Reads the one value of the bytes (whitespace around it allowed) and gives the builder
    /// back with what it made of it.
    public mutating func read() throws(JSONReading.Failure) -> (value: Builder.Value, builder: Builder) {
        skipWhitespace()
        guard current != nil else { throw fail(at: index, "the file is empty") }
        let value = try self.value(depth: 0)
        skipWhitespace()
        if let byte = current {
            throw fail(at: index, "\(shown(byte, at: index)) after the end of the JSON value")
        }
        return (value, builder)
    }

    // MARK: The grammar

    private var current: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.endIndex {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONReading.Failure) -> Builder.Value {
        skipWhitespace()
        guard let byte = current else { throw fail(at: index, "the file ends where a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return builder.scalar(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return builder.scalar(try number())
        default: return builder.scalar(try literal())
        }
    }

    private mutating func object(depth: Int) throws(JSONReading.Failure) -> Builder.Value {
        let open = index
        guard depth <= JSONReading.maximumDepth else { throw fail(at: open, "the values are nested too deeply") }
        index += 1
        var container = builder.open(.object, at: open, depth: depth)
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return builder.close(container, range: open..<index, depth: depth)
        }
        var afterComma = false
        while true {
            skipWhitespace()
            guard let byte = current else {
                throw fail(at: index, "the file ends inside the object opened on line \(line(of: open)): a } is missing")
            }
            guard byte == UInt8(ascii: "\"") else {
                if afterComma, byte == UInt8(ascii: "}") {
                    throw fail(at: index, "a comma after the last member: JSON allows none (remove it)")
                }
                if let slip = slip(at: index) { throw fail(at: index, slip) }
                let word = self.word(at: index)
                if !word.isEmpty { throw fail(at: index, "a member's name goes in double quotes (\"\(word)\")") }
                throw fail(at: index, "\(shown(byte, at: index)) where a member's name (in double quotes) was expected")
            }
            let name = try string()
            builder.name(name, in: &container)
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw fail(at: index, "a colon (:) was expected after the name \(JSONStringLiteral.quoted(decoded(name)))")
            }
            builder.punctuation(UInt8(ascii: ":"))
            index += 1
            skipWhitespace()
            let start = index
            let member = try value(depth: depth)
            builder.add(member, range: start..<index, in: &container)
            skipWhitespace()
            guard let next = current else {
                throw fail(at: index, "the file ends inside the object opened on line \(line(of: open)): a } is missing")
            }
            if next == UInt8(ascii: "}") {
                index += 1
                return builder.close(container, range: open..<index, depth: depth)
            }
            guard next == UInt8(ascii: ",") else {
                if next == UInt8(ascii: "\"") { throw fail(at: index, "a comma is missing before this member") }
                if let slip = slip(at: index) { throw fail(at: index, slip) }
                throw fail(at: index, "\(shown(next, at: index)) where a comma or } was expected")
            }
            builder.punctuation(UInt8(ascii: ","))
            index += 1
            afterComma = true
        }
    }

    private mutating func array(depth: Int) throws(JSONReading.Failure) -> Builder.Value {
        let open = index
        guard depth <= JSONReading.maximumDepth else { throw fail(at: open, "the values are nested too deeply") }
        index += 1
        var container = builder.open(.array, at: open, depth: depth)
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return builder.close(container, range: open..<index, depth: depth)
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                throw fail(at: index, "a comma after the last item: JSON allows none (remove it)")
            }
            let start = index
            let item = try value(depth: depth)
            builder.add(item, range: start..<index, in: &container)
            skipWhitespace()
            guard let next = current else {
                throw fail(at: index, "the file ends inside the list opened on line \(line(of: open)): a ] is missing")
            }
            if next == UInt8(ascii: "]") {
                index += 1
                return builder.close(container, range: open..<index, depth: depth)
            }
            guard next == UInt8(ascii: ",") else {
                throw fail(at: index, "\(shown(next, at: index)) where a comma or ] was expected")
            }
            builder.punctuation(UInt8(ascii: ","))
            index += 1
        }
    }

    private mutating func string() throws(JSONReading.Failure) -> JSONToken {
        let open = index
        index += 1
        var escaped = false
        while index < bytes.endIndex {
            index = plainRun(from: index)
            guard index < bytes.endIndex else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return JSONToken(kind: .string, range: open..<index, hasEscapes: escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try escape()
                continue
            }
            // What is left is a control character (§7: they must be escaped).
            if byte == 0x0A || byte == 0x0D {
                throw fail(at: index, "a line break inside a string (the string opened on line \(line(of: open)) is not closed, or write \\n)")
            }
            throw fail(at: index, "a control character inside a string")
        }
        throw fail(at: index, "the file ends inside the string opened on line \(line(of: open)): a \" is missing")
    }

    /// The end of the run of bytes from `start` that a string holds as they are (no quote, no
    /// backslash, no control character): most of a document, so scanned without bounds checks.
    private func plainRun(from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var at = start - bytes.startIndex
            while at < buffer.count {
                let byte = buffer[at]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                at += 1
            }
            return at + bytes.startIndex
        }
    }

    /// One escape at `index` (its backslash), checked and stepped over.
    private mutating func escape() throws(JSONReading.Failure) {
        let start = index
        guard index + 1 < bytes.endIndex else {
            throw fail(at: start, "a backslash that starts no JSON escape (a backslash itself is written \\\\)")
        }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            guard let code = JSONReading.hex4(bytes, at: index + 2) else {
                throw fail(at: start, "\\u must be followed by four hexadecimal digits")
            }
            index += 6
            switch code {
            case 0xD800..<0xDC00:
                // A surrogate pair (§7): the high half must be followed by the low one.
                guard index + 1 < bytes.endIndex, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                      let low = JSONReading.hex4(bytes, at: index + 2), (0xDC00..<0xE000).contains(low) else {
                    throw fail(at: start, "half of a surrogate pair (\\u\(hexText(start))) without its other half")
                }
                index += 6
            case 0xDC00..<0xE000:
                throw fail(at: start, "half of a surrogate pair (\\u\(hexText(start))) without its other half")
            default:
                break
            }
        default:
            throw fail(at: start, "a backslash that starts no JSON escape (a backslash itself is written \\\\)")
        }
    }

    private mutating func number() throws(JSONReading.Failure) -> JSONToken {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard isDigit(current) else { throw fail(at: start, "a number without digits") }
        if current == UInt8(ascii: "0"), isDigit(index + 1 < bytes.endIndex ? bytes[index + 1] : nil) {
            throw fail(at: start, "a number with a leading zero: JSON allows none")
        }
        while isDigit(current) { index += 1 }
        if current == UInt8(ascii: ".") {
            index += 1
            guard isDigit(current) else { throw fail(at: start, "a number cut short after its decimal point") }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw fail(at: start, "a number cut short after its exponent") }
            while isDigit(current) { index += 1 }
        }
        if let byte = current, JSONReading.isWordByte(byte) {
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            throw fail(at: start, "`\(text)\(word(at: index))` is not a number: text goes in double quotes")
        }
        return JSONToken(kind: .number, range: start..<index, hasEscapes: false)
    }

    /// `true`, `false` or `null`, whole (not the start of a longer word).
    private mutating func literal() throws(JSONReading.Failure) -> JSONToken {
        let start = index
        let kind: JSONToken.Kind
        let word: StaticString
        switch bytes[start] {
        case UInt8(ascii: "t"): (kind, word) = (.true, "true")
        case UInt8(ascii: "f"): (kind, word) = (.false, "false")
        case UInt8(ascii: "n"): (kind, word) = (.null, "null")
        default: throw notALiteral(at: start)
        }
        let end = start + word.utf8CodeUnitCount
        let whole = end <= bytes.endIndex
            && word.withUTF8Buffer { expected in expected.indices.allSatisfy { bytes[start + $0] == expected[$0] } }
            && (end == bytes.endIndex || !JSONReading.isWordByte(bytes[end]))
        guard whole else { throw notALiteral(at: start) }
        index = end
        return JSONToken(kind: kind, range: start..<end, hasEscapes: false)
    }

    private func notALiteral(at start: Int) -> JSONReading.Failure {
        if let slip = slip(at: start) { return fail(at: start, slip) }
        let word = self.word(at: start)
        if ["true", "false", "null"].contains(word.lowercased()) {
            return fail(at: start, "`\(word)`: JSON writes \(word.lowercased()) in lower case")
        }
        if !word.isEmpty { return fail(at: start, "`\(word)` is not a JSON value: text goes in double quotes (\"\(word)\")") }
        return fail(at: start, "\(shown(bytes[start], at: start)) where a value was expected")
    }

    private func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

    // MARK: Saying what is wrong (only ever on the way out)

    private func fail(at offset: Int, _ what: String) -> JSONReading.Failure {
        JSONReading.Failure(offset: offset - bytes.startIndex, what: what)
    }

    /// The decoded text of a string token (for a message).
    private func decoded(_ token: JSONToken) -> String { JSONReading.text(of: token, in: bytes) }

    private func hexText(_ backslash: Int) -> String {
        String(decoding: bytes[(backslash + 2)..<(backslash + 6)], as: UTF8.self)
    }

    private func line(of offset: Int) -> Int {
        1 + bytes[bytes.startIndex..<offset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    /// How a byte is named in a message: the character, in backticks.
    private func shown(_ byte: UInt8, at index: Int) -> String {
        guard byte >= 0x20 else { return "a control character" }
        var end = index + 1
        while end < bytes.endIndex, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "`\(String(decoding: bytes[index..<end], as: UTF8.self))`"
    }

    /// The run of letters, digits and `_` at `start` (a bare word: `True`, `yes`, `Vinyl`).
    private func word(at start: Int) -> String {
        var end = start
        while end < bytes.endIndex, end - start < 40, JSONReading.isWordByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// A byte where a value or a name was expected that is one of the usual slips.
    private func slip(at index: Int) -> String? {
        guard index < bytes.endIndex else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "/"), UInt8(ascii: "#"): return "a comment: JSON has none (remove it)"
        case UInt8(ascii: "'"): return "a single quote: JSON text is in double quotes (\")"
        default: return nil
        }
    }
}

/// What the reader gives a builder for a string, a number or a literal: where it lies.
public struct JSONToken: Sendable {
    public enum Kind: Sendable { case string, number, `true`, `false`, null }
    public var kind: Kind
    /// The token's bytes, a string's quotes included (offsets into the bytes the reader was given).
    public var range: Range<Int>
    /// A string with at least one backslash escape (else its text is its bytes).
    public var hasEscapes: Bool
}

/// What a reader makes of a document, told token by token in the order written.
public protocol JSONBuilding {
    associatedtype Value
    /// What the builder keeps of an object or array while its members are read.
    associatedtype Container

    mutating func scalar(_ token: JSONToken) -> Value
    mutating func open(_ kind: JSONContainerKind, at offset: Int, depth: Int) -> Container
    /// An object member's name, before its value is read.
    mutating func name(_ token: JSONToken, in container: inout Container)
    /// A member's or an item's value, once read, and where its text lies.
    mutating func add(_ value: Value, range: Range<Int>, in container: inout Container)
    /// `range` runs from the opening bracket to just after the closing one.
    mutating func close(_ container: Container, range: Range<Int>, depth: Int) -> Value
    /// A colon or a comma between tokens (only the compaction keeps them).
    mutating func punctuation(_ byte: UInt8)
}

extension JSONBuilding {
    public mutating func punctuation(_ byte: UInt8) {}
}

public enum JSONContainerKind: Sendable { case object, array }

/// What the reader's builders share: the limits, the failure, string decoding.
public enum JSONReading {
    public static let maximumDepth = 512

    /// Where a document stops being JSON, and what is wrong there.
    public struct Failure: Error, Hashable, Sendable {
        /// From the start of the bytes the reader was given.
        public var offset: Int
        public var what: String
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
            || byte >= 0x80
    }

    static func hex4(_ bytes: ArraySlice<UInt8>, at start: Int) -> UInt32? {
        guard start + 4 <= bytes.endIndex else { return nil }
        var value: UInt32 = 0
        for byte in bytes[start..<(start + 4)] {
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }

    /// A string token's text, its escapes decoded (the reader has checked them).
    public static func text(of token: JSONToken, in bytes: ArraySlice<UInt8>) -> String {
        let body = (token.range.lowerBound + 1)..<(token.range.upperBound - 1)
        guard token.hasEscapes else { return String(decoding: bytes[body], as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var index = body.lowerBound
        var plainStart = index
        while index < body.upperBound {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            scalars.append(contentsOf: String(decoding: bytes[plainStart..<index], as: UTF8.self).unicodeScalars)
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = hex4(bytes, at: index) ?? 0xFFFD
                index += 4
                if (0xD800..<0xDC00).contains(code), let low = hex4(bytes, at: index + 2) {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: scalars.append(Unicode.Scalar(escape))  // \" \\ \/
            }
            plainStart = index
        }
        scalars.append(contentsOf: String(decoding: bytes[plainStart..<index], as: UTF8.self).unicodeScalars)
        return String(scalars)
    }
}
