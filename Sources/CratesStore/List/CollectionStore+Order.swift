import CratesCore
import GRDB

extension ListOrder {
    /// The record column that orders the rows within a section (see `Schema.addSortKeys`),
    /// each indexed with `sectionKey` first; the record id breaks ties.
    var keyColumn: String {
        switch self {
        case .artist: "artistKey"
        case .title: "rowKey"
        case .year: "yearKey"
        case .added: "addedAt"
        case .label: "labelKey"
        case .place: "placeKey"
        }
    }

    /// `ORDER BY` terms for the record table under `alias` ("r", or "" for none).
    func orderTerms(_ alias: String = "r") -> String {
        let prefix = alias.isEmpty ? "" : "\(alias)."
        return "\(prefix)sectionKey, \(prefix)\(keyColumn), \(prefix)id"
    }
}

/// Conditions on what a record shows beside its text: its year and its format. Kept apart
/// from the text filter (`filterText` and its index), and joined to it with AND, so that
/// each can change without the other.
struct FieldConditions: Sendable, Equatable {
    var years: ClosedRange<Int>?
    /// Texts the format shown must each hold, lower case.
    var formats: [String] = []

    var isEmpty: Bool { years == nil && formats.isEmpty }

    /// The SQL condition on the record table under `alias` (its columns, and its release
    /// read by id, or from `release`, the alias of a release joined to it), and its
    /// arguments; nil when there is none.
    func sql(_ alias: String = "r", release joined: String? = nil) -> (String, StatementArguments)? {
        guard !isEmpty else { return nil }
        let r = alias.isEmpty ? "record" : alias
        let release = { (column: String) in
            joined.map { "\($0).\(column)" } ?? "(SELECT \(column) FROM release WHERE id = \(r).releaseID)"
        }
        var conditions: [String] = []
        var arguments = StatementArguments()
        if let years {
            conditions.append("coalesce(\(r).ownYear, \(release("year"))) BETWEEN ? AND ?")
            arguments += StatementArguments([years.lowerBound, years.upperBound])
        }
        // Whole words of the format ("ep" is not in "Repress"): the format lower-cased, its
        // separators (",", "+", "×" of "2×Vinyl") made spaces, with a space at each end.
        let shown = "lower(coalesce(\(r).ownFormat, \(release("formatSummary")), ''))"
        let words = "' ' || replace(replace(replace(\(shown), ',', ' '), '+', ' '), '×', ' ') || ' '"
        for format in formats {
            conditions.append("instr(\(words), ?) > 0")
            arguments += StatementArguments([" \(format.lowercased()) "])
        }
        return (conditions.joined(separator: " AND "), arguments)
    }
}
