import Foundation
import GRDBSQLite

/// A build's index keys (catalogue-number keys as text, or barcodes' GTINs as integers, each
/// with its release) sorted while the dump is read rather than after it: held in memory up
/// to `runLength` keys, then sorted and written to a scratch file as one sorted run; at the
/// end the runs are merged and handed over in key order, so that SQLite writes the key
/// table in one pass, in order.
///
/// SQLite's own sort of the keys (`INSERT … SELECT … ORDER BY`) ran after the reading
/// threads had ended, on one core: about 1 µs a key, most of the build's serial end (1.2 s
/// of CPU at 1,000,000 releases). A run is sorted on the writing thread while the other two
/// inflate and parse, and the merge compares a key a few times where the sort compared it
/// some twenty.
///
/// The order is SQLite's for the tables' keys: text byte by byte (`BINARY`), a shorter key
/// before the longer one it begins, then the release. Text is cut at a NUL, as SQLite binds
/// a C string.
///
/// Memory: one run in hand (`runLength` keys), and at the end a buffer a run: a few
/// megabytes whatever the dump's size. The scratch file is removed from its directory as
/// soon as it is made: nothing is left behind, even by a build that is killed.
///
/// Not Sendable: the build's thread alone uses it.
final class CatalogueKeyRuns {
    enum Kind { case text, integer }

    /// Keys a run holds: a run sorted in hand is at most a few megabytes, and the last run,
    /// sorted at the end, takes a few milliseconds.
    static let runLength = 1 << 17
    /// `runLength`, smaller in the tests that merge many runs of a few keys.
    @exclusivity(unchecked) var runLength = CatalogueKeyRuns.runLength
    /// Bytes of text keys a run holds at most (long free-form numbers).
    static let runBytes = 4 << 20
    /// Bytes read at a time from a run when they are merged.
    static let readSize = 1 << 16

    /// A key in hand: its first 8 bytes as a big-endian number (zeros after a shorter key;
    /// an integer key is this alone), where its bytes are in `bytes`, how many, and the
    /// release.
    struct Entry {
        var prefix: UInt64
        var offset: UInt32
        var length: UInt32
        var release: Int64
    }

    /// A run on disk: where it starts in the scratch file and how many bytes it has.
    private struct Run {
        var start: Int64
        var count: Int64
    }

    let kind: Kind
    /// The catalogue's path, for the messages; the scratch file goes in its directory, where
    /// the build checked the free space.
    private let path: String
    // One thread uses it, so the runtime's check of each access to its state (a few a
    // key, millions of keys) guards nothing.
    @exclusivity(unchecked) private var descriptor: Int32 = -1
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    @exclusivity(unchecked) private var runs: [Run] = []
    @exclusivity(unchecked) private var fileSize: Int64 = 0

