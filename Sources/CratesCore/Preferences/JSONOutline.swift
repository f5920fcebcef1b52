/// A JSON document (RFC 8259) checked for a person who edits it by hand: the first place it
/// stops being JSON, as a line, a column and what is wrong there in words ("a comma after the
/// last member", "JSON has no comments"); and, for a document that is one object, where
/// each of its members lies, so that one member can be changed, added or removed while the
/// rest of the text (the person's order, spacing and members crates does not know) stays as
/// it was written.
public struct JSONOutline: Sendable {
    /// Where a document stops being JSON.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// 1-based, in lines (LF) and characters (not bytes).
        public var line: Int
        public var column: Int
        public var what: String
        public var description: String { "line \(line), column \(column): \(what)" }
    }

    /// A member of the top-level object: byte offsets into the document.
    public struct Member: Sendable, Hashable {
        public var name: String
        /// The name's opening quote.
        public var nameStart: Int
        public var valueStart: Int
        public var valueEnd: Int
    }

    public let bytes: [UInt8]
    /// The top-level object's members, in the order written; nil when the document is not
    /// an object.
    public let members: [Member]?
    /// The top-level object's braces (offsets of `{` and `}`), when it is one.
    public let objectRange: ClosedRange<Int>?

    /// Checks `bytes`: throws the first problem.
    public init(_ bytes: [UInt8]) throws(SyntaxError) {
        self.bytes = bytes
        var reader = Reader(bytes: bytes)
        do throws(Reader.Failure) {
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw Reader.Failure(offset: reader.firstInvalidUTF8(), what: "the text is not UTF-8")
            }
            reader.skipWhitespace()
            guard reader.current != nil else { throw Reader.Failure(offset: 0, what: "the file is empty") }
            try reader.value(depth: 0)
            reader.skipWhitespace()
            if let byte = reader.current {
                throw Reader.Failure(offset: reader.index, what: "\(Reader.shown(byte, in: bytes, at: reader.index)) after the end of the JSON value")
            }
        } catch {
            throw Self.problem(error, in: bytes)
        }
        members = reader.topMembers
        objectRange = reader.topObject
    }

    /// The line (1-based) of a byte offset.
    public func line(of offset: Int) -> Int {
        1 + bytes.prefix(offset).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    /// The member's value as parsed text.
    public func value(of member: Member) -> JSONNode? {
        try? JSONNode.parse(bytes[member.valueStart..<member.valueEnd])
    }

    private static func problem(_ failure: Reader.Failure, in bytes: [UInt8]) -> SyntaxError {
        var line = 1
        var column = 1
        for byte in bytes.prefix(failure.offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return SyntaxError(line: line, column: column, what: failure.what)
    }

    // MARK: Editing the top-level object

    /// The document with the member `name` set to `literal` (JSON text): its value replaced
    /// where it is (the last one, which is the one read, when a name is written twice), else
    /// the member added after the last one, indented as that one is.
    public func setting(_ name: String, to literal: String) -> [UInt8] {
        guard let members, let objectRange else { return Self.document([(name, literal)]) }
        if let member = members.last(where: { $0.name == name }) {
            return Array(bytes[..<member.valueStart]) + Array(literal.utf8) + Array(bytes[member.valueEnd...])
        }
        let entry = JSONStringLiteral.quoted(name) + ": " + literal
        guard let last = members.last else {
            return Array(bytes[..<objectRange.lowerBound]) + Array(("{\n  " + entry + "\n}").utf8)
                + Array(bytes[(objectRange.upperBound + 1)...])
        }
        // On a line of its own, indented as the last member's line, when the members are on
        // lines of their own; else on the same line.
        let before = bytes[objectRange.lowerBound..<last.nameStart]
        let separator: String
        if let newline = before.lastIndex(of: UInt8(ascii: "\n")) {
            let indent = bytes[(newline + 1)..<last.nameStart].prefix { $0 == 0x20 || $0 == 0x09 }
            separator = ",\n" + String(decoding: indent, as: UTF8.self)
        } else {
            separator = ", "
        }
        return Array(bytes[..<last.valueEnd]) + Array((separator + entry).utf8) + Array(bytes[last.valueEnd...])
    }

    /// The document without the member `name` (every one of that name); unchanged when it
    /// has none.
    public func removing(_ name: String) -> [UInt8] {
        guard var members, members.contains(where: { $0.name == name }) else { return bytes }
        var out = bytes
        // From the last one back, so that the offsets of those before stay right.
        while let index = members.lastIndex(where: { $0.name == name }) {
            let member = members[index]
            let range: Range<Int>
            if index > 0 {
                range = members[index - 1].valueEnd..<member.valueEnd  // ",\n  "name": value"
            } else if members.count > 1 {
                range = member.nameStart..<members[1].nameStart  // "name": value,\n  "
            } else {
                // The only member: the object is left empty, its braces where they were.
                var end = member.valueEnd
                while end < out.count, [0x20, 0x09, 0x0A, 0x0D].contains(out[end]) { end += 1 }
                range = (objectRange.map { $0.lowerBound + 1 } ?? member.nameStart)..<end
            }
            out.removeSubrange(range)
            let removed = range.count
            members.remove(at: index)
            for other in members.indices where members[other].nameStart > range.lowerBound {
                members[other].nameStart -= removed
                members[other].valueStart -= removed
                members[other].valueEnd -= removed
            }
        }
        return out
    }

    /// A new document holding these members, one a line.
    public static func document(_ entries: [(name: String, literal: String)]) -> [UInt8] {
        guard !entries.isEmpty else { return Array("{}\n".utf8) }
        let lines = entries.map { "  " + JSONStringLiteral.quoted($0.name) + ": " + $0.literal }
        return Array(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }

    // MARK: Reading

    private struct Reader {
        struct Failure: Error {
            var offset: Int
            var what: String
        }

        static let maximumDepth = 512

        let bytes: [UInt8]
        var index = 0
        var topMembers: [Member]?
        var topObject: ClosedRange<Int>?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        func firstInvalidUTF8() -> Int {
            var end = bytes.count
            while end > 0, String(validating: bytes[..<end], as: UTF8.self) == nil { end -= 1 }
            // `end` is the longest valid prefix, possibly ending before a cut sequence.
            return end
        }

        /// How a byte is named in a message: the character, in backticks.
        static func shown(_ byte: UInt8, in bytes: [UInt8], at index: Int) -> String {
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: bytes[index..<end], as: UTF8.self)
            return byte < 0x20 ? "a control character" : "`\(text)`"
        }

        /// The run of letters, digits and `_` at `index` (a bare word: `True`, `yes`, `Vinyl`).
        func word() -> String {
            var end = index
            while end < bytes.count, end - index < 40, Self.isWordByte(bytes[end]) { end += 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }

        static func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
                || byte >= 0x80
        }

        /// A byte where a value or a name was expected that is one of the usual slips.
        func slip(at index: Int) -> String? {
            guard let byte = index < bytes.count ? bytes[index] : nil else { return nil }
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "#"): return "a comment: JSON has none (remove it)"
            case UInt8(ascii: "'"): return "a single quote: JSON text is in double quotes (\")"
            default: return nil
            }
        }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < Self.maximumDepth else { throw Failure(offset: index, what: "the values are nested too deeply") }
            skipWhitespace()
            guard let byte = current else { throw Failure(offset: index, what: "the file ends where a value was expected") }
            switch byte {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default:
                if let slip = slip(at: index) { throw Failure(offset: index, what: slip) }
                let word = self.word()
                if ["true", "false", "null"].contains(word) {
                    index += word.utf8.count
                    return
                }
                if ["true", "false", "null"].contains(word.lowercased()) {
                    throw Failure(offset: index, what: "`\(word)`: JSON writes \(word.lowercased()) in lower case")
                }
                if !word.isEmpty {
                    throw Failure(offset: index, what: "`\(word)` is not a JSON value: text goes in double quotes (\"\(word)\")")
                }
                throw Failure(offset: index, what: "\(Self.shown(byte, in: bytes, at: index)) where a value was expected")
            }
        }

        mutating func object(depth: Int) throws(Failure) {
            let open = index
            index += 1
            var members: [Member] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                index += 1
                if depth == 1 { (topMembers, topObject) = (members, open...(index - 1)) }
                return
            }
            var afterComma = false
            while true {
                skipWhitespace()
                guard let byte = current else {
                    throw Failure(offset: index, what: "the file ends inside the object opened on line \(line(of: open)): a } is missing")
                }
                guard byte == UInt8(ascii: "\"") else {
                    if afterComma, byte == UInt8(ascii: "}") {
                        throw Failure(offset: index, what: "a comma after the last member: JSON allows none (remove it)")
                    }
                    if let slip = slip(at: index) { throw Failure(offset: index, what: slip) }
                    let word = self.word()
                    if !word.isEmpty {
                        throw Failure(offset: index, what: "a member's name goes in double quotes (\"\(word)\")")
                    }
                    throw Failure(offset: index, what: "\(Self.shown(byte, in: bytes, at: index)) where a member's name (in double quotes) was expected")
                }
                let nameStart = index
                let name = try string()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else {
                    throw Failure(offset: index, what: "a colon (:) was expected after the name \(JSONStringLiteral.quoted(name))")
                }
                index += 1
                skipWhitespace()
                let valueStart = index
                try value(depth: depth)
                members.append(Member(name: name, nameStart: nameStart, valueStart: valueStart, valueEnd: index))
                skipWhitespace()
                guard let next = current else {
                    throw Failure(offset: index, what: "the file ends inside the object opened on line \(line(of: open)): a } is missing")
                }
                if next == UInt8(ascii: "}") {
                    index += 1
                    if depth == 1 { (topMembers, topObject) = (members, open...(index - 1)) }
                    return
                }
                guard next == UInt8(ascii: ",") else {
                    if next == UInt8(ascii: "\"") {
                        throw Failure(offset: index, what: "a comma is missing before this member")
                    }
                    if let slip = slip(at: index) { throw Failure(offset: index, what: slip) }
                    throw Failure(offset: index, what: "\(Self.shown(next, in: bytes, at: index)) where a comma or } was expected")
                }
                index += 1
                afterComma = true
            }
        }

        mutating func array(depth: Int) throws(Failure) {
            let open = index
            index += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                if current == UInt8(ascii: "]") {
                    throw Failure(offset: index, what: "a comma after the last item: JSON allows none (remove it)")
                }
                try value(depth: depth)
                skipWhitespace()
                guard let next = current else {
                    throw Failure(offset: index, what: "the file ends inside the list opened on line \(line(of: open)): a ] is missing")
                }
                if next == UInt8(ascii: "]") {
                    index += 1
                    return
                }
                guard next == UInt8(ascii: ",") else {
                    throw Failure(offset: index, what: "\(Self.shown(next, in: bytes, at: index)) where a comma or ] was expected")
                }
                index += 1
            }
        }

        func line(of offset: Int) -> Int {
            1 + bytes.prefix(offset).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }

        mutating func string() throws(Failure) -> String {
            let open = index
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return (try? JSONNode.parse(bytes[open..<index]))?.string ?? ""
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escape = current else { break }
                    if escape == UInt8(ascii: "u") {
                        let digits = bytes[(index + 1)..<min(index + 5, bytes.count)]
                        guard digits.count == 4, digits.allSatisfy({ Self.isHexDigit($0) }) else {
                            throw Failure(offset: index - 1, what: "\\u must be followed by four hexadecimal digits")
                        }
                        index += 5
                    } else if "\"\\/bfnrt".utf8.contains(escape) {
                        index += 1
                    } else {
                        throw Failure(offset: index - 1, what: "a backslash that starts no JSON escape (a backslash itself is written \\\\)")
                    }
                case 0x0A, 0x0D:
                    throw Failure(offset: index, what: "a line break inside a string (the string opened on line \(line(of: open)) is not closed, or write \\n)")
                case ..<0x20:
                    throw Failure(offset: index, what: "a control character inside a string")
                default:
                    index += 1
                }
            }
            throw Failure(offset: index, what: "the file ends inside the string opened on line \(line(of: open)): a \" is missing")
        }

        static func isHexDigit(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
        }

        mutating func number() throws(Failure) {
            let start = index
            func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
            if current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw Failure(offset: start, what: "a number without digits") }
            if current == UInt8(ascii: "0"), isDigit(index + 1 < bytes.count ? bytes[index + 1] : nil) {
                throw Failure(offset: start, what: "a number with a leading zero: JSON allows none")
            }
            while isDigit(current) { index += 1 }
            if current == UInt8(ascii: ".") {
                index += 1
                guard isDigit(current) else { throw Failure(offset: start, what: "a number cut short after its decimal point") }
                while isDigit(current) { index += 1 }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard isDigit(current) else { throw Failure(offset: start, what: "a number cut short after its exponent") }
                while isDigit(current) { index += 1 }
            }
            if let byte = current, Self.isWordByte(byte) {
                throw Failure(offset: start, what: "`\(String(decoding: bytes[start..<index], as: UTF8.self))\(word())` is not a number: text goes in double quotes")
            }
        }
    }
}
