import Foundation

/// The valid lines of an import file, held compactly: a million barcode lines take 20 MB
/// here, where a million `ImportEntry` values take about 90 MB (an import's peak
/// memory under 100 MB for 1,000,000 lines, whatever the rows hold).
///
/// Each entry is a line number (32 bits), a GTIN as its 14-digit number (`GTIN.gtin14Value`,
/// 0 for none; for a row known only by its description, the hash of its key with the top bit
/// set) and a Discogs release id (0 for none), in parallel arrays. What only CSV rows have
/// (note, date, location, grading, the collector's values, a description) is encoded as
/// bytes into an `ImportSpill` (a temporary file for a real import, memory by default), and
/// each such entry keeps 8 bytes saying where: a row's text never stays in memory. Reading
/// an element builds the `ImportEntry`, so callers see the same values as before.
public struct ImportEntries: RandomAccessCollection, Hashable, Sendable {
    private var lines: [UInt32] = []
    /// The GTIN's 14-digit number, or `describedFlag` | the hash of a description's key.
    private var gtins: [UInt64] = []
    /// Empty while no entry has a release id (a list of barcodes: 8 bytes a line saved), else
    /// one per entry.
    private var releases: [UInt64] = []
    private var hasReleases = false
    /// Where each entry's extras are in `spill` (`ExtrasCodec.place`), 0 for none; empty
    /// while no entry has any.
    private var extras: [UInt64] = []
    private var hasExtras = false
    /// Where the extras go (shared by copies: it is only ever appended to).
    public let spill: any ImportSpill

    /// Marks a `gtins` value as a description key's hash.
    private static let describedFlag: UInt64 = 1 << 63

    /// An empty list whose extras go to `spill`.
    public init(spill: any ImportSpill = MemorySpill()) {
        self.spill = spill
    }

