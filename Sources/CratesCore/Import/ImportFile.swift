/// An import file, read and validated: every line is either an entry or a refusal before
/// anything is written.
///
/// Two formats, told apart by the first line that is not blank or a `#` comment:
/// - **Lines**: one barcode per line, in any form `GTIN.parse` accepts (spaced groups,
///   UPC-E, GS1 element strings…), or a Discogs release (`r249504`, a release URL). Blank
///   lines and `#` comments (a whole line, or from a `#` after a space) are ignored; CRLF
///   line ends, a UTF-8 byte order mark and surrounding spaces are tolerated.
/// - **CSV** (RFC 4180), separated by commas, semicolons or tabs: a header row naming a
///   `barcode`, `gtin`, `upc` or `ean` column, or a `release_id` column, as in Discogs'
///   collection export (`Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,
///   CollectionFolder,Date Added,…,Collection Notes`) and crates' own export (the same plus
///   `Barcode`). A row is keyed on its release id when it has one, else on its barcode; a
///   `note`/`notes` column (else `Collection Notes`) is kept as the note, and `Date Added` as
///   the date the copy was added. A CSV without barcodes works too: a row with
///   neither a barcode nor a release id is described by its `artist`, `title`, `catno`
///   (`Catalog#`), `label`, `year` (`Released`), `country` and `format` columns, searched on
///   Discogs, and keyed on them for the duplicate rule. Other columns are ignored.
///
/// Valid barcodes that are not records (an ISBN, an ISSN, a coupon, a shop's price label)
/// are refused with the reason, as are unreadable ones. `ImportParser` reads a file as a
/// stream, within limits (see `ImportParser.Limits`).
public struct ImportFile: Hashable, Sendable {
    /// How the file was read: one barcode per line, or CSV with these columns.
    public enum Format: Hashable, Sendable {
        case lines
        case csv(ImportColumns)
    }

    /// Decided by the first line that is not blank or a comment.
    public var format: Format
    /// The valid lines, in file order.
    public var entries: ImportEntries
    /// The refused lines, in file order: all of them, or the first
    /// `ImportParser.Limits.refusalsKept` (then `refusalCount` says how many there were).
    public var refusals: [ImportRefusal]
    /// How many lines were refused in all (`refusals` may hold only the first ones).
    public var refusalCount: Int
    /// How many of the refused lines hold a valid barcode that is not a record's.
    public var notARecordCount: Int
    /// Rows read that may not be what was meant, in file order.
    public var warnings: [ImportWarning]
    /// Physical lines in the file.
    public var lineCount: Int

    /// A file already read (`parse(_:)` and `ImportParser` make them from bytes).
    public init(
        format: Format, entries: ImportEntries, refusals: [ImportRefusal], refusalCount: Int? = nil,
        notARecordCount: Int? = nil, warnings: [ImportWarning] = [], lineCount: Int
    ) {
        self.format = format
        self.entries = entries
        self.refusals = refusals
        self.refusalCount = refusalCount ?? refusals.count
        self.notARecordCount = notARecordCount ?? refusals.count(where: { $0.reason.isNotARecord })
        self.warnings = warnings
        self.lineCount = lineCount
    }

    /// A file already read, from an array of entries.
    public init(format: Format, entries: [ImportEntry], refusals: [ImportRefusal], lineCount: Int) {
        self.init(format: format, entries: ImportEntries(entries), refusals: refusals, lineCount: lineCount)
    }

    /// Reads a whole file's bytes (see `ImportParser` to read a stream). Throws only when the
    /// file as a whole cannot be read (UTF-16, binary, a CSV header without a key column or
    /// with one twice); a bad line is a refusal. With `force`, barcodes that are not a
    /// record's (an ISBN…) are taken (`BarcodeAdmission`).
    public static func parse(_ input: [UInt8], strict: Bool = false, force: Bool = false) throws(ImportError) -> ImportFile {
        var parser = ImportParser(strict: strict, force: force)
        try parser.consume(input)
        return try parser.finish()
    }
}

