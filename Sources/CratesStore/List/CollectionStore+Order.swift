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

/// The list's order laid out: `order`, either way round, in genre sections or flat
/// (`CollectionQuery.descending`, `flat`).
///
/// The list is a run of groups: in sections, each section (`sectionKey`); flat, the records
/// matched and then those of the Unknown section (`flatGroup`). A group's rows are ordered
/// by the order's key and the id, both ascending or both descending; the groups stay in
/// their order (a descending list keeps its sections A–Z, as `crates list --reverse` does,
/// and its records not matched yet last when flat, as `--flat` does). In sections, a window
/// across groups is read group by group, each one walk of the order's index (`record_order`,
/// `record_by_artist`, …) forwards or backwards; flat, no index holds the order (one would
/// cost every write), and an unfiltered window is a slice of `FlatList`.
struct ListArrangement: Hashable, Sendable {
    var order: ListOrder
    var descending = false
    var flat = false

    init(order: ListOrder, descending: Bool = false, flat: Bool = false) {
        self.order = order
        self.descending = descending
        self.flat = flat
    }

    init(_ query: CollectionQuery) {
        self.init(order: query.order, descending: query.descending, flat: query.flat)
    }

    /// The one arrangement whose groups and order are the sections' and `order`'s ascending.
    var isSectionsAscending: Bool { !descending && !flat }

    /// The flat list's group of a record under `alias`: 0 matched (not in the Unknown section),
    /// 1 in it.
    static func flatGroup(_ alias: String = "r") -> String {
        let prefix = alias.isEmpty ? "" : "\(alias)."
        return "(\(prefix)sectionKey = '1' || char(1) || '\(Section.unknown)')"
    }

    /// The column or expression whose value is the group.
    func group(_ alias: String = "r") -> String {
        flat ? Self.flatGroup(alias) : (alias.isEmpty ? "sectionKey" : "\(alias).sectionKey")
    }

    /// `ORDER BY` terms for the whole list under `alias`.
    func orderTerms(_ alias: String = "r") -> String {
        let prefix = alias.isEmpty ? "" : "\(alias)."
        let direction = descending ? " DESC" : ""
        return "\(group(alias)), \(prefix)\(order.keyColumn)\(direction), \(prefix)id\(direction)"
    }

    /// `ORDER BY` terms within one group.
    func groupOrderTerms(_ alias: String = "r") -> String {
        let prefix = alias.isEmpty ? "" : "\(alias)."
        let direction = descending ? " DESC" : ""
        return "\(prefix)\(order.keyColumn)\(direction), \(prefix)id\(direction)"
    }

    /// The condition that a record under `alias` comes before the record whose key is
    /// (`key`, `id`) within their group: two arguments of the key, one of the id.
    func beforeCondition(_ alias: String = "r") -> String {
        let prefix = alias.isEmpty ? "" : "\(alias)."
        let column = "\(prefix)\(order.keyColumn)"
        let less = descending ? ">" : "<"
        return "(\(column) \(less) ? OR (\(column) = ? AND \(prefix)id \(less) ?))"
    }

    /// One group of the list: its condition on `record r` (with its one argument), and how
    /// many records it has.
    struct Group {
        var condition: String
        var value: DatabaseValue
        var count: Int
    }

    /// Every section of the whole (unfiltered) list in sections, in order, from
    /// `sectionCount` (counts kept by triggers: a handful of rows, whatever the collection).
    /// Flat has no index to walk a group by: `FlatList`.
    func groups(_ db: Database) throws -> [Group] {
        precondition(!flat, "a flat list's windows are FlatList's")
        return try Row.fetchAll(db, sql: "SELECT sectionKey, count FROM sectionCount WHERE count > 0 ORDER BY sectionKey").map { row in
            Group(condition: "r.sectionKey = ?", value: row[0], count: try row.decode(Int.self, atIndex: 1))
        }
    }

    /// The group value of a record whose section key is `sectionKey`.
    func groupValue(sectionKey: String) -> DatabaseValue {
        flat ? (sectionKey == SortKey.unknownSection ? 1 : 0).databaseValue : sectionKey.databaseValue
    }
}
