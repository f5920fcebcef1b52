/// One JSON value (RFC 8259) read from bytes, each value keeping where it lies in them, so
/// that a member can be taken as its exact text (Discogs' release JSON inside crates' export,
/// passed through without its numbers going through `Double`). Numbers are kept as their
/// text. The grammar is `JSONReader`'s.
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
        /// What is wrong there.
        public var what: String
        public init(offset: Int, what: String) {
            self.offset = offset
            self.what = what
        }

        public var description: String { "not JSON at byte \(offset + 1): \(what)" }
    }

    /// The one value of `bytes` (whitespace around it allowed).
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(SyntaxError) -> JSONNode {
        var reader = JSONReader(bytes, builder: Builder(bytes: bytes))
        do throws(JSONReading.Failure) {
            return try reader.read().value
        } catch {
            throw SyntaxError(offset: error.offset, what: error.what)
        }
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

    /// Values, and each member's range from the start of the bytes.
    private struct Builder: JSONBuilding {
        struct Container {
            var isObject: Bool
            var members: [String: JSONNode] = [:]
            var ranges: [String: Range<Int>] = [:]
            var items: [JSONNode] = []
            var name = ""
        }

        let bytes: ArraySlice<UInt8>

        func scalar(_ token: JSONToken) -> JSONNode {
            switch token.kind {
            case .string: .string(JSONReading.text(of: token, in: bytes))
            case .number: .number(String(decoding: bytes[token.range], as: UTF8.self))
            case .true: .bool(true)
            case .false: .bool(false)
            case .null: .null
            }
        }

        func open(_ kind: JSONContainerKind, at offset: Int, depth: Int) -> Container { Container(isObject: kind == .object) }

        func name(_ token: JSONToken, in container: inout Container) {
            container.name = JSONReading.text(of: token, in: bytes)
        }

        func add(_ value: JSONNode, range: Range<Int>, in container: inout Container) {
            guard container.isObject else { return container.items.append(value) }
            container.members[container.name] = value
            container.ranges[container.name] = (range.lowerBound - bytes.startIndex)..<(range.upperBound - bytes.startIndex)
        }

        func close(_ container: Container, range: Range<Int>, depth: Int) -> JSONNode {
            container.isObject ? .object(container.members, ranges: container.ranges) : .array(container.items)
        }
    }
}
