/// Splits a byte stream into lines, with a bound: a line longer than `maximumLength` is
/// reported as `.tooLong` and skipped up to its newline, so a peer that never sends a newline
/// cannot make the reader's memory grow.
public struct ScanLineBuffer: Sendable {
    /// What a chunk of input yielded, in order.
    public enum Item: Hashable, Sendable {
        /// A complete line, without its newline.
        case line([UInt8])
        /// A line longer than the limit, dropped; `bytes` counts what was seen of it (at
        /// least `maximumLength + 1`; the rest is skipped unread).
        case tooLong(bytes: Int)
    }

    public let maximumLength: Int
    private var pending: [UInt8] = []
    /// Skipping the rest of an overlong line until its newline.
    private var skipping = false

    public init(maximumLength: Int = ScanEvent.maximumLineLength) {
        self.maximumLength = maximumLength
    }

    /// Feeds bytes; returns the lines they complete.
    public mutating func append<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == 0x0A {
                if skipping {
                    skipping = false
                } else {
                    items.append(.line(pending))
                }
                pending.removeAll(keepingCapacity: true)
            } else if !skipping {
                pending.append(byte)
                if pending.count > maximumLength {
                    items.append(.tooLong(bytes: pending.count))
                    pending.removeAll(keepingCapacity: false)
                    skipping = true
                }
            }
        }
        return items
    }

    /// At end of input: the last line, when it had no newline.
    public mutating func finish() -> [Item] {
        defer {
            pending.removeAll()
            skipping = false
        }
        return pending.isEmpty || skipping ? [] : [.line(pending)]
    }
}