    /// Keys for the catalogue at `path`.
    init(_ kind: Kind, beside path: String) {
        self.kind = kind
        self.path = path
        entries.reserveCapacity(min(Self.runLength, 1 << 12))
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Adds a text key (`kind` `.text`).
    func add(_ key: String, release: Int) throws(CatalogueFileError) {
        var key = key
        key.withUTF8 { utf8 in
            let length = utf8.firstIndex(of: 0) ?? utf8.count
            let offset = bytes.count
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<length]))
            entries.append(Entry(
                prefix: Self.prefix(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[..<length])),
                offset: UInt32(offset), length: UInt32(length), release: Int64(release)))
        }
        if entries.count >= runLength || bytes.count >= Self.runBytes { try writeRun() }
    }

    /// Adds an integer key (`kind` `.integer`; at most `Int64.max`, as SQLite stores it).
    func add(_ key: UInt64, release: Int) throws(CatalogueFileError) {
        entries.append(Entry(prefix: key, offset: 0, length: 0, release: Int64(release)))
        if entries.count >= runLength { try writeRun() }
    }

    /// Hands over every key in order: `body` is called with a text key's bytes (empty for
    /// an integer key), the integer key (or the text's first bytes) and the release. Once,
    /// at the end of the build.
    func merge(_ body: (UnsafeRawBufferPointer, UInt64, Int64) throws(CatalogueFileError) -> Void) throws(CatalogueFileError) {
        // The run in hand is merged from memory, not written first.
        sortInHand()
        var readers: [Reader] = []
        defer { for reader in readers { reader.deallocate() } }
        for run in runs {
            let reader = Reader(run: run, kind: kind, path: path)
            readers.append(reader)
            try reader.advance(descriptor)
        }
        try bytes.withUnsafeBufferPointer { (typed) throws(CatalogueFileError) in
            let memory = UnsafeRawBufferPointer(typed)
            var next = 0
            let inHand = entries.count
            // A heap of the runs (the one in hand is `readers.count`) by their current key.
            var heap: [Int] = readers.indices.filter { !readers[$0].ended }
            if next < inHand { heap.append(readers.count) }
            func current(_ run: Int) -> (Entry, UnsafeRawPointer?) {
                if run == readers.count {
                    return (entries[next], memory.baseAddress.map { $0 + Int(entries[next].offset) })
                }
                return (readers[run].entry, UnsafeRawPointer(readers[run].buffer) + Int(readers[run].entry.offset))
            }
            func less(_ a: Int, _ b: Int) -> Bool {
                let (x, xBytes) = current(a)
                let (y, yBytes) = current(b)
                return Self.less(x, xBytes, y, yBytes)
            }
            func siftDown(_ start: Int) {
                var parent = start
                while true {
                    let left = 2 * parent + 1
                    guard left < heap.count else { return }
                    var child = left
                    if left + 1 < heap.count, less(heap[left + 1], heap[left]) { child = left + 1 }
                    guard less(heap[child], heap[parent]) else { return }
                    heap.swapAt(child, parent)
                    parent = child
                }
            }
            for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
            while let top = heap.first {
                let (entry, keyBytes) = current(top)
                try body(UnsafeRawBufferPointer(start: keyBytes, count: Int(entry.length)), entry.prefix, entry.release)
                let ended: Bool
                if top == readers.count {
                    next += 1
                    ended = next == inHand
                } else {
                    try readers[top].advance(descriptor)
                    ended = readers[top].ended
                }
                if ended {
                    heap[0] = heap[heap.count - 1]
                    heap.removeLast()
                }
                siftDown(0)
            }
        }
        entries = []
        bytes = []
    }

    /// Sorts the keys in hand.
    private func sortInHand() {
        bytes.withUnsafeBytes { memory in
            let base = memory.baseAddress
            entries.sort { a, b in
                Self.less(a, base.map { $0 + Int(a.offset) }, b, base.map { $0 + Int(b.offset) })
            }
        }
    }

    /// Sorts the keys in hand and writes them to the scratch file as a run.
    private func writeRun() throws(CatalogueFileError) {
        sortInHand()
        if descriptor < 0 { descriptor = try scratchFile(in: StoreLocation.directoryPart(of: path)) }
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * (kind == .integer ? 16 : 12) + bytes.count)
        bytes.withUnsafeBufferPointer { memory in
            for entry in entries {
                if kind == .text {
                    var length = entry.length
                    while length >= 0x80 {
                        out.append(UInt8(length & 0x7F) | 0x80)
                        length >>= 7
                    }
                    out.append(UInt8(length))
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: memory[Int(entry.offset)..<Int(entry.offset + entry.length)]))
                } else {
                    withUnsafeBytes(of: entry.prefix.littleEndian) { out.append(contentsOf: $0) }
                }
                withUnsafeBytes(of: entry.release.littleEndian) { out.append(contentsOf: $0) }
            }
        }
        try out.withUnsafeBufferPointer { (data) throws(CatalogueFileError) in
            var written = 0
            while written < data.count {
                let n = pwrite(descriptor, data.baseAddress.map { $0 + written }, data.count - written, off_t(fileSize + Int64(written)))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno)
                }
                written += n
            }
        }
        runs.append(Run(start: fileSize, count: Int64(out.count)))
        fileSize += Int64(out.count)
        entries.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// A file in `directory`, removed from it at once (open, it stays until closed).
    private func scratchFile(in directory: String) throws(CatalogueFileError) -> Int32 {
        var template = Array((directory.isEmpty ? "." : directory).utf8CString.dropLast()) + Array("/.crates-keys-XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        unlink(template)
        return descriptor
    }

    /// The build's failure for `code` (errno) of the scratch file, in the words SQLite's
    /// failures are said in.
    private func failure(_ code: Int32) -> CatalogueFileError {
        Self.failure(code, path: path)
    }

    fileprivate static func failure(_ code: Int32, path: String) -> CatalogueFileError {
        if code == ENOSPC || code == EDQUOT { return .cannotWrite(path: path, reason: CatalogueFileError.writingWords(sqliteCode: SQLITE_FULL)) }
        return .cannotWrite(path: path, reason: "cannot sort the keys: \(CatalogueFileError.writingWords(sqliteCode: SQLITE_IOERR)) (\(String(cString: strerror(code))))")
    }

    /// The first 8 bytes of `key`, big-endian, zeros after a shorter key: numbers that
    /// order as the keys do, and decide most comparisons alone.
    @inline(__always)
    static func prefix(_ key: UnsafeRawBufferPointer) -> UInt64 {
        var value: UInt64 = 0
        let n = min(key.count, 8)
        for i in 0..<n { value |= UInt64(key[i]) << UInt64(56 - 8 * i) }
        return value
    }

    /// The keys' order: `x` before `y`. Equal prefixes of keys with no NUL mean the shorter,
    /// if either has at most 8 bytes, is the start of the other.
    @inline(__always)
    static func less(_ x: Entry, _ xBytes: UnsafeRawPointer?, _ y: Entry, _ yBytes: UnsafeRawPointer?) -> Bool {
        if x.prefix != y.prefix { return x.prefix < y.prefix }
        if x.length != y.length || x.length > 8 {
            if x.length > 8, y.length > 8, let xBytes, let yBytes {
                let order = memcmp(xBytes + 8, yBytes + 8, Int(min(x.length, y.length)) - 8)
                if order != 0 { return order < 0 }
            }
            if x.length != y.length { return x.length < y.length }
        }
        return x.release < y.release
    }

    /// A run read back a buffer at a time, its current key decoded.
    private final class Reader {
        let run: Run
        let kind: Kind
        let path: String
        var buffer: UnsafeMutablePointer<UInt8>
        var capacity: Int
        /// Bytes of the run read into the buffer so far, and where the next record starts in
        /// the buffer and where the bytes read end.
        var consumed: Int64 = 0
        var position = 0
        var filled = 0
        var entry = Entry(prefix: 0, offset: 0, length: 0, release: 0)
        var ended = false

        init(run: Run, kind: Kind, path: String) {
            self.run = run
            self.kind = kind
            self.path = path
            capacity = CatalogueKeyRuns.readSize
            buffer = .allocate(capacity: capacity)
        }

        func deallocate() { buffer.deallocate() }

        /// Makes at least `needed` bytes from `position` available; false at the run's end.
        private func have(_ needed: Int, _ descriptor: Int32) throws(CatalogueFileError) -> Bool {
            if filled - position >= needed { return true }
            if position > 0 {
                (buffer).update(from: buffer + position, count: filled - position)
                filled -= position
                position = 0
            }
            if needed > capacity {
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: needed)
                larger.update(from: buffer, count: filled)
                buffer.deallocate()
                buffer = larger
                capacity = needed
            }
            while filled < needed, consumed < run.count {
                let want = min(capacity - filled, Int(run.count - consumed))
                let n = pread(descriptor, buffer + filled, want, off_t(run.start + consumed))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CatalogueKeyRuns.failure(errno, path: path)
                }
                if n == 0 { throw CatalogueKeyRuns.failure(EIO, path: path) }
                filled += n
                consumed += Int64(n)
            }
            return filled - position >= needed
        }

        /// Decodes the next key, or sets `ended`.
        func advance(_ descriptor: Int32) throws(CatalogueFileError) {
            guard try have(1, descriptor) else {
                ended = true
                return
            }
            if kind == .integer {
                guard try have(16, descriptor) else { throw CatalogueKeyRuns.failure(EIO, path: path) }
                let raw = UnsafeRawPointer(buffer + position)
                entry = Entry(
                    prefix: UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)), offset: 0, length: 0,
                    release: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: Int64.self)))
                position += 16
                return
            }
            // The length: a varint of at most 5 bytes.
            _ = try have(5, descriptor)
            var length = 0
            var shift = 0
            var at = position
            while true {
                guard at < filled else { throw CatalogueKeyRuns.failure(EIO, path: path) }
                let byte = buffer[at]
                at += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            let header = at - position
            guard try have(header + length + 8, descriptor) else { throw CatalogueKeyRuns.failure(EIO, path: path) }
            let start = position + header
            let key = UnsafeRawBufferPointer(start: buffer + start, count: length)
            entry = Entry(
                prefix: CatalogueKeyRuns.prefix(key), offset: UInt32(start), length: UInt32(length),
                release: Int64(littleEndian: UnsafeRawPointer(buffer + start + length).loadUnaligned(as: Int64.self)))
            position = start + length + 8
        }
    }
}

