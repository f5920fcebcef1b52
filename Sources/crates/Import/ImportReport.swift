import CratesCore
import CratesStore
import Foundation

/// What an import did and what is left for a person: the summary printed at the end, the
/// list of records to resolve in the TUI, and the `--report FILE` with that list in full.
struct ImportReport {
    /// One thing a person must look at.
    struct Item: Hashable, Sendable {
        var line: Int
        /// `ambiguous`, `not-found`, `not-added`, `invalid`, `not-a-record`.
        var kind: String
        var barcode: String
        var releaseID: String
        var detail: String
    }

    /// How many items the summary lists before "… and N more".
    static let shownItems = 50

    var items: [Item] = []

    init(
        refusals: [ImportRefusal], unresolved: [ImportUnresolved], followUp: CatalogueStore.ImportFollowUp?,
        lines: [GTIN: Int]
    ) {
        for refusal in refusals {
            items.append(Item(
                line: refusal.line, kind: refusal.reason.isNotARecord ? "not-a-record" : "invalid",
                barcode: refusal.input, releaseID: "", detail: refusal.reason.description))
        }
        for row in unresolved {
            items.append(Item(
                line: row.entry.line, kind: "not-added", barcode: row.entry.gtin?.canonical ?? "",
                releaseID: row.entry.releaseID.map(String.init) ?? "", detail: row.reason.description))
        }
        for record in followUp?.needsPerson ?? [] {
            let ambiguous = record.state == .ambiguous
            items.append(Item(
                line: lines[record.gtin] ?? 0, kind: ambiguous ? "ambiguous" : "not-found",
                barcode: record.gtin.canonical, releaseID: "",
                detail: ambiguous
                    ? "\(record.candidateCount) pressings share this barcode: choose one in the collection UI (Enter on the record)"
                    : "Discogs knows no release with this barcode: check it, or look it up again later (r in the collection UI)"))
        }
        items.sort { ($0.line, $0.kind) < ($1.line, $1.kind) }
    }

    /// Whether the item is a refused line (already reported on standard error as it was read).
    static func isRefusal(_ item: Item) -> Bool { item.kind == "invalid" || item.kind == "not-a-record" }

    /// "Needs a person" and the first `shownItems` records and rows, for standard output
    /// (the refused lines were reported on standard error already; the report has them too).
    func listing(file: String, reportPath: String?) -> [String] {
        let items = self.items.filter { !Self.isRefusal($0) }
        guard !items.isEmpty else { return [] }
        var lines = ["Needs a person (\(items.count)):"]
        for item in items.prefix(Self.shownItems) {
            let what = item.barcode.isEmpty ? "release \(item.releaseID)" : item.barcode
            lines.append("  \(file):\(item.line): \(what): \(item.kind): \(item.detail)")
        }
        if items.count > Self.shownItems {
            lines.append("  … and \(items.count - Self.shownItems) more"
                + (reportPath == nil ? " (--report FILE writes them all)" : " (all in \(reportPath ?? ""))"))
        }
        return lines
    }

    /// The `--report` file: a header, then one tab-separated line per item, in file order.
    /// Tabs and line breaks inside a value become spaces, so every item is one line.
    func write(to path: String) throws {
        var text = "line\tkind\tbarcode\trelease_id\tdetail\n"
        for item in items {
            let fields = [String(item.line), item.kind, item.barcode, item.releaseID, item.detail].map {
                $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
                    .replacingOccurrences(of: "\r", with: " ")
            }
            text += fields.joined(separator: "\t") + "\n"
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("cannot write the report to \(path): \(error.localizedDescription)")
        }
    }
}
