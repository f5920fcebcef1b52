import CZlib
import Foundation

/// The dump's bytes, inflated: a `.xml.gz` through zlib, an uncompressed `.xml` as it is
/// (gzread reads a file that is not gzip transparently), or standard input (`-`).
///
/// Cut into chunks that end just after a `</release>`, so that every chunk holds whole
/// releases: a release the parser refuses can be stepped over within its chunk.
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

    static let readSize = 1 << 20
    private static let endTag = Array("</release>".utf8)

    let path: String
    private let file: gzFile
    private var pending: [UInt8] = []
    private var offset: Int64 = 0
    private var strippedOffset: Int64 = 0
    private var finished = false

    /// Opens `path` ("-" for standard input).
    init(path: String) throws(DumpError) {
        self.path = path
        let handle: gzFile?
        if path == "-" {
            handle = gzdopen(dup(STDIN_FILENO), "rb")
        } else {
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            guard (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFIFO else {
                throw .unreadable(path: path, reason: "it is not a file")
            }
            handle = gzopen(path, "rb")
        }
        guard let handle else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        gzbuffer(handle, UInt32(Self.readSize))
        file = handle
    }

    deinit { gzclose(file) }

    /// The file's size in bytes (nil for standard input or a pipe).
    static func size(of path: String) -> Int64? {
        guard path != "-" else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// The next chunk; nil at the end.
    func next() throws(DumpError) -> Chunk? {
        guard !finished else { return nil }
        while true {
            let start = pending.count
            pending.reserveCapacity(start + Self.readSize)
            pending.append(contentsOf: repeatElement(0, count: Self.readSize))
            let count = pending.withUnsafeMutableBufferPointer { buffer in
                gzread(file, buffer.baseAddress.map { $0 + start }, UInt32(Self.readSize))
            }
            var errorNumber: Int32 = 0
            let message = gzerror(file, &errorNumber)
            if count < 0 || (errorNumber != Z_OK && errorNumber != Z_STREAM_END) {
                let reason = message.map { String(cString: $0) } ?? "read error"
                throw .damaged(path: path, reason: reason, offset: Int64(gzoffset(file)))
            }
            pending.removeLast(Self.readSize - Int(max(0, count)))
            if count == 0 {
                finished = true
                return take(pending.count, isLast: true)
            }
            if let end = Self.lastEndTag(in: pending, from: start) {
                return take(end, isLast: false)
            }
        }
    }

    private func take(_ length: Int, isLast: Bool) -> Chunk {
        let stripped = ElementStripper.strip(pending[..<length])
        pending.removeFirst(length)
        let chunk = Chunk(
            bytes: stripped.bytes, offset: offset, originalLength: length, strippedOffset: strippedOffset,
            removals: stripped.removals, fileBytesRead: Int64(gzoffset(file)), isLast: isLast)
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
    static func lastEndTag(in bytes: [UInt8], from: Int) -> Int? {
        let tag = endTag
        let lowest = max(0, from - tag.count)
        var index = bytes.count - tag.count
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
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
}
