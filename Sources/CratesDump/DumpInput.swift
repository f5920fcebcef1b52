import CStringSearch
import Foundation

/// The dump's bytes, inflated (`GzipStream`: a `.xml.gz`, an uncompressed `.xml` as it is, or
/// standard input, `-`), cut into chunks that end just after a `</release>`, so that every
/// chunk holds whole releases: a release the parser refuses can be stepped over within its
/// chunk.
///
/// The file is opened at the first `next()`, on the thread that reads: a FIFO nobody writes
/// blocks there, not the thread that would stop the build.
///
/// A release larger than `largestRelease` (no release of Discogs is near it; a dump whose
/// release has a title of megabytes may be) is skipped, named, and never held: the memory is
/// bounded whatever the dump holds.
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
        /// Releases skipped before this chunk for their size (never held).
        var skipped: [DumpSkip] = []

        static let empty = Chunk(
            bytes: [], offset: 0, originalLength: 0, strippedOffset: 0, removals: [], fileBytesRead: 0, isLast: false)
    }

    /// How much is inflated at a time.
    static let readSize = 1 << 20
    /// The largest release read: 16 MB of XML. Real ones are a few kilobytes; the largest
    /// box sets, with thousands of tracks and their credits, a few megabytes.
    static let largestRelease = 16 << 20
    private static let endTag = Array("</release>".utf8)

    let path: String
    private var stream: GzipStream?
    // The inflating thread's alone: no runtime check of each access (`@exclusivity(unchecked)`).
    /// The inflated bytes not yet cut into a chunk: `buffer[0..<used]`.
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var offset: Int64 = 0
    @exclusivity(unchecked) private var strippedOffset: Int64 = 0
    private var finished = false
    /// Set while a release too large to read is dropped, up to its `</release>`.
    private var dropping = false
    private var skipped: [DumpSkip] = []

    /// Checks that `path` ("-" for standard input) names a file or a FIFO that exists.
    init(path: String) throws(DumpError) {
        self.path = path
        try Self.check(path)
        capacity = 2 * Self.readSize
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// Throws unless `path` is "-" or names a file or a FIFO that is there.
    static func check(_ path: String) throws(DumpError) {
        guard path != "-" else { return }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .unreadable(path: path, reason: errno == ENOENT ? "there is no such file" : String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG || (info.st_mode & S_IFMT) == S_IFIFO else {
            throw .unreadable(path: path, reason: "it is not a file")
        }
    }

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
                if dropping { throw .truncated(path: path, offset: offset + Int64(used)) }
                return take(used, isLast: true, fileBytesRead: stream.fileBytesRead)
            }
            if dropping {
                dropTooLarge(from: start)
                // What follows the release dropped may already end releases.
                if !dropping, let end = Self.lastEndTag(in: UnsafeBufferPointer(start: buffer, count: used), from: 0) {
                    return take(end, isLast: false, fileBytesRead: stream.fileBytesRead)
                }
                continue
            }
            if let end = Self.lastEndTag(in: UnsafeBufferPointer(start: buffer, count: used), from: start) {
                return take(end, isLast: false, fileBytesRead: stream.fileBytesRead)
            }
            if used > Self.largestRelease { beginDropping() }
        }
    }

    /// Room for another read: the buffer doubles, up to what the largest release needs.
    private func grow() {
        let larger = max(2 * capacity, used + Self.readSize)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        grown.update(from: buffer, count: used)
        buffer.deallocate()
        buffer = grown
        capacity = larger
    }

    /// The bytes held are one release of more than `largestRelease` with no end yet: it is
    /// named (by the id in its start tag) and dropped, and so is the rest of it as it comes.
    private func beginDropping() {
        let bytes = UnsafeBufferPointer(start: buffer, count: used)
        let start = ReleaseTags.nextStart(in: bytes, from: 0) ?? 0
        skipped.append(DumpSkip(
            releaseID: Self.releaseID(in: bytes, at: start), offset: offset + Int64(start),
            reason: "it is larger than \(Self.largestRelease >> 20) MB, more than any release of Discogs, and was not read"))
        dropping = true
        dropTooLarge(from: 0)
    }

    /// Drops what is held of the release too large to read, up to its `</release>` when it
    /// has come (the rest is kept), else all but the bytes a tag cut in two may begin with.
    private func dropTooLarge(from start: Int) {
        let bytes = UnsafeBufferPointer(start: buffer, count: used)
        if let end = Self.firstEndTag(in: bytes, from: max(0, start - Self.endTag.count)) {
            drop(end)
            dropping = false
        } else {
            drop(max(0, used - Self.endTag.count))
        }
    }

    /// Removes the first `count` bytes held, which the chunks will not hold.
    private func drop(_ count: Int) {
        guard count > 0 else { return }
        buffer.update(from: buffer + count, count: used - count)
        used -= count
        offset += Int64(count)
    }

    private func take(_ length: Int, isLast: Bool, fileBytesRead: Int64) -> Chunk {
        let stripped = ElementStripper.strip(UnsafeBufferPointer(start: buffer, count: length))
        var chunk = Chunk(
            bytes: stripped.bytes, offset: offset, originalLength: length, strippedOffset: strippedOffset,
            removals: stripped.removals, fileBytesRead: fileBytesRead, isLast: isLast)
        chunk.skipped = skipped
        skipped = []
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

    /// The id in the `<release` start tag at `start`, when it has one of digits.
    private static func releaseID(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
        let attribute = Array(" id=\"".utf8)
        let end = min(bytes.count, start + 200)
        guard var index = (start..<max(start, end - attribute.count)).first(where: { at in
            (0..<attribute.count).allSatisfy { bytes[at + $0] == attribute[$0] }
        }) else { return nil }
        index += attribute.count
        var value = 0
        var digits = 0
        while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return index < end && bytes[index] == UInt8(ascii: "\"") && value > 0 ? value : nil
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

    /// The index just past the first `</release>` at or after `from` in `bytes`.
    static func firstEndTag(in buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = buffer.baseAddress, from <= buffer.count - endTag.count else { return nil }
        let found = endTag.withUnsafeBufferPointer { crates_find(base + from, buffer.count - from, $0.baseAddress, $0.count) }
        return found < 0 ? nil : from + found + endTag.count
    }
}
