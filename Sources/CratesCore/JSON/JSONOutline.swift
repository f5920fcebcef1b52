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
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw Self.problem(JSONReading.Failure(offset: Self.firstInvalidUTF8(bytes), what: "the text is not UTF-8"), in: bytes)
        }
        var reader = JSONReader(bytes[...], builder: Outlining(bytes: bytes))
        do throws(JSONReading.Failure) {
            let outlined = try reader.read().builder
            (members, objectRange) = (outlined.topMembers, outlined.topObject)
        } catch {
            throw Self.problem(error, in: bytes)
        }
    }

    /// The longest valid prefix's length (it may end before a cut sequence).
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var end = bytes.count
        while end > 0, String(validating: bytes[..<end], as: UTF8.self) == nil { end -= 1 }
        return end
    }

    /// The line (1-based) of a byte offset.
    public func line(of offset: Int) -> Int {
        1 + bytes.prefix(offset).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }

    /// The member's value as parsed text.
    public func value(of member: Member) -> JSONNode? {
        try? JSONNode.parse(bytes[member.valueStart..<member.valueEnd])
    }

    private static func problem(_ failure: JSONReading.Failure, in bytes: [UInt8]) -> SyntaxError {
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

    /// The top-level object's members and braces; nothing of what lies deeper.
    private struct Outlining: JSONBuilding {
        struct Container {
            var depth: Int
            var members: [Member] = []
            var name: (text: String, start: Int)?
        }

        let bytes: [UInt8]
        var topMembers: [Member]?
        var topObject: ClosedRange<Int>?

        func scalar(_ token: JSONToken) {}
        func open(_ kind: JSONContainerKind, at offset: Int, depth: Int) -> Container { Container(depth: depth) }

        func name(_ token: JSONToken, in container: inout Container) {
            // The names of deeper objects are never asked for: only the top level's are decoded.
            guard container.depth == 1 else { return }
            container.name = (JSONReading.text(of: token, in: bytes[...]), token.range.lowerBound)
        }

        func add(_ value: Void, range: Range<Int>, in container: inout Container) {
            guard let name = container.name else { return }
            container.members.append(Member(name: name.text, nameStart: name.start, valueStart: range.lowerBound, valueEnd: range.upperBound))
            container.name = nil
        }

        mutating func close(_ container: Container, range: Range<Int>, depth: Int) {
            guard container.depth == 1, bytes[range.lowerBound] == UInt8(ascii: "{") else { return }
            (topMembers, topObject) = (container.members, range.lowerBound...(range.upperBound - 1))
        }
    }
}
