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

    public var items: [Item] = []

    /// `lines`: the first line of each barcode in the file; `describedLines`: of each key of
    /// a row described by its values (`RecordFields.entryKey`).
    public init(
        refusals: [ImportRefusal], unresolved: [ImportUnresolved], followUp: CollectionStore.ImportFollowUp?,
        lines: [GTIN: Int], describedLines: [String: Int] = [:]
    ) {
        for refusal in refusals {
            items.append(Item(
                line: refusal.line, kind: refusal.reason.isNotARecord ? "not-a-record" : "invalid",
                barcode: refusal.input, releaseID: "", detail: refusal.reason.description))
        }
        // One text per reason, shared by its rows: a Discogs export imported without lookups
        // lists every row, and 200,000 copies of one sentence would be 20 MB.
        var details: [ImportUnresolved.Reason: String] = [:]
        items.reserveCapacity(refusals.count + unresolved.count)
        for row in unresolved {
            let detail = details[row.reason] ?? row.reason.description
            details[row.reason] = detail
            items.append(Item(
                line: row.line, kind: "not-added", barcode: row.gtin?.canonical ?? "",
                releaseID: row.releaseID.map(String.init) ?? "", detail: detail))
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

    /// "Needs a person" and the first `shownItems` records and rows, for standard output
    /// (the refused lines were reported on standard error already; the report has them too).
    public func listing(file: String, reportPath: String?) -> [String] {
        // Walked lazily: no copy of a list that may hold every row of the file.
        let items = self.items.lazy.filter { !Self.isRefusal($0) }
        let count = items.count
        guard count > 0 else { return [] }
        var lines = ["Needs a person (\(count)):"]
        for item in items.prefix(Self.shownItems) {
            let what = !item.barcode.isEmpty ? "\(item.barcode): " : !item.releaseID.isEmpty ? "release \(item.releaseID): " : ""
            lines.append("  \(file):\(item.line): \(what)\(item.kind): \(item.detail)")
        }
        if count > Self.shownItems {
            lines.append("  … and \(count - Self.shownItems) more"
                + (reportPath == nil ? " (--report FILE writes them all)" : " (all in \(reportPath ?? ""))"))
        }
        return lines
    }

    /// The `--report` file's text: a header, then one tab-separated line per item, in file
    /// order (`TabSeparatedText`: a value's tabs and line breaks become spaces).
    public var tabSeparated: String {
        var text = "line\tkind\tbarcode\trelease_id\tdetail\n"
        for item in items {
            text += TabSeparatedText.line([String(item.line), item.kind, item.barcode, item.releaseID, item.detail]) + "\n"
        }
        return text
    }
}