/// Reads an import file as it arrives, chunk by chunk, into an `ImportFile`, holding only
/// the entries (compactly, see `ImportEntries`) and never more than one line of text:
///
/// - UTF-16 and binary input (a NUL byte anywhere, or control characters in more than 5% of
///   the first 8 KB) is refused by the chunk that shows it, so `/dev/zero` or `/dev/urandom`
///   stops at once instead of being read to the end of the disk.
/// - A line longer than `Limits.maximumLineLength` (4 KB: a barcode line is short) is a
///   refusal, counted and skipped without being kept; a CSV row may be longer, up to
///   `Limits.maximumRecordLength` (64 KB, notes can be long).
/// - Only the first `Limits.refusalsKept` refusals are kept; the rest are counted.
///
/// I/O free: whoever reads the file (`ImportInput` in CratesApp) calls `consume` with each
/// chunk, and may stop calling it (a SIGINT) at any point.
public struct ImportParser: Sendable {
    /// How much of anything is kept.
    public struct Limits: Hashable, Sendable {
        /// The longest line of the one-barcode-per-line format, and of a CSV header.
        public var maximumLineLength = 4 * 1024
        /// The longest CSV row (its lines together).
        public var maximumRecordLength = 64 * 1024
        /// Refusals kept with their text; more are only counted.
        public var refusalsKept = 10_000

        public init() {}
    }

    public let limits: Limits
    /// With `strict`, a row that would be a warning is refused instead.
    public let strict: Bool
    /// With `force`, barcodes that are not a record's (an ISBN…) are taken (`--force`).
    public let force: Bool
    /// Bytes looked at so far (those of the first 64 wait until there are 64, or the end).
    private var bytesRead = 0

    /// Bytes consumed so far.
    public var bytesConsumed: Int { bytesRead + head.count }

    private enum State: Sendable {
        /// Before the first bytes are known (a byte order mark, UTF-16).
        case start
        /// Before the first line with content.
        case undecided
        case lines
        case csv
    }

    private var state = State.start
    private var head: [UInt8] = []
    private var splitter: ImportLineSplitter
    private var collector: ImportCollector
    private var format = ImportFile.Format.lines
    /// The CSV rows' reader, once the header is known.
    private var csv: CSVFormat?
    /// Control characters among the first `sniffLength` bytes.
    private var controls = 0

    /// Bytes looked at to tell text from binary data.
    static let sniffLength = 8 * 1024

    /// `spill` keeps what CSV rows hold besides their key (see `ImportEntries`): memory by
    /// default; a real import gives a temporary file, so that its memory does not grow with
    /// the rows' text.
    /// Whether Discogs' `CollectionFolder` column makes (or joins) places, when the file has
    /// no `location` column; set before the first bytes.
    public var folderPlaces = true

    public init(limits: Limits = Limits(), strict: Bool = false, force: Bool = false, spill: any ImportSpill = MemorySpill()) {
        self.limits = limits
        self.strict = strict
        self.force = force
        splitter = ImportLineSplitter(maximumLength: max(limits.maximumLineLength, limits.maximumRecordLength))
        collector = ImportCollector(refusalsKept: limits.refusalsKept, spill: spill)
    }

    /// The valid entries read so far.
    public var entryCount: Int { collector.entries.count }

    /// Reads the next bytes of the file. Throws as soon as the input shows it is UTF-16 or
    /// binary, or its header cannot be used.
    public mutating func consume(_ chunk: [UInt8]) throws(ImportError) {
        guard !chunk.isEmpty else { return }
        if case .start = state {
            head += chunk
            // The first 64 bytes tell a byte order mark and UTF-16's NUL pattern.
            if head.count < 64 { return }
            try begin()
            return
        }
        try take(chunk)
    }

    /// At the end of the input: the file as read.
    public mutating func finish() throws(ImportError) -> ImportFile {
        if case .start = state { try begin() }
        var pieces: [ImportLineSplitter.Piece] = []
        splitter.finish { pieces.append($0) }
        for piece in pieces { try handle(piece) }
        csv?.finish(into: &collector)
        return ImportFile(
            format: format, entries: collector.entries, refusals: collector.refusals,
            refusalCount: collector.refusalCount, notARecordCount: collector.notARecordCount,
            warnings: collector.warnings, lineCount: splitter.lineCount)
    }

