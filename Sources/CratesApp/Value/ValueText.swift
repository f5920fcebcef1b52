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
    public static func age(_ date: Date, now: Date) -> String { FigureAge.text(date, now: now) }

    /// For a person at a terminal: the currency and the total first, then one line per
    /// copy, "Artist — Title", most valuable first, with its figure and age; a copy whose
    /// release Discogs was asked about and has no figure for says "no figures on Discogs",
    /// one never asked "not asked yet". Every text from outside cleaned.
    public static func readable(_ report: CollectionValueReport, accountCurrency: Bool, now: Date) -> [String] {
        let currency = report.currency.isEmpty ? "the account's currency" : report.currency + (accountCurrency ? " (the account's)" : "")
        let valued = report.records.filter { $0.worth != nil }
        let total = valued.reduce(0) { $0 + ($1.worth ?? 0) }
        let unpriced = report.records.filter { $0.worth == nil && $0.at != nil }.count
        let unasked = report.records.filter { $0.at == nil }.count
        var lines = ["Currency: \(currency)"]
        var totalLine = "Total: \(PriceFigure.money(total, report.currency)) for \(valued.count) of \(counted(report.records.count, "copy", plural: "copies"))"
        var gaps: [String] = []
        if unpriced > 0 { gaps.append("\(unpriced) with no figures on Discogs") }
        if unasked > 0 { gaps.append("\(unasked) not asked yet") }
        if !gaps.isEmpty { totalLine += " (\(gaps.joined(separator: ", ")))" }
        lines.append(totalLine)
        if let collection = report.collection {
            let value = collection.value
            lines.append(
                "Discogs' collection value: minimum \(value.minimum), median \(value.median), maximum \(value.maximum) "
                    + "(\(day(collection.at)), \(age(collection.at, now: now)))")
        }
        let ordered = report.records.enumerated().sorted { a, b in
            switch (a.element.worth, b.element.worth) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                // Asked (none on Discogs) before never asked, then in the list's order.
                if (a.element.at == nil) != (b.element.at == nil) { return a.element.at != nil }
                return a.offset < b.offset
            }
        }.map(\.element)
        for copy in ordered {
            let title = ControlCharacters.cleaned(copy.title ?? "record \(copy.id)")
            let figure: String
            if let worth = copy.worth {
                var how = copy.suggestedPrice != nil ? "suggested for \(copy.grade?.abbreviation ?? "its grade")" : "lowest listed"
                if let forSale = copy.forSale { how += ", \(forSale) for sale" }
                figure = "\(PriceFigure.money(worth, report.currency))  \(title)  (\(how)\(copy.at.map { ", \(age($0, now: now))" } ?? ""))"
            } else if let at = copy.at {
                figure = "no figures on Discogs  \(title)  (\(age(at, now: now)))"
            } else {
                figure = "not asked yet  \(title)"
            }
            lines.append("  \(figure)  #\(copy.id)")
        }
        return lines
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
