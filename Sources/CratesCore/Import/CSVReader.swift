/// Reads comma-separated values as RFC 4180 defines them: fields separated by commas,
/// records by CRLF (a lone LF or CR is accepted too); a field in double quotes may hold
/// commas, line breaks and doubled quotes (`""` for one `"`).
///
/// Lenient where RFC 4180 is strict, because spreadsheets write such files: a quote inside
/// an unquoted field is kept as a character, and text after a closing quote is appended to
/// the field. A quoted field still open at the end of the input is reported, not guessed at.
/// Pure: works on bytes already read; decodes each field as UTF-8 (invalid bytes become
/// U+FFFD, which no barcode accepts).
public struct CSVReader: Sequence, IteratorProtocol {
    /// One record, with the line it starts on (1-based, counting every line break before
    /// it, including those inside quoted fields of earlier records).
    public struct Record: Hashable, Sendable {
        public var line: Int
        public var fields: [String]
        /// Set when a quoted field was still open at the end of the input: the last line
        /// of the input, so a message can name the stretch the field swallowed.
        public var unterminatedQuoteEndLine: Int?

        public init(line: Int, fields: [String], unterminatedQuoteEndLine: Int? = nil) {
            self.line = line
            self.fields = fields
            self.unterminatedQuoteEndLine = unterminatedQuoteEndLine
        }

        /// Whether every field is empty or spaces only (a blank line, or ",,,").
        public var isBlank: Bool {
            fields.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } }
        }
    }

    private let bytes: [UInt8]
    private var index: Int
    private var line: Int

    /// Reads `bytes` from `start`, whose first byte is on line `line`.
    public init(_ bytes: [UInt8], from start: Int = 0, line: Int = 1) {
        self.bytes = bytes
        self.index = start
        self.line = line
    }

    private static let quote = UInt8(ascii: "\"")
    private static let comma = UInt8(ascii: ",")
    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")
    private static let space = UInt8(ascii: " ")

    /// The next record, nil at the end of the input.
    public mutating func next() -> Record? {
        guard index < bytes.count else { return nil }
        let startLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var openQuote = false
        while index < bytes.count {
            let byte = bytes[index]
            if openQuote {
                index += 1
                if byte == Self.quote {
                    if index < bytes.count, bytes[index] == Self.quote {
                        field.append(Self.quote)
                        index += 1
                    } else {
                        openQuote = false
                    }
                } else {
                    if byte == Self.lf || (byte == Self.cr && (index >= bytes.count || bytes[index] != Self.lf)) {
                        line += 1
                    }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case Self.comma:
                fields.append(Self.text(field))
                field.removeAll(keepingCapacity: true)
                quoted = false
                index += 1
            case Self.quote where !quoted && field.allSatisfy({ $0 == Self.space }):
                // Spaces before an opening quote are dropped (`a, "b,c"`), as spreadsheets do.
                field.removeAll(keepingCapacity: true)
                quoted = true
                openQuote = true
                index += 1
            case Self.lf, Self.cr:
                index += 1
                if byte == Self.cr, index < bytes.count, bytes[index] == Self.lf { index += 1 }
                line += 1
                fields.append(Self.text(field))
                return Record(line: startLine, fields: fields)
            default:
                field.append(byte)
                index += 1
            }
        }
        fields.append(Self.text(field))
        return Record(line: startLine, fields: fields, unterminatedQuoteEndLine: openQuote ? line : nil)
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
