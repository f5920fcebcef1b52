import Foundation

/// The valid lines of an import file, held compactly: a million barcode lines take 20 MB
/// here, where a million `ImportEntry` values take about 90 MB (issue 12: an import's peak
/// memory under 100 MB for 1,000,000 lines).
///
/// Each entry is a line number (32 bits), a GTIN as its 14-digit number (`GTIN.gtin14Value`,
/// 0 for none) and a Discogs release id (0 for none), in three parallel arrays; the rarer
/// note, date, location, grading and description of a row without a barcode (CSV files
/// only) sit in a side table keyed by position. Reading an element builds the `ImportEntry`, so callers
/// see the same values as before.
public struct ImportEntries: RandomAccessCollection, Hashable, Sendable {
    /// What only CSV rows have.
    private struct Extras: Hashable, Sendable {
        var note: String?
        var addedAt: Date?
        var location: String?
        /// A row known only by what it describes (issue 14), and its key's number among the
        /// file's distinct description keys (see `keyValue(at:)`).
        var described: RecordFields?
        var describedKey: UInt64 = 0
        /// A Discogs collection export's conditions and rating (issue 16).
        var grading: CopyGrading = .none
    }

    private var lines: [UInt32] = []
    private var gtins: [UInt64] = []
    /// Empty while no entry has a release id (a list of barcodes: 8 bytes a line saved), else
    /// one per entry.
    private var releases: [UInt64] = []
    private var hasReleases = false
    private var extras: [Int: Extras] = [:]
    /// The distinct keys of described rows (`RecordFields.entryKey`), numbered from 1.
    private var describedKeys: [String: UInt64] = [:]

    /// An empty list.
    public init() {}

    /// The entries of `array`, in order.
    public init(_ array: some Sequence<ImportEntry>) {
        for entry in array { append(entry) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { lines.count }

    public subscript(position: Int) -> ImportEntry {
        let release = release(at: position)
        let extra = extras[position]
        // `append` stored only valid entries: a barcode, a release id or a description.
        return ImportEntry(
            stored: Int(lines[position]), gtin: gtin(at: position), releaseID: release == 0 ? nil : Int(release),
            note: extra?.note, addedAt: extra?.addedAt, location: extra?.location, described: extra?.described,
            grading: extra?.grading ?? .none)
    }

    /// Adds `entry` at the end. Line numbers past 4,294,967,295 are clamped (a file that long
    /// is refused long before, by its size).
    public mutating func append(_ entry: ImportEntry) {
        if entry.note != nil || entry.addedAt != nil || entry.location != nil || entry.described != nil || !entry.grading.isEmpty {
            var extra = Extras(
                note: entry.note, addedAt: entry.addedAt, location: entry.location, described: entry.described,
                grading: entry.grading)
            if case .described(let key) = entry.key {
                let number = describedKeys[key] ?? UInt64(describedKeys.count + 1)
                describedKeys[key] = number
                extra.describedKey = number
            }
            extras[lines.count] = extra
        }
        lines.append(UInt32(clamping: entry.line))
        gtins.append(entry.gtin?.gtin14Value ?? 0)
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
    }

    /// The line of the entry at `position`, without building the whole entry.
    public func line(at position: Int) -> Int { Int(lines[position]) }

    /// The 14-digit number of the entry's GTIN (`GTIN.gtin14Value`), 0 for none: compared
    /// without making a `GTIN` (a million of them take time and memory).
    public func gtinValue(at position: Int) -> UInt64 { gtins[position] }

    /// The description of a row without a barcode or release id (issue 14), else nil.
    public func described(at position: Int) -> RecordFields? { extras[position]?.described }

    /// Whether the entry at `position` is known only by a Discogs release id: it cannot be
    /// stored before Discogs names its barcode (`ImportPlan.Verdict.needsDiscogs`).
    public func isReleaseOnly(at position: Int) -> Bool {
        gtins[position] == 0 && release(at: position) != 0
    }

    /// The GTIN of the entry at `position`, without building the whole entry.
    public func gtin(at position: Int) -> GTIN? {
        gtins[position] == 0 ? nil : GTIN(gtin14Value: gtins[position])
    }

    /// The entry's key (see `ImportEntry.key`) as one integer: the GTIN's 14-digit number
    /// (under 2^47), the release id with the top bit set, or a description key's number with
    /// the next bit set. Equal keys, equal numbers.
    public func keyValue(at position: Int) -> UInt64 {
        let release = release(at: position)
        if release != 0 { return release | (1 << 63) }
        if gtins[position] != 0 { return gtins[position] }
        return (extras[position]?.describedKey ?? 0) | (1 << 62)
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
        var previous: UInt64?
        var occurrence: UInt32 = 0
        for index in order {
            let key = keyValue(at: Int(index))
            occurrence = key == previous ? occurrence + 1 : 1
            previous = key
            result[Int(index)] = occurrence
        }
        return result
    }
}
