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

    /// The file's valid lines, in file order.
    public let entries: ImportEntries
    /// One byte per valid line: `items` without the entries repeated (a plan of a
    /// million lines must stay small).
    private let verdicts: [Verdict]
    /// The refused lines, in file order (those the file kept, see `ImportFile.refusals`).
    public var refusals: [ImportRefusal]
    public let newCount: Int
    public let presentCount: Int
    public let needsDiscogsCount: Int
    /// Refused because they are not records (ISBN, ISSN, coupon…).
    public let notARecordCount: Int
    /// Refused as unreadable (everything refused that is not `notARecordCount`).
    public let invalidCount: Int

    /// - Parameters:
    ///   - present: how many copies of each key the collection holds (a key not in the
    ///     dictionary: none).
    ///   - copies: add every line as a new copy, whatever the collection holds.
    public init(file: ImportFile, present: [ImportKey: Int], copies: Bool) {
        self.init(file: file, copies: copies) { keys in
            var held: [ImportKey: Int] = [:]
            for key in keys { if let count = present[key] { held[key] = count } }
            return held
        }
    }

    /// The plan with the collection's copies asked for `batchSize` lines' keys at a time
    /// (`held`: how many copies of each key the collection holds; keys it does not hold may
    /// be left out): a dry run of a million lines never holds a million keys at once.
    public init<E: Error>(
        file: ImportFile, copies: Bool, batchSize: Int = 500, held: (Set<ImportKey>) throws(E) -> [ImportKey: Int]
    ) throws(E) {
        let entries = file.entries
        let occurrences = copies ? [] : entries.occurrences()
        var verdicts: [Verdict] = []
        verdicts.reserveCapacity(entries.count)
        var counts = (new: 0, present: 0, needsDiscogs: 0)
        var start = 0
        while start < entries.count {
            let range = start..<min(start + max(1, batchSize), entries.count)
            let batch = range.map { entries[$0] }
            let present = copies ? [:] : try held(Set(batch.map(\.key)))
            for (index, entry) in zip(range, batch) {
                if !copies, Int(occurrences[index]) <= present[entry.key] ?? 0 {
                    verdicts.append(.present)
                    counts.present += 1
                } else if entry.gtin == nil, entry.releaseID != nil {
                    verdicts.append(.needsDiscogs)
                    counts.needsDiscogs += 1
                } else {
                    verdicts.append(.new)
                    counts.new += 1
                }
            }
            start = range.upperBound
        }
        self.entries = entries
        self.verdicts = verdicts
        refusals = file.refusals
        newCount = counts.new
        presentCount = counts.present
        needsDiscogsCount = counts.needsDiscogs
        notARecordCount = file.notARecordCount
        invalidCount = file.refusalCount - file.notARecordCount
    }

    /// One per valid line, in file order (built on each call: a million lines make a
    /// hundred megabytes; `forEachLine` walks them without).
    public var items: [Item] { entries.indices.map { Item(entry: entries[$0], verdict: verdicts[$0]) } }

    /// The verdict of the valid line at `index` of `entries`.
    public func verdict(at index: Int) -> Verdict { verdicts[index] }

    /// The entries to add now, in file order.
    public var newEntries: [ImportEntry] { entries.indices.filter { verdicts[$0] == .new }.map { entries[$0] } }
    /// The entries that need Discogs to learn their barcode first.
    public var needsDiscogs: [ImportEntry] { entries.indices.filter { verdicts[$0] == .needsDiscogs }.map { entries[$0] } }

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
        result.reserveCapacity(entries.count + refusals.count)
        forEachLine { result.append($0) }
        return result
    }

    /// Calls `body` with every line with content, valid or refused, in file order, one at a
    /// time (for a `--dry-run` of a million lines).
    public func forEachLine<E: Error>(_ body: (Line) throws(E) -> Void) throws(E) {
        var r = 0
        func flushRefusals(before line: Int) throws(E) {
            while r < refusals.count, refusals[r].line < line {
                let refusal = refusals[r]
                try body(Line(
                    line: refusal.line, verdict: refusal.reason.isNotARecord ? "not-a-record" : "invalid",
                    subject: refusal.input, detail: refusal.reason.description))
                r += 1
            }
        }
        for index in entries.indices {
            let entry = entries[index]
            let verdict = verdicts[index]
            try flushRefusals(before: entry.line)
            let detail: String
            switch verdict {
            case .new:
                if let id = entry.releaseID {
                    detail = "add; look up Discogs release \(id)"
                } else if let described = entry.described {
                    detail = described.catno != nil ? "add; search Discogs by catalogue number" : "add; search Discogs by artist and title"
                } else {
                    detail = "add"
                }
            case .present: detail = "already in the collection"
            case .needsDiscogs: detail = "add once Discogs names its barcode"
            }
            try body(Line(
                line: entry.line, verdict: verdict == .needsDiscogs ? "needs-discogs" : verdict.rawValue,
                subject: entry.label, detail: detail))
        }
        try flushRefusals(before: Int.max)
    }
}
