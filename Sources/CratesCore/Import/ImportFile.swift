/// An import file, read and validated: every line is either an entry or a refusal before
/// anything is written.
///
/// Two formats, told apart by the first line that is not blank or a `#` comment:
/// - **Lines**: one barcode per line, in any form `GTIN.parse` accepts (spaced groups,
///   UPC-E, GS1 element strings…), or a Discogs release (`r249504`, a release URL). Blank
///   lines and `#` comments (a whole line, or from a `#` after a space) are ignored; CRLF
///   line ends, a UTF-8 byte order mark and surrounding spaces are tolerated.
/// - **CSV** (RFC 4180): a header row naming a `barcode`, `gtin`, `upc` or `ean` column, or a
///   `release_id` column, as in Discogs' collection export (`Catalog#,Artist,Title,Label,
///   Format,Rating,Released,release_id,CollectionFolder,Date Added,…,Collection Notes`) and
///   crates' own export (the same plus `Barcode`). A row is keyed on its release id when it
///   has one, else on its barcode; a `note`/`notes` column (else `Collection Notes`) is kept
///   as the note, and `Date Added` as the date the copy was added. A CSV without barcodes
///   works too (issue 14): a row with neither a barcode nor a release id is described by
///   its `artist`, `title`, `catno` (`Catalog#`), `label`, `year` (`Released`), `country` and
///   `format` columns, searched on Discogs, and keyed on them for the duplicate rule. Other
///   columns are ignored.
///
/// Valid barcodes that are not records (an ISBN, an ISSN, a coupon, a shop's price label)
/// are refused with the reason, as are unreadable ones.
public struct ImportFile: Hashable, Sendable {
    /// How the file was read: one barcode per line, or CSV with these columns.
    public enum Format: Hashable, Sendable {
        case lines
        case csv(ImportColumns)
    }

    /// Decided by the first line that is not blank or a comment.
    public var format: Format
    /// The valid lines, in file order.
    public var entries: [ImportEntry]
    /// The refused lines, in file order.
    public var refusals: [ImportRefusal]
    /// Physical lines in the file.
    public var lineCount: Int

    /// A file already read (`parse(_:)` makes them from bytes).
    public init(format: Format, entries: [ImportEntry], refusals: [ImportRefusal], lineCount: Int) {
        self.format = format
        self.entries = entries
        self.refusals = refusals
        self.lineCount = lineCount
    }

    /// Reads the file's bytes. Throws only when the file as a whole cannot be read (UTF-16,
    /// a CSV header without a key column); a bad line is a refusal. With `force`, barcodes
    /// that are not a record's (an ISBN…) are taken (`BarcodeAdmission`).
    public static func parse(_ input: [UInt8], force: Bool = false) throws(ImportError) -> ImportFile {
        var start = 0
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        if input.starts(with: [0xFF, 0xFE]) || input.starts(with: [0xFE, 0xFF])
            || (input.count >= 2 && (input[0] == 0 || input[1] == 0))
        {
            throw .utf16
        }
        var lines = LineScanner(input, from: start)
        let lineCount = Self.countLines(input, from: start)
        // The first line with content decides the format.
        while let line = lines.next() {
            let text = String(decoding: input[line.range], as: UTF8.self)
            let content = LineFormat.stripComment(text)
            guard !content.isEmpty else { continue }
            if let columns = try ImportColumns.header(text, line: line.number) {
                var csv = CSVFormat(columns: columns, force: force)
                csv.read(CSVReader(input, from: line.nextStart, line: line.number + 1))
                return ImportFile(format: .csv(columns), entries: csv.entries, refusals: csv.refusals, lineCount: lineCount)
            }
            var plain = LineFormat(force: force)
            plain.read(line: line.number, text: text)
            while let line = lines.next() { plain.read(line: line.number, bytes: input[line.range]) }
            return ImportFile(format: .lines, entries: plain.entries, refusals: plain.refusals, lineCount: lineCount)
        }
        return ImportFile(format: .lines, entries: [], refusals: [], lineCount: lineCount)
    }

    /// Line breaks counted as `LineScanner` counts them (CRLF, LF or a lone CR).
    static func countLines(_ input: [UInt8], from start: Int) -> Int {
        var scanner = LineScanner(input, from: start)
        var count = 0
        while scanner.next() != nil { count += 1 }
        return count
    }
}

/// Physical lines of a byte buffer, each ended by CRLF, LF or a lone CR (or the end).
struct LineScanner {
    struct Line {
        var number: Int
        var range: Range<Int>
        /// Where the next line starts.
        var nextStart: Int
    }

    private let bytes: [UInt8]
    private var index: Int
    private var number = 0

    init(_ bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        self.index = start
    }

    mutating func next() -> Line? {
        guard index < bytes.count else { return nil }
        let start = index
        number += 1
        while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
        let end = index
        if index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 2 } else { index += 1 }
        }
        return Line(number: number, range: start..<end, nextStart: index)
    }
}
