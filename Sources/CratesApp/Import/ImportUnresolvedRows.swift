import CratesCore

/// The rows known by release id only that an import did not add, in the order they were
/// appended (file order), for the closing list and `--report`: kept in the import's spill
/// (`FileSpill`, a temporary file, for a real import), 24 bytes a row, a block of rows at a
/// time; memory holds their count, the last block and each reason once. Held in memory, a
/// Discogs export imported without lookups (every row listed) took about 200 bytes a row, and
/// an endless file would exhaust memory.
///
/// Copies share the spill (it is only ever appended to), each reading the rows appended
/// through it.
public struct ImportUnresolvedRows: Sequence, Sendable, ExpressibleByArrayLiteral {
    private let spill: any ImportSpill
    /// Where each full block of rows is in `spill`.
    private var blocks: [UInt64] = []
    /// The rows after the last full block, encoded.
    private var tail: [UInt8] = []
    /// Each reason once, in the order first met; a row holds its index.
    private var reasons: [ImportUnresolved.Reason] = []
    private var reasonIndex: [ImportUnresolved.Reason: UInt32] = [:]
    /// The rows appended.
    public private(set) var count = 0

    /// A row: its line (32 bits), its reason's index (32 bits), its barcode as
    /// `GTIN.gtin14Value` (0 for none) and its release id (0 for none).
    private static let rowSize = 24
    /// Rows a block holds (96 KB: well under the spill's 1 MB a place).
    private static let blockRows = 4096

    /// No rows yet; they go to `spill`.
    public init(spill: any ImportSpill = MemorySpill()) {
        self.spill = spill
    }

    /// `rows`, in memory (for tests and small reports).
    public init(arrayLiteral rows: ImportUnresolved...) {
        self.init()
        for row in rows { append(row) }
    }

    public var isEmpty: Bool { count == 0 }

    public mutating func append(_ row: ImportUnresolved) {
        let reason: UInt32
        if let known = reasonIndex[row.reason] {
            reason = known
        } else {
            reason = UInt32(clamping: reasons.count)
            reasons.append(row.reason)
            reasonIndex[row.reason] = reason
        }
        Self.put(UInt64(UInt32(clamping: row.line)) | UInt64(reason) << 32, into: &tail)
        Self.put(row.gtin?.gtin14Value ?? 0, into: &tail)
        Self.put(UInt64(clamping: row.releaseID ?? 0), into: &tail)
        count += 1
        if tail.count == Self.blockRows * Self.rowSize {
            blocks.append(spill.append(tail))
            tail.removeAll(keepingCapacity: true)
        }
    }

    /// Why the rows could not all be read back (a read of the temporary file failed: the
    /// rows it held are left out of the list), else nil.
    public var failure: String? { blocks.isEmpty ? nil : spill.failure }

    public func makeIterator() -> Iterator { Iterator(rows: self) }

    /// Reads the rows back a block at a time.
    public struct Iterator: IteratorProtocol {
        let rows: ImportUnresolvedRows
        /// The next block to read; `blocks.count` is the tail.
        var block = 0
        var bytes: [UInt8] = []
        var offset = 0

        public mutating func next() -> ImportUnresolved? {
            while offset + ImportUnresolvedRows.rowSize > bytes.count {
                guard block <= rows.blocks.count else { return nil }
                // A block that cannot be read back comes empty, and is passed over.
                bytes = block < rows.blocks.count ? rows.spill.read(rows.blocks[block]) : rows.tail
                block += 1
                offset = 0
            }
            let first = ImportUnresolvedRows.get(bytes, offset)
            let gtin = ImportUnresolvedRows.get(bytes, offset + 8)
            let release = ImportUnresolvedRows.get(bytes, offset + 16)
            offset += ImportUnresolvedRows.rowSize
            let reason = Int(first >> 32)
            return ImportUnresolved(
                line: Int(first & 0xFFFF_FFFF), gtin: gtin == 0 ? nil : GTIN(gtin14Value: gtin),
                releaseID: release == 0 ? nil : Int(clamping: release),
                reason: rows.reasons.indices.contains(reason) ? rows.reasons[reason] : .failed("unreadable"))
        }
    }

    private static func put(_ value: UInt64, into bytes: inout [UInt8]) {
        var value = value
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: value))
            value >>= 8
        }
    }

    private static func get(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (offset..<offset + 8).reversed() { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
