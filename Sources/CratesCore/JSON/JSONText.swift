/// JSON text checked and compacted without building a value: for passing a stored document
/// (Discogs' release JSON) into crates' own JSON output at the speed of a byte scan. The
/// grammar is `JSONReader`'s.
public enum JSONText {
    /// `text` without the whitespace between tokens (strings are copied byte for byte),
    /// so that it fits on one line; nil when `text` is not exactly one JSON value.
    public static func compacted(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var reader = JSONReader(bytes[...], builder: Compaction(bytes: bytes))
        guard let output = try? reader.read().builder.output else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// Every token's bytes, in order, and nothing between them.
    private struct Compaction: JSONBuilding {
        let bytes: [UInt8]
        var output: [UInt8] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count)
        }

        mutating func scalar(_ token: JSONToken) { output.append(contentsOf: bytes[token.range]) }
        mutating func open(_ kind: JSONContainerKind, at offset: Int, depth: Int) { output.append(bytes[offset]) }
        mutating func name(_ token: JSONToken, in container: inout Void) { output.append(contentsOf: bytes[token.range]) }
        mutating func add(_ value: Void, range: Range<Int>, in container: inout Void) {}
        mutating func close(_ container: Void, range: Range<Int>, depth: Int) { output.append(bytes[range.upperBound - 1]) }
        mutating func punctuation(_ byte: UInt8) { output.append(byte) }
    }
}