    /// The first bytes: a file of a kind given by mistake (an archive, a database…) is
    /// refused saying what it is; a UTF-8 byte order mark is dropped; UTF-16 is refused.
    private mutating func begin() throws(ImportError) {
        var bytes = head
        head = []
        state = .undecided
        if let format = BinaryFormat(signature: bytes) {
            throw .format(format)
        } else if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.removeFirst(3)
            bytesRead += 3
        } else if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || Self.looksLikeUTF16(bytes) {
            throw .utf16
        }
        try take(bytes)
    }

    /// ASCII text in UTF-16 without a byte order mark: every other byte NUL, the others not.
    static func looksLikeUTF16(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        let sample = bytes.prefix(64 & ~1)
        for nulAt in 0...1 {
            let pattern = sample.indices.allSatisfy { index in
                (index % 2 == nulAt) == (sample[index] == 0)
            }
            if pattern { return true }
        }
        return false
    }

    private mutating func take(_ chunk: [UInt8]) throws(ImportError) {
        try checkText(chunk)
        bytesRead += chunk.count
        var pieces: [ImportLineSplitter.Piece] = []
        splitter.feed(chunk) { pieces.append($0) }
        for piece in pieces { try handle(piece) }
    }

    /// Refuses binary input: a NUL byte anywhere (no text has one), or, in the first 8 KB,
    /// control characters other than tab, line feed, form feed and carriage return in more
    /// than one byte of twenty.
    private mutating func checkText(_ chunk: [UInt8]) throws(ImportError) {
        if let nul = chunk.firstIndex(of: 0) { throw .binary(offset: bytesRead + nul) }
        guard bytesRead < Self.sniffLength else { return }
        let sniffed = chunk.prefix(Self.sniffLength - bytesRead)
        for byte in sniffed where (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D) || byte == 0x7F {
            controls += 1
        }
        let seen = bytesRead + sniffed.count
        if controls >= 8, controls * 20 > seen { throw .binary(offset: 0) }
    }

    private mutating func handle(_ piece: ImportLineSplitter.Piece) throws(ImportError) {
        switch state {
        case .start, .undecided:
            guard case .line(let number, let bytes) = piece, bytes.count <= limits.maximumLineLength else {
                refuseLong(piece)
                return
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard !LineFormat.stripComment(text).isEmpty else { return }
            // JSON is neither format: its lines would each be refused as a barcode (and a
            // release URL in one taken as that release).
            if let first = text.trimmingWhitespace().first, first == "{" || first == "[" {
                throw .json(line: number, cratesExport: text.trimmingWhitespace().hasPrefix("{\"crates\":"))
            }
            if var columns = try ImportColumns.header(bytes, line: number) {
                // `--no-folder-places`: Discogs' folders stay Discogs' alone; no place is read
                // from them (a `location` column still is).
                if !folderPlaces, columns.placesFromFolders { columns.location = nil }
                format = .csv(columns)
                csv = CSVFormat(columns: columns, limits: limits, strict: strict, force: force)
                state = .csv
                return
            }
            state = .lines
            LineFormat.read(line: number, text: text, force: force, into: &collector)
        case .lines:
            guard case .line(let number, let bytes) = piece, bytes.count <= limits.maximumLineLength else {
                refuseLong(piece)
                return
            }
            LineFormat.read(line: number, bytes: bytes, force: force, into: &collector)
        case .csv:
            csv?.read(piece, into: &collector)
        }
    }

    private mutating func refuseLong(_ piece: ImportLineSplitter.Piece) {
        switch piece {
        case .line(let number, let bytes):
            // Its start is at hand (a line up to the splitter's 64 KB): shown, shortened.
            collector.refuse(ImportRefusal(
                line: number, input: String(decoding: bytes.prefix(256), as: UTF8.self),
                reason: .tooLong(length: bytes.count, limit: limits.maximumLineLength)))
        case .tooLong(let number, let length):
            collector.refuse(ImportRefusal(
                line: number, input: "", reason: .tooLong(length: length, limit: limits.maximumLineLength)))
        }
    }
}

/// Where both formats put what they read: the entries, and the refusals up to a bound.
struct ImportCollector: Sendable {
    let refusalsKept: Int
    var entries: ImportEntries
    var refusals: [ImportRefusal] = []
    var refusalCount = 0
    var notARecordCount = 0
    var warnings: [ImportWarning] = []

    init(refusalsKept: Int, spill: any ImportSpill) {
        self.refusalsKept = refusalsKept
        entries = ImportEntries(spill: spill)
    }

    mutating func add(_ entry: ImportEntry) {
        entries.append(entry)
    }

    mutating func refuse(_ refusal: ImportRefusal) {
        refusalCount += 1
        if refusal.reason.isNotARecord { notARecordCount += 1 }
        if refusals.count < refusalsKept { refusals.append(refusal) }
    }

    mutating func warn(_ warning: ImportWarning) {
        if warnings.count < refusalsKept { warnings.append(warning) }
    }
}