    public static func == (lhs: ImportEntries, rhs: ImportEntries) -> Bool {
        lhs.count == rhs.count && lhs.indices.allSatisfy { lhs[$0] == rhs[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for entry in self { hasher.combine(entry) }
    }

    /// The entries of `array`, in order.
    public init(_ array: some Sequence<ImportEntry>) {
        self.init()
        for entry in array { append(entry) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { lines.count }

    public subscript(position: Int) -> ImportEntry {
        let release = release(at: position)
        var entry = ImportEntry(
            stored: Int(lines[position]), gtin: gtin(at: position), releaseID: release == 0 ? nil : Int(release),
            note: nil, addedAt: nil, location: nil, described: nil, grading: .none, collector: nil, handEntered: false)
        // `append` stored only valid entries: a barcode, a release id or a description.
        if hasExtras, extras[position] != 0 { ExtrasCodec.decode(spill.read(extras[position]), into: &entry) }
        return entry
    }

    /// Adds `entry` at the end. Line numbers past 4,294,967,295 are clamped (a file that long
    /// is refused long before, by its size).
    public mutating func append(_ entry: ImportEntry) {
        if let bytes = ExtrasCodec.encode(entry) {
            // The first extras fill in the zeros of the entries before them.
            if !hasExtras {
                hasExtras = true
                extras = [UInt64](repeating: 0, count: lines.count)
                extras.reserveCapacity(lines.capacity)
            }
            extras.append(spill.append(bytes))
        } else if hasExtras {
            extras.append(0)
        }
        lines.append(UInt32(clamping: entry.line))
        if let gtin = entry.gtin {
            gtins.append(gtin.gtin14Value)
        } else if entry.releaseID == nil, case .described(let key) = entry.key {
            gtins.append(Self.describedFlag | Self.keyHash(key))
        } else {
            gtins.append(0)
        }
        let release = UInt64(clamping: entry.releaseID ?? 0)
        // The first release id fills in the zeros of the entries before it.
        if release != 0, !hasReleases {
            hasReleases = true
            releases = [UInt64](repeating: 0, count: lines.count - 1)
            releases.reserveCapacity(lines.capacity)
        }
        if hasReleases { releases.append(release) }
    }

    /// Reserves room for `count` entries in all.
    public mutating func reserveCapacity(_ count: Int) {
        lines.reserveCapacity(count)
        gtins.reserveCapacity(count)
        if hasReleases { releases.reserveCapacity(count) }
        if hasExtras { extras.reserveCapacity(count) }
    }

    /// The line of the entry at `position`, without building the whole entry.
    public func line(at position: Int) -> Int { Int(lines[position]) }

    /// The 14-digit number of the entry's GTIN (`GTIN.gtin14Value`), 0 for none: compared
    /// without making a `GTIN` (a million of them take time and memory).
    public func gtinValue(at position: Int) -> UInt64 { gtins[position] & Self.describedFlag == 0 ? gtins[position] : 0 }

    /// The description of a row without a barcode or release id, else nil.
    public func described(at position: Int) -> RecordFields? {
        gtins[position] & Self.describedFlag == 0 ? nil : self[position].described
    }

    /// The hash of the description key of a row without a barcode or release id (see
    /// `keyHash`), without reading its extras; nil for any other row.
    public func describedKeyHash(at position: Int) -> UInt64? {
        gtins[position] & Self.describedFlag == 0 ? nil : gtins[position] & ~Self.describedFlag
    }

    /// A description key's hash as `describedKeyHash(at:)` gives it: 64-bit FNV-1a of its
    /// UTF-8 bytes, less its top two bits (the same in every process, unlike `Hasher`).
    public static func keyHash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash & ~(3 << 62)
    }

    /// Whether the entry at `position` is known only by a Discogs release id: it cannot be
    /// stored before Discogs names its barcode (`ImportPlan.Verdict.needsDiscogs`).
    public func isReleaseOnly(at position: Int) -> Bool {
        gtins[position] == 0 && release(at: position) != 0
    }

    /// The GTIN of the entry at `position`, without building the whole entry.
    public func gtin(at position: Int) -> GTIN? {
        let value = gtinValue(at: position)
        return value == 0 ? nil : GTIN(gtin14Value: value)
    }

    /// The entry's key (see `ImportEntry.key`) as one integer: the GTIN's 14-digit number
    /// (under 2^47), the release id with the top bit set, or a description key's hash with
    /// the next bit set. Equal keys, equal numbers; two description keys may share a hash
    /// (`occurrences()` tells them apart).
    public func keyValue(at position: Int) -> UInt64 {
        let release = release(at: position)
        if release != 0 { return release | (1 << 63) }
        if let hash = describedKeyHash(at: position) { return hash | (1 << 62) }
        return gtins[position]
    }

    /// The release id of the entry at `position`, 0 for none.
    private func release(at position: Int) -> UInt64 {
        hasReleases ? releases[position] : 0
    }

    /// For each entry, which copy of its key it is in the file (1 for the first line of a
    /// barcode, 2 for the second…): an import wants, for each key, as many copies in the
    /// collection as the file has lines of it, and this says how many it wants once a given
    /// line is reached. Found by sorting the positions by key (4 bytes a line, freed on
    /// return), not by a dictionary of every key, which would take ten times the memory.
    public func occurrences() -> [UInt32] {
        var order = [UInt32](0..<UInt32(clamping: count))
        order.sort { a, b in
            let (x, y) = (keyValue(at: Int(a)), keyValue(at: Int(b)))
            return x != y ? x < y : a < b
        }
        var result = [UInt32](repeating: 0, count: count)
        var groupStart = 0
        while groupStart < order.count {
            let key = keyValue(at: Int(order[groupStart]))
            var groupEnd = groupStart + 1
            while groupEnd < order.count, keyValue(at: Int(order[groupEnd])) == key { groupEnd += 1 }
            if key & (1 << 63) == 0, key & (1 << 62) != 0, groupEnd - groupStart > 1 {
                // Descriptions with one hash: counted by their keys themselves (two keys
                // sharing a hash are rare; equal keys, the same record listed again, are not).
                var seen: [String: UInt32] = [:]
                for index in order[groupStart..<groupEnd] {
                    let described = self[Int(index)].key.description
                    seen[described, default: 0] += 1
                    result[Int(index)] = seen[described] ?? 1
                }
            } else {
                for (offset, index) in order[groupStart..<groupEnd].enumerated() { result[Int(index)] = UInt32(offset + 1) }
            }
            groupStart = groupEnd
        }
        return result
    }
}
