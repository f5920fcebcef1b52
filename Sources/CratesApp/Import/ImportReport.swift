import CratesCore
import CratesStore
import Foundation

/// What an import did and what is left for a person: the summary printed at the end, the
/// list of records to resolve in the TUI, and the `--report FILE` with that list in full.
public struct ImportReport: Sendable {
    /// One thing a person must look at.
    public struct Item: Hashable, Sendable {
        public var line: Int
        /// `ambiguous`, `not-found`, `not-added`, `invalid`, `not-a-record`.
        public var kind: String
        public var barcode: String
        public var releaseID: String
        public var detail: String
    }

    /// Whether some records wait for a person's choice (ambiguous, or not found): the
    /// collection UI walks them one by one.
    public var needsAChoice: Bool {
        items.contains { $0.kind == "ambiguous" || $0.kind == "not-found" }
    }

    /// How many items the summary lists before "… and N more".
    public static let shownItems = 50

    /// The refused lines and the records that need a person, in file order: what the
    /// import holds in memory anyway.
    public var items: [Item] = []
    /// The rows known by release id only that were not added, in file order: on disk for a
    /// real import (`ImportUnresolvedRows`), every row of a Discogs export imported without
    /// lookups.
    public var notAdded: ImportUnresolvedRows

    /// `lines`: the first line of each barcode in the file; `describedLines`: of each key of
    /// a row described by its values (`RecordFields.entryKey`). `unresolved` is in file order.
    public init(
        refusals: [ImportRefusal], unresolved: ImportUnresolvedRows, followUp: CollectionStore.ImportFollowUp?,
        lines: [GTIN: Int], describedLines: [String: Int] = [:]
    ) {
        notAdded = unresolved
        for refusal in refusals {
            items.append(Item(
                line: refusal.line, kind: refusal.reason.isNotARecord ? "not-a-record" : "invalid",
                barcode: refusal.input, releaseID: "", detail: refusal.reason.description))
        }
        for record in followUp?.needsPerson ?? [] {
            let ambiguous = record.state == .ambiguous
            let status = RecordStatusText.of(record.state, candidateCount: record.candidateCount, hasBarcode: record.gtin != nil) ?? ""
            let line = record.gtin.flatMap { lines[$0] } ?? record.entryKey.flatMap { describedLines[$0] } ?? 0
            let next: String
            if record.gtin == nil {
                next = ambiguous
                    ? ": choose one in the collection UI (N walks them), or search it again with `crates search`"
                    : ": search it again (s in the collection UI), or enter it by hand (m; or import with --manual-missing)"
            } else {
                next = ambiguous
                    ? ": choose one in the collection UI (Enter on the record)"
                    : ": check it, or look it up again later (r in the collection UI)"
            }
            items.append(Item(
                line: line, kind: ambiguous ? "ambiguous" : "not-found",
                barcode: record.gtin?.canonical ?? "", releaseID: "",
                detail: (record.gtin == nil ? (record.described?.description ?? "") + ": " : "") + status + next))
        }
        items.sort { ($0.line, $0.kind) < ($1.line, $1.kind) }
    }

    /// Whether the item is a refused line (already reported on standard error as it was read).
    public static func isRefusal(_ item: Item) -> Bool { item.kind == "invalid" || item.kind == "not-a-record" }

    /// Every item, in file order: `items` and `notAdded` merged as they are read, never
    /// gathered in one list (`notAdded` may be every row of the file).
    public var allItems: AllItems { AllItems(held: items, notAdded: notAdded) }

    /// `items` and the rows of `notAdded` as items, by line (then kind, as `items` is sorted;
    /// an item of `items` and a row not added never share both).
    public struct AllItems: Sequence {
        let held: [Item]
        let notAdded: ImportUnresolvedRows

        public func makeIterator() -> Iterator {
            var iterator = Iterator(held: held.makeIterator(), rows: notAdded.makeIterator())
            iterator.nextHeld = iterator.held.next()
            iterator.nextRow = iterator.row()
            return iterator
        }

        public struct Iterator: IteratorProtocol {
            var held: IndexingIterator<[Item]>
            var rows: ImportUnresolvedRows.Iterator
            var nextHeld: Item?
            var nextRow: Item?
            /// One text per reason, shared by its rows: 200,000 copies of one sentence
            /// would be 20 MB (were they kept).
            var details: [ImportUnresolved.Reason: String] = [:]

            init(held: IndexingIterator<[Item]>, rows: ImportUnresolvedRows.Iterator) {
                self.held = held
                self.rows = rows
            }

            public mutating func next() -> Item? {
                if let row = nextRow, nextHeld.map({ (row.line, row.kind) < ($0.line, $0.kind) }) ?? true {
                    nextRow = self.row()
                    return row
                }
                defer { nextHeld = held.next() }
                return nextHeld
            }

            mutating func row() -> Item? {
                guard let row = rows.next() else { return nil }
                let detail = details[row.reason] ?? row.reason.description
                details[row.reason] = detail
                return Item(
                    line: row.line, kind: "not-added", barcode: row.gtin?.canonical ?? "",
                    releaseID: row.releaseID.map(String.init) ?? "", detail: detail)
            }
        }
    }

    /// "Needs a person" and the first `shownItems` records and rows, for standard output
    /// (the refused lines were reported on standard error already; the report has them too).
    public func listing(file: String, reportPath: String?) -> [String] {
        let count = items.count { !Self.isRefusal($0) } + notAdded.count
        guard count > 0 else { return [] }
        var lines = ["Needs a person (\(count)):"]
        // Read lazily: only the items shown are made.
        for item in allItems.lazy.filter({ !Self.isRefusal($0) }).prefix(Self.shownItems) {
            let what = !item.barcode.isEmpty ? "\(item.barcode): " : !item.releaseID.isEmpty ? "release \(item.releaseID): " : ""
            lines.append("  \(file):\(item.line): \(what)\(item.kind): \(item.detail)")
        }
        if count > Self.shownItems {
            lines.append("  … and \(count - Self.shownItems) more"
                + (reportPath == nil ? " (--report FILE writes them all)" : " (all in \(reportPath ?? ""))"))
        }
        if let failure = notAdded.failure { lines.append("  \(failure)") }
        return lines
    }

    /// The `--report` file's text, given to `write` a part at a time (so that a report of
    /// every row of the file is never whole in memory): a header, then one tab-separated line
    /// per item, in file order (`TabSeparatedText`: a value's tabs and line breaks become
    /// spaces).
    public func writeTabSeparated<Failure: Error>(_ write: (String) throws(Failure) -> Void) throws(Failure) {
        var text = "line\tkind\tbarcode\trelease_id\tdetail\n"
        for item in allItems {
            text += TabSeparatedText.line([String(item.line), item.kind, item.barcode, item.releaseID, item.detail]) + "\n"
            if text.utf8.count >= 1 << 16 {
                try write(text)
                text = ""
            }
        }
        try write(text)
    }
}
