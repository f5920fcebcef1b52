/// Reads delimiter-separated values as RFC 4180 defines them: fields separated by a
/// delimiter (a comma; a semicolon or a tab in files from spreadsheets set to other
/// locales), records by line breaks; a field in double quotes may hold delimiters, line
/// breaks and doubled quotes (`""` for one `"`).
///
/// Fed one physical line at a time (`ImportLineSplitter` makes them), so that a file is
/// never held whole: a record whose quoted field runs over line breaks is returned once
/// its last line has come. A line break inside quotes is kept as LF.
///
/// Lenient where RFC 4180 is strict, because spreadsheets write such files: a quote inside
/// an unquoted field is kept as a character, and text after a closing quote is appended to
/// the field. What leniency could hide is reported instead of guessed at:
/// - a quoted field still open at the end of the input (`unterminatedQuoteEndLine`);
/// - a quoted field running over lines that read as rows of their own (`rowLikeLines`,
///   decided by `rowProbe`): most likely a quote left open, swallowing the rows after it;
/// - a record longer than `maximumRecordLength` (`tooLong`), whose text is not kept.
///
/// Pure: decodes each field as UTF-8 (invalid bytes become U+FFFD, which no barcode accepts).
/// Chosen over yaslab/CSV.swift 2.5.2: that reader needs Foundation's InputStream (I/O, which
/// CratesCore must not do), reads a Unicode scalar at a time through a type-erased iterator,
/// keeps any field however long it grows, and knows neither line numbers nor these warnings.
public struct CSVReader: Sendable {
    /// One record, with the line it starts on.
    public struct Record: Hashable, Sendable {
        /// The 1-based physical line the record starts on.
        public var line: Int
        public var fields: [String]
        /// Set when a quoted field was still open at the end of the input: the last line
        /// of the input, so a message can name the stretch the field swallowed.
        public var unterminatedQuoteEndLine: Int?
        /// Lines inside a quoted field of this record that read as rows of their own.
        public var rowLikeLines: [Int]
        /// The record's length in bytes, when it exceeded the limit (its fields are then
        /// incomplete).
        public var tooLong: Int?

        public init(
            line: Int, fields: [String], unterminatedQuoteEndLine: Int? = nil, rowLikeLines: [Int] = [],
            tooLong: Int? = nil
        ) {
            self.line = line
            self.fields = fields
            self.unterminatedQuoteEndLine = unterminatedQuoteEndLine
            self.rowLikeLines = rowLikeLines
            self.tooLong = tooLong
        }

        /// Whether every field is empty or spaces only (a blank line, or ",,,").
        public var isBlank: Bool {
            fields.allSatisfy { $0.allSatisfy { $0 == " " || $0 == "\t" } }
        }
    }

    /// The delimiters recognised in a header, in order of preference.
    public static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    public let delimiter: UInt8
    /// Records longer than this many bytes are reported, not kept.
    public let maximumRecordLength: Int
    /// Says whether the start of a line inside a quoted field (up to its first quote) reads
    /// as a row of its own; nil: never asked.
    public var rowProbe: (@Sendable (ArraySlice<UInt8>) -> Bool)?

    private var inRecord = false
    private var startLine = 0
    private var lastLine = 0
    private var fields: [String] = []
    private var field: [UInt8] = []
    /// The current field began with a quote (text after its closing quote is appended).
    private var quoted = false
    /// Inside a quoted field now.
    private var openQuote = false
    private var length = 0
    private var rowLikeLines: [Int] = []

    public init(delimiter: UInt8 = UInt8(ascii: ","), maximumRecordLength: Int = 64 * 1024) {
        self.delimiter = delimiter
        self.maximumRecordLength = maximumRecordLength
    }

    private static let quote = UInt8(ascii: "\"")
    private static let space = UInt8(ascii: " ")

    /// Reads one physical line (without its line break), numbered `number`. Returns the
    /// record it completes; nil while a quoted field is still open.
    public mutating func read(line number: Int, bytes: ArraySlice<UInt8>) -> Record? {
        if inRecord {
            // The line break before this line was inside quotes: it belongs to the field.
            append(0x0A)
            if let rowProbe, rowProbe(bytes.prefix { $0 != Self.quote }) {
                if rowLikeLines.count < 16 { rowLikeLines.append(number) }
            }
        } else {
            inRecord = true
            startLine = number
            fields.removeAll(keepingCapacity: true)
            field.removeAll(keepingCapacity: true)
            quoted = false
            openQuote = false
            length = 0
            rowLikeLines.removeAll()
        }
        lastLine = number
        length += bytes.count
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let byte = bytes[index]
            index += 1
            if openQuote {
                if byte == Self.quote {
                    if index < end, bytes[index] == Self.quote {
                        append(Self.quote)
                        index += 1
                    } else {
                        openQuote = false
                    }
                } else {
                    append(byte)
                }
            } else if byte == delimiter {
                endField()
            } else if byte == Self.quote, !quoted, field.allSatisfy({ $0 == Self.space }) {
                // Spaces before an opening quote are dropped (`a, "b,c"`), as spreadsheets do.
                field.removeAll(keepingCapacity: true)
                quoted = true
                openQuote = true
            } else {
                append(byte)
            }
        }
        if openQuote { return nil }
        return takeRecord(unterminated: false)
    }

    /// At the end of the input: the record still open in a quoted field, if any.
    public mutating func finish() -> Record? {
        guard inRecord else { return nil }
        return takeRecord(unterminated: true)
    }

    private mutating func append(_ byte: UInt8) {
        if length <= maximumRecordLength { field.append(byte) }
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        quoted = false
    }

    private mutating func takeRecord(unterminated: Bool) -> Record {
        endField()
        inRecord = false
        openQuote = false
        return Record(
            line: startLine, fields: fields, unterminatedQuoteEndLine: unterminated ? lastLine : nil,
            rowLikeLines: rowLikeLines, tooLong: length > maximumRecordLength ? length : nil)
    }

    /// Every record of `bytes` (a whole file already in memory, or one header line).
    public static func records(
        _ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","), maximumRecordLength: Int = 64 * 1024
    ) -> [Record] {
        var reader = CSVReader(delimiter: delimiter, maximumRecordLength: maximumRecordLength)
        var splitter = ImportLineSplitter(maximumLength: max(maximumRecordLength, bytes.count))
        var records: [Record] = []
        func take(_ piece: ImportLineSplitter.Piece) {
            guard case .line(let number, let line) = piece else { return }
            if let record = reader.read(line: number, bytes: line) { records.append(record) }
        }
        splitter.feed(bytes, take)
        splitter.finish(take)
        if let record = reader.finish() { records.append(record) }
        return records
    }
}
