/// Splits an import file, fed in chunks as it is read, into physical lines, each ended by
/// CRLF, LF or a lone CR (or the end of the input), numbered from 1, with a bound: a line
/// longer than `maximumLength` is reported as `.tooLong` with its length and skipped to its
/// end without ever being held, so one endless line cannot make memory grow.
///
/// Not `ScanLineBuffer`: the scanner socket's lines end with LF only and arrive a few at a
/// time; an import file has spreadsheet line ends and a million lines, handed over here as
/// slices of the chunk read (no copy) unless a line straddles two chunks.
public struct ImportLineSplitter: Sendable {
    /// One physical line, or a line too long to keep.
    public enum Piece: Hashable, Sendable {
        /// A line, without its line break.
        case line(number: Int, bytes: ArraySlice<UInt8>)
        /// A line longer than the limit, skipped; `length` is its full length in bytes.
        case tooLong(number: Int, length: Int)
    }

    /// The longest line kept, in bytes.
    public let maximumLength: Int
    /// Lines ended so far (the last one, without a line break, counts at `finish`).
    public private(set) var lineCount = 0
    /// The start of a line that began in an earlier chunk (at most `maximumLength` bytes).
    private var partial: [UInt8] = []
    /// The length of the current line so far, counting bytes not kept.
    private var length = 0
    /// The previous chunk ended with CR: an LF starting this one belongs to it.
    private var afterCR = false

    public init(maximumLength: Int) {
        self.maximumLength = max(1, maximumLength)
    }

    /// Feeds the next chunk; calls `body` with each line it completes, in order.
    public mutating func feed<E: Error>(_ chunk: [UInt8], _ body: (Piece) throws(E) -> Void) throws(E) {
        var index = 0
        let count = chunk.count
        if afterCR, count > 0 {
            afterCR = false
            if chunk[0] == 0x0A { index = 1 }
        }
        while index < count {
            // The end of this line in the chunk, if it ends here.
            var end = index
            while end < count, chunk[end] != 0x0A, chunk[end] != 0x0D { end += 1 }
            guard end < count else {
                keep(chunk[index..<count])
                return
            }
            let piece = complete(chunk[index..<end])
            index = end + 1
            if chunk[end] == 0x0D {
                if index < count {
                    if chunk[index] == 0x0A { index += 1 }
                } else {
                    afterCR = true
                }
            }
            try body(piece)
        }
    }

    /// At the end of the input: the last line, when it has no line break.
    public mutating func finish<E: Error>(_ body: (Piece) throws(E) -> Void) throws(E) {
        afterCR = false
        guard length > 0 else { return }
        try body(complete([]))
    }

    /// Keeps the start of a line that goes on in the next chunk, up to the limit.
    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        let room = maximumLength - partial.count
        if length <= maximumLength, room > 0 { partial.append(contentsOf: bytes.prefix(room)) }
        length += bytes.count
    }

    /// Ends the current line with `tail`, the part of it in this chunk.
    private mutating func complete(_ tail: ArraySlice<UInt8>) -> Piece {
        lineCount += 1
        let total = length + tail.count
        defer {
            length = 0
            if !partial.isEmpty { partial.removeAll(keepingCapacity: partial.capacity <= 4096) }
        }
        if total > maximumLength { return .tooLong(number: lineCount, length: total) }
        if length == 0 { return .line(number: lineCount, bytes: tail) }
        partial.append(contentsOf: tail)
        return .line(number: lineCount, bytes: partial[...])
    }
}
