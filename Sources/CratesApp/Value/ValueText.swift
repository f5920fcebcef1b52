import CratesCore
import CratesStore
import Foundation

/// `crates value`'s lines: every figure with its source, date and age.
public enum ValueText {
    /// Whether the report holds any figure at all.
    public static func hasFigures(_ report: CollectionValueReport) -> Bool {
        report.collection != nil || report.records.contains { $0.at != nil }
    }

    /// "today", "1 day ago", "12 days ago": how old a figure of `date` is at `now`.
    public static func age(_ date: Date, now: Date) -> String {
        let days = Int((now.timeIntervalSince(date) / 86_400).rounded(.down))
        switch days {
        case ..<1: return "today"
        case 1: return "1 day ago"
        default: return "\(days) days ago"
        }
    }

    static func day(_ date: Date) -> String { String(UTCTimestamp.format(date, .iso8601).prefix(10)) }

    /// The currency line, the collection's line, then one line per copy: its id, its
    /// release and its figures (`CopyFigure.labels`) with their age.
    public static func lines(_ report: CollectionValueReport, accountCurrency: Bool, now: Date) -> [String] {
        var lines: [String] = []
        let currency = report.currency.isEmpty ? "the account's" : report.currency + (accountCurrency ? " (the account's)" : "")
        lines.append("Currency: \(currency)")
        if let collection = report.collection {
            let value = collection.value
            lines.append(
                "Collection: minimum \(value.minimum), median \(value.median), maximum \(value.maximum) "
                    + "(Discogs' collection value, \(day(collection.at)), \(age(collection.at, now: now)))")
        } else {
            lines.append("Collection: not asked yet")
        }
        for copy in report.records {
            let labels = copy.labels(currency: report.currency)
            let figures = labels.isEmpty ? "not asked yet" : labels.joined(separator: "; ") + (copy.at.map { " (\(age($0, now: now)))" } ?? "")
            lines.append("\(copy.id)\tr\(copy.releaseID)\t\(figures)")
        }
        return lines
    }

    /// One line per month: the month, the minimum, median and maximum as Discogs wrote them,
    /// the day asked; or, for `json`, one object per line (`month`, `currency`, `minimum`,
    /// `median`, `maximum`, `text`, `at`).
    public static func history(_ entries: [CollectionStore.ValueHistoryEntry], json: Bool) -> [String] {
        entries.map { entry in
            let value = entry.figure.value
            guard json else {
                return "\(entry.month)\t\(value.minimum)\t\(value.median)\t\(value.maximum)\t(\(day(entry.figure.at)))"
            }
            let report = CollectionValueReport(currency: entry.currency, collection: entry.figure, records: [])
            // The collection object of `--json`, with its month.
            let object = report.json
            guard let start = object.range(of: "\"collection\":"), let end = object.range(of: ",\"records\":", options: .backwards)
            else { return object }
            let collection = object[start.upperBound..<end.lowerBound]
            return "{\"month\":\(JSONStringLiteral.quoted(entry.month)),\"currency\":\(JSONStringLiteral.quoted(entry.currency)),"
                + "\"collection\":\(collection)}"
        }
    }
}
