import CIsal
import Foundation

/// A file's bytes inflated as they are read: gzip through ISA-L's `isal_inflate` (five to
/// seven times zlib's speed on this machine's dumps), or, for a file that does not begin as
/// gzip does, its bytes as they are (an uncompressed `.xml`), as zlib's `gzread` does.
///
/// What zlib checks, this checks: every member's header, its CRC-32 and length in the
/// trailer, and a file that ends inside a member. Members follow one another (a file of
/// several, as `cat a.gz b.gz` makes, reads as their contents joined); after the last, what
/// does not begin as a member does is ignored, as `gzread` ignores it.
///
/// Not Sendable: one thread reads it.
final class GzipStream {
    /// Why the bytes stopped before their end.
    struct Fault: Error, Hashable {
        /// In crates' words: what is wrong with the file.
        var reason: String
        /// How far into the file (compressed) it was found.
        var offset: Int64
    }

    /// How much of the file is read at a time.
    static let readSize = 1 << 20

    private let descriptor: Int32
    private let input: UnsafeMutablePointer<UInt8>
    // One thread reads it: no runtime check of each access (`@exclusivity(unchecked)`).
    /// The bytes read and not yet inflated: `input[start..<end]`.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    private var atEndOfFile = false
    private let state: UnsafeMutablePointer<inflate_state>
    private enum Mode { case unknown, gzip, raw, finished }
    @exclusivity(unchecked) private var mode = Mode.unknown

    /// Bytes read from the file so far.
    private(set) var fileBytesRead: Int64 = 0

    /// Reads `descriptor` (and closes it when done with).
    init(descriptor: Int32) {
        self.descriptor = descriptor
        input = .allocate(capacity: Self.readSize)
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
    }

    deinit {
        close(descriptor)
        input.deallocate()
        state.deallocate()
    }

    /// Fills `output` with the next bytes, up to its size; 0 at the end.
    func read(into output: UnsafeMutableRawBufferPointer) throws(Fault) -> Int {
        guard let base = output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count > 0 else { return 0 }
        while true {
            switch mode {
            case .finished:
                return 0
            case .unknown:
                try fill(atLeast: 2)
                if end - start >= 2, input[start] == 0x1F, input[start + 1] == 0x8B {
                    try beginMember()
                    mode = .gzip
                } else {
                    mode = .raw
                }
            case .raw:
                if start == end {
                    try fill(atLeast: 1)
                    if start == end {
                        mode = .finished
                        return 0
                    }
                }
                let count = min(end - start, output.count)
                base.update(from: input + start, count: count)
                start += count
                return count
            case .gzip:
                let written = try inflate(into: base, count: output.count)
                if written > 0 { return written }
            }
        }
    }

    /// Inflates what there is into `output`; 0 when a member ended or more must be read first.
    private func inflate(into output: UnsafeMutablePointer<UInt8>, count: Int) throws(Fault) -> Int {
        if start == end { try fill(atLeast: 1) }
        state.pointee.next_in = input + start
        state.pointee.avail_in = UInt32(end - start)
        state.pointee.next_out = output
        state.pointee.avail_out = UInt32(min(count, Int(UInt32.max)))
        let result = isal_inflate(state)
        let consumed = (end - start) - Int(state.pointee.avail_in)
        start += consumed
        let written = min(count, Int(UInt32.max)) - Int(state.pointee.avail_out)
        if result < 0 { throw fault(result) }
        if state.pointee.block_state == ISAL_BLOCK_FINISH {
            // The member is whole and its trailer checked. Another may follow; anything else
            // after the last is ignored, as zlib ignores it.
            try fill(atLeast: 2)
            if end - start >= 2, input[start] == 0x1F, input[start + 1] == 0x8B {
                try beginMember()
            } else {
                mode = .finished
            }
            return written
        }
        if written == 0, consumed == 0 {
            // Nothing more comes of the bytes at hand: more must be read, and a file that
            // has no more ends inside a member (cut short).
            guard !atEndOfFile else { throw Fault(reason: "it ends before its compressed data does", offset: fileBytesRead) }
            try fill(atLeast: end - start + 1)
        }
        return written
    }

    /// Readies the inflater for a member that begins at `start`. Its flags are checked here:
    /// ISA-L ignores the three reserved ones, which zlib (and RFC 1952) refuses.
    private func beginMember() throws(Fault) {
        try fill(atLeast: 4)
        if end - start >= 4, input[start + 3] & 0xE0 != 0 {
            throw Fault(reason: "a gzip header is damaged", offset: fileBytesRead - Int64(end - start))
        }
        isal_inflate_reset(state)
        state.pointee.crc_flag = UInt32(ISAL_GZIP)
    }

    /// Reads until at least `count` bytes wait (or the file ends), moving what waits to the
    /// front of the buffer first.
    private func fill(atLeast wanted: Int) throws(Fault) {
        let count = min(wanted, Self.readSize)
        guard end - start < count, !atEndOfFile else { return }
        if start > 0 {
            let waiting = end - start
            if waiting > 0 { input.update(from: input + start, count: waiting) }
            start = 0
            end = waiting
        }
        while end < count, !atEndOfFile {
            let got = Glibc.read(descriptor, input + end, Self.readSize - end)
            if got > 0 {
                end += got
                fileBytesRead += Int64(got)
            } else if got == 0 {
                atEndOfFile = true
            } else if errno != EINTR {
                throw Fault(reason: "it cannot be read (\(String(cString: strerror(errno))))", offset: fileBytesRead)
            }
        }
    }

    /// What ISA-L's code `result` means, in crates' words.
    private func fault(_ result: Int32) -> Fault {
        let reason = switch result {
        case ISAL_INVALID_WRAPPER, ISAL_UNSUPPORTED_METHOD: "a gzip header is damaged"
        case ISAL_INCORRECT_CHECKSUM: "what it holds does not match its checksum"
        default: "its compressed data is damaged"
        }
        return Fault(reason: reason, offset: fileBytesRead - Int64(end - start))
    }
}
