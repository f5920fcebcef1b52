/// The GS1 company-prefix table: which GS1 member organisation issued a prefix, or which
/// special range (ISBN, coupons, restricted distribution) it belongs to.
///
/// The data is ../shared/gs1/gtin-prefixes.tsv compiled in as text (GS1PrefixTable+Data.swift);
/// it is parsed once, on first use, into a 1000-slot index of 3-digit prefixes. A row of
/// fewer digits covers every 3-digit prefix it starts ("99" covers 990-999).
public enum GS1PrefixTable {
    /// One row of the table.
    public struct Entry: Hashable, Sendable {
        /// The 3-digit prefixes covered, e.g. 500...509.
        public let prefixes: ClosedRange<Int>
        /// The range as published: "500-509", "380", "99".
        public let published: String
        /// Who uses it, as published: "United Kingdom", "Bookland (ISBN)".
        public let usedBy: String
    }

    /// The rows of the table, in published order.
    public static var entries: [Entry] { table.entries }

    /// Lines of the compiled-in table that could not be read (a test keeps this empty).
    public static var rejectedLines: [String] { table.rejectedLines }

    /// The table's text as compiled in, header included.
    public static var publishedText: String { tsv }

    /// The row covering a 3-digit prefix (0...999), or nil when GS1 has not assigned it.
    public static func entry(forPrefix prefix: Int) -> Entry? {
        guard (0...999).contains(prefix), let slot = table.index[prefix] else { return nil }
        return table.entries[slot]
    }

    /// Reads `range<TAB>used_by` lines (a header line starting "range" is skipped). A range
    /// is 1 to 3 digits, or two such numbers of equal length joined by "-".
    public static func parse(_ text: String) -> (entries: [Entry], rejectedLines: [String]) {
        var entries: [Entry] = []
        var rejected: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.first == "range" { continue }
            guard fields.count == 2, let prefixes = prefixRange(fields[0]), !fields[1].isEmpty else {
                rejected.append(String(line))
                continue
            }
            entries.append(Entry(prefixes: prefixes, published: String(fields[0]), usedBy: String(fields[1])))
        }
        return (entries, rejected)
    }

    /// "500-509" → 500...509, "380" → 380...380, "99" → 990...999.
    static func prefixRange(_ text: Substring) -> ClosedRange<Int>? {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(ends.count), let width = ends.first?.count, (1...3).contains(width),
              ends.allSatisfy({ $0.count == width && DigitString.values(of: $0) != nil }),
              let low = Int(ends[0]), let high = Int(ends[ends.count - 1]), low <= high
        else { return nil }
        let scale = width == 1 ? 100 : (width == 2 ? 10 : 1)
        return (low * scale)...((high + 1) * scale - 1)
    }

    /// The parsed table and its index. A `static let` is initialised once, on first use, and
    /// thread-safely (Swift runs global and static initialisers under `swift_once`).
    private static let table = Table(parse(tsv))

    private struct Table: Sendable {
        let entries: [Entry]
        let rejectedLines: [String]
        /// For each 3-digit prefix, the index of its row in `entries`; the first row wins.
        let index: [Int?]

        init(_ parsed: (entries: [Entry], rejectedLines: [String])) {
            entries = parsed.entries
            rejectedLines = parsed.rejectedLines
            var index = [Int?](repeating: nil, count: 1000)
            for (slot, entry) in parsed.entries.enumerated() {
                for prefix in entry.prefixes where index[prefix] == nil { index[prefix] = slot }
            }
            self.index = index
        }
    }
}
