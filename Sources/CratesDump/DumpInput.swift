import CExpat
import Foundation

/// The dump's bytes, inflated (`GzipStream`: a `.xml.gz`, an uncompressed `.xml` as it is, or
/// standard input, `-`), cut into chunks that end just after a `</release>`, so that every
/// chunk holds whole releases: a release the parser refuses can be stepped over within its
/// chunk.
///
/// The file is opened at the first `next()`, on the thread that reads: a FIFO nobody writes
/// blocks there, not the thread that would stop the build.
final class DumpInput {
    /// A run of whole releases and where it stands in the file.
    struct Chunk: Sendable {
        /// The releases, without the elements the catalogue does not read (`ElementStripper`).
        var bytes: [UInt8]
        /// Where this chunk begins in the uncompressed dump.
        var offset: Int64
        /// How many bytes of the dump it stands for (`bytes` and what was stripped).
        var originalLength: Int
        /// Where `bytes` begins in the stream of stripped bytes given to the parser.
        var strippedOffset: Int64
        /// What was stripped: at each position of `bytes`, how many bytes were removed before it.
        var removals: [ElementStripper.Removal]
        /// How much of the file (compressed) was read when it was cut.
        var fileBytesRead: Int64
        /// True for the last chunk: what follows the last `</release>` (`</releases>`).
        var isLast: Bool

        static let empty = Chunk(
            bytes: [], offset: 0, originalLength: 0, strippedOffset: 0, removals: [], fileBytesRead: 0, isLast: false)
    }

    /// How much is inflated at a time.
    static let readSize = 1 << 20
    private static let endTag = Array("</release>".utf8)

    let path: String
    private var stream: GzipStream?
    /// The inflated bytes not yet cut into a chunk: `buffer[0..<used]`.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var used = 0
    private var offset: Int64 = 0
    private var strippedOffset: Int64 = 0
    private var finished = false

    /// Checks that `path` ("-" for standard input) names a file or a FIFO that exists.
    init(path: String) throws(DumpError) {
        self.path = path
        if path != "-" {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw .unreadable(path: path, reason: errno == ENOENT ? "there is no such file" : String(cString: strerror(errno)))
            }
            guard (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFIFO else {
                throw .unreadable(path: path, reason: "it is not a file")
            }
        }
        capacity = 2 * Self.readSize
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// The file's size in bytes (nil for standard input or a pipe).
    static func size(of path: String) -> Int64? {
        guard path != "-" else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    private func open() throws(DumpError) -> GzipStream {
        if let stream { return stream }
        let descriptor = path == "-" ? dup(STDIN_FILENO) : Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let opened = GzipStream(descriptor: descriptor)
        stream = opened
        return opened
    }

    /// The next chunk; nil at the end.
    func next() throws(DumpError) -> Chunk? {
        guard !finished else { return nil }
        let stream = try open()
        while true {
            if capacity - used < Self.readSize { grow() }
            let count: Int
            do {
                count = try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer + used, count: Self.readSize))
            } catch {
                throw .damaged(path: path, reason: error.reason, offset: error.offset)
            }
            let start = used
            used += count
            if count == 0 {
                finished = true
                return take(used, isLast: true, fileBytesRead: stream.fileBytesRead)
            }
            if let end = Self.lastEndTag(in: UnsafeBufferPointer(start: buffer, count: used), from: start) {
                return take(end, isLast: false, fileBytesRead: stream.fileBytesRead)
            }
        }
    }

    /// Room for another read: the buffer doubles.
    private func grow() {
        let larger = max(2 * capacity, used + Self.readSize)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        grown.update(from: buffer, count: used)
        buffer.deallocate()
        buffer = grown
        capacity = larger
    }

    private func take(_ length: Int, isLast: Bool, fileBytesRead: Int64) -> Chunk {
        let stripped = ElementStripper.strip(UnsafeBufferPointer(start: buffer, count: length))
        let chunk = Chunk(
            bytes: stripped.bytes, offset: offset, originalLength: length, strippedOffset: strippedOffset,
            removals: stripped.removals, fileBytesRead: fileBytesRead, isLast: isLast)
        if used > length { buffer.update(from: buffer + length, count: used - length) }
        used -= length
        offset += Int64(length)
        strippedOffset += Int64(stripped.bytes.count)
        return chunk
    }

    /// The offset in the uncompressed dump of `local`, a position in `chunk.bytes`.
    static func originalOffset(_ local: Int, in chunk: Chunk) -> Int64 {
        var removed = 0
        for removal in chunk.removals {
            guard removal.position <= local else { break }
            removed = removal.removedBefore
        }
        return chunk.offset + Int64(local + removed)
    }

    /// The index just past the last `</release>` in `bytes`, looking at what was added since
    /// `from` (and the tag's length before it, for a tag split across reads).
    static func lastEndTag(in buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let tag = endTag
        let lowest = max(0, from - tag.count)
        var index = buffer.count - tag.count
        while index >= lowest {
            if buffer[index] == UInt8(ascii: "<"), buffer[index + 1] == UInt8(ascii: "/") {
                var match = true
                for k in 2..<tag.count where buffer[index + k] != tag[k] {
                    match = false
                    break
                }
                if match { return index + tag.count }
            }
            index -= 1
        }
        return nil
    }
}
