/// What an import will do with each line, decided before anything is written: the `--dry-run`
/// listing, and the records to add.
///
/// A key (barcode, or release id) listed n times means n copies. Without `copies`, an import
/// adds only the copies the collection does not hold yet: the first m lines of a key the
/// collection already holds m copies of are `present`, the rest `new`. Running the same
/// import again, or again after it was killed half-way, therefore adds nothing twice and
/// loses nothing. With `copies`, every line is a new copy.
public struct ImportPlan: Sendable {
    /// What happens to one valid line.
    public enum Verdict: String, Hashable, Sendable {
        /// Added as a new copy.
        case new
        /// The collection already holds this copy: skipped.
        case present
        /// New, but known only by a Discogs release id: its barcode must come from Discogs
        /// before the record can be stored.
        case needsDiscogs
    }

    /// A valid line and what happens to it.
    public struct Item: Hashable, Sendable {
        public var entry: ImportEntry
        public var verdict: Verdict
    }

    /// One per valid line, in file order.
    public var items: [Item]
    /// The refused lines, in file order.
    public var refusals: [ImportRefusal]

    /// - Parameters:
    ///   - present: how many copies of each key the collection holds (a key not in the
    ///     dictionary: none).
    ///   - copies: add every line as a new copy, whatever the collection holds.
    public init(file: ImportFile, present: [ImportKey: Int], copies: Bool) {
        var seen: [ImportKey: Int] = [:]
        seen.reserveCapacity(file.entries.count)
        items = file.entries.map { entry in
            let key = entry.key
            let occurrence = (seen[key] ?? 0) + 1
            seen[key] = occurrence
            if !copies, occurrence <= present[key] ?? 0 { return Item(entry: entry, verdict: .present) }
            return Item(entry: entry, verdict: entry.gtin == nil && entry.releaseID != nil ? .needsDiscogs : .new)
        }
        refusals = file.refusals
    }

    /// The entries to add now, in file order.
    public var newEntries: [ImportEntry] { items.lazy.filter { $0.verdict == .new }.map(\.entry) }
    /// The entries that need Discogs to learn their barcode first.
    public var needsDiscogs: [ImportEntry] { items.lazy.filter { $0.verdict == .needsDiscogs }.map(\.entry) }

    public var newCount: Int { items.count(where: { $0.verdict == .new }) }
    public var presentCount: Int { items.count(where: { $0.verdict == .present }) }
    public var needsDiscogsCount: Int { items.count(where: { $0.verdict == .needsDiscogs }) }
    /// Refused because they are not records (ISBN, ISSN, coupon…), a subset of `refusals`.
    public var notARecordCount: Int { refusals.count(where: { $0.reason.isNotARecord }) }
    public var invalidCount: Int { refusals.count - notARecordCount }

    /// A `--dry-run` line, in file order: line, verdict, what, detail.
    public struct Line: Hashable, Sendable {
        public var line: Int
        /// `new`, `present`, `needs-discogs`, `not-a-record` or `invalid`.
        public var verdict: String
        /// The canonical barcode (or "release 123"), or the refused text as shown.
        public var subject: String
        public var detail: String
    }

    /// Every line with content, valid or refused, in file order.
    public var lines: [Line] {
        var result: [Line] = []
        result.reserveCapacity(items.count + refusals.count)
        var r = 0
        func flushRefusals(before line: Int) {
            while r < refusals.count, refusals[r].line < line {
                let refusal = refusals[r]
                result.append(Line(
                    line: refusal.line, verdict: refusal.reason.isNotARecord ? "not-a-record" : "invalid",
                    subject: refusal.input, detail: refusal.reason.description))
                r += 1
            }
        }
        for item in items {
            flushRefusals(before: item.entry.line)
            let detail: String
            switch item.verdict {
            case .new:
                if let id = item.entry.releaseID {
                    detail = "add; look up Discogs release \(id)"
                } else if let described = item.entry.described {
                    detail = described.catno != nil ? "add; search Discogs by catalogue number" : "add; search Discogs by artist and title"
                } else {
                    detail = "add"
                }
            case .present: detail = "already in the collection"
            case .needsDiscogs: detail = "add once Discogs names its barcode"
            }
            result.append(Line(
                line: item.entry.line,
                verdict: item.verdict == .needsDiscogs ? "needs-discogs" : item.verdict.rawValue,
                subject: item.entry.label, detail: detail))
        }
        flushRefusals(before: Int.max)
        return result
    }
}
