import CratesCore
import Foundation
import GRDB

/// A query (`RecordQuery`) as SQL over the record table under an alias: each term a
/// condition, joined with AND, a negated one under NOT (a condition SQL cannot decide, on a
/// missing value, counts as not passed first: `-lent:` keeps what was never lent).
///
/// The words that every kept record's filter text holds (`RecordQuery.indexWords`) go first,
/// through `crates_contains` as the plain filter's do, so that the store can narrow through
/// its trigram index before the other terms are tested, and each term is a test of the row
/// and its release by id (no join, no sort): the list's orders walk their own indexes.
/// A caller that joins the release itself (`release:`, its alias in a LEFT JOIN on
/// `releaseID`) has the release's columns read from that row: one seek of the release per
/// record, where the subqueries cost one per column named (a year range names it twice).
///
/// Text fields are compared folded, as the filter is (`crates_fold` folds a value in SQL):
/// artist and title from `rowKey`, which holds them folded already (the values shown);
/// labels, catalogue numbers, genres and styles from the release's JSON, or the collector's.
extension RecordQuery {
    /// The condition and its arguments; nil when the query has no term. `now` is the moment
    /// ages (`added:..30d`) count back from; `withWords: false` leaves out the tests of
    /// `indexWords`, for a caller that tests them itself (the list's filter plans). Throws
    /// for a term the collection cannot answer: a place it does not have, or a field it
    /// keeps nothing for.
    func sql(
        _ db: Database, _ r: String = "r", release rel: String? = nil, withWords: Bool = true, now: Date = Date()
    ) throws -> (String, StatementArguments)? {
        var conditions: [String] = []
        var arguments = StatementArguments()
        for word in withWords ? indexWords : [] {
            conditions.append("\(FilterContains.name)(\(r).filterText, ?)")
            arguments += [word]
        }
        var tree: LocationTree?
        for term in terms {
            guard let (condition, values) = try Self.sql(term, db, r, release: rel, now: now, tree: &tree) else { continue }
            conditions.append(term.negated ? "NOT coalesce((\(condition)), 0)" : "(\(condition))")
            arguments += values
        }
        return conditions.isEmpty ? nil : (conditions.joined(separator: " AND "), arguments)
    }

    /// Whether the query is only words to find in the text: the filter's fastest plans (its
    /// snapshot in memory) serve it alone.
    var isWordsOnly: Bool {
        terms.allSatisfy { term in
            if case .word = term.test { return !term.negated }
            return false
        }
    }

    /// One term's condition; nil when `indexWords` says it all (a word typed bare).
    private static func sql(
        _ term: Term, _ db: Database, _ r: String, release rel: String?, now: Date, tree: inout LocationTree?
    ) throws -> (String, StatementArguments)? {
        let release = { (column: String) in
            rel.map { "\($0).\(column)" } ?? "(SELECT rel.\(column) FROM release rel WHERE rel.id = \(r).releaseID)"
        }
        switch term.test {
        case .word(let word):
            guard term.negated else { return nil }
            let words = RecordQuery.folded(word)
            guard !words.isEmpty else { return nil }
            return (words.map { _ in "\(FilterContains.name)(\(r).filterText, ?)" }.joined(separator: " AND "), StatementArguments(words))
        case .text(let field, let value):
            let shown = textSQL(field, r, release: release, joined: rel)
            guard let value else { return ("coalesce(\(shown), '') != ''", []) }
            if field == .country {
                // A whole word of the country ("uk" is in "UK & Europe", not in "Ukraine").
                let words = "' ' || replace(replace(replace(\(QueryFolding.name)(\(shown)), ',', ' '), '&', ' '), '/', ' ') || ' '"
                return ("instr(\(words), ?) > 0", [" \(RecordQuery.folded(value).joined(separator: " ")) "])
            }
            let words = RecordQuery.folded(value)
            let folded = field == .artist || field == .title ? shown : "\(QueryFolding.name)(\(shown))"
            return (words.map { _ in "\(FilterContains.name)(\(folded), ?)" }.joined(separator: " AND "), StatementArguments(words))
        case .format(let word):
            guard let word else { return ("coalesce(\(r).ownFormat, \(release("formatSummary")), '') != ''", []) }
            return FieldConditions(formats: [word]).sql(r, release: rel)
        case .year(let range):
            let year = "coalesce(\(r).ownYear, \(release("year")))"
            return bounded(year, lower: range?.lower, upper: range?.upper, known: "\(year) > 0")
        case .added(let range):
            let interval = range.interval(now: now)
            var parts: [String] = []
            var values = StatementArguments()
            if let from = interval.from {
                parts.append("\(r).addedAt >= ?")
                values += [from.timeIntervalSince1970]
            }
            if let before = interval.before {
                parts.append("\(r).addedAt < ?")
                values += [before.timeIntervalSince1970]
            }
            return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), values)
        case .place(let name):
            guard let name else { return ("\(r).locationID IS NOT NULL", []) }
            if tree == nil { tree = try CollectionStore.fetchTree(db) }
            guard let places = tree else { return ("0", []) }
            do {
                let place = try places.resolve(name)
                return ("\(r).locationID IN (SELECT value FROM json_each(?))", [CollectionStore.jsonArray(places.subtree(place.id))])
            } catch {
                throw RecordQueryError(term: term.text, kind: .place(error.description))
            }
        case .state(let states):
            // `+`: off the record_queue index, so the list's order stays an index walk.
            return ("+\(r).lookupState IN (\(CollectionStore.placeholders(states.count)))", StatementArguments(states.map(\.rawValue)))
        case .media(let range), .sleeve(let range):
            let column = if case .media = term.test { "\(r).mediaCondition" } else { "\(r).sleeveCondition" }
            guard let range else { return ("\(column) IS NOT NULL", []) }
            let grades = MediaCondition.allCases.filter { range.contains(GradeRank($0)) }.map(\.rawValue)
            return ("\(column) IN (SELECT value FROM json_each(?))", ["[" + grades.map(JSONStringLiteral.quoted).joined(separator: ",") + "]"])
        case .rating(let range):
            return bounded("\(r).rating", lower: range?.lower, upper: range?.upper, known: "\(r).rating > 0")
        case .wanted(let words):
            // The copy's own release on the wantlist (a better copy wanted); a removal kept
            // until the next sync is no longer wanted.
            let wanted = "SELECT 1 FROM want w WHERE w.releaseID = \(r).releaseID AND w.removedAt IS NULL"
            guard let words else { return ("EXISTS (\(wanted))", []) }
            let folded = RecordQuery.folded(words)
            let notes = folded.map { _ in " AND \(FilterContains.name)(\(QueryFolding.name)(coalesce(w.notes, '')), ?)" }.joined()
            return ("EXISTS (\(wanted)\(notes))", StatementArguments(folded))
        case .paid(let range):
            var condition = "\(r).purchasePrice IS NOT NULL"
            var values = StatementArguments()
            if let currency = range?.currency {
                condition += " AND \(r).purchaseCurrency = ?"
                values += [currency]
            }
            let amount = "CAST(\(r).purchasePrice AS REAL)"
            if let bounds = bounded(
                amount, lower: range?.amounts.lower.map { NSDecimalNumber(decimal: $0).doubleValue },
                upper: range?.amounts.upper.map { NSDecimalNumber(decimal: $0).doubleValue }, known: nil)
            {
                condition += " AND " + bounds.0
                values += bounds.1
            }
            return (condition, values)
        case .lent(let name):
            let out = "\(r).loanTo IS NOT NULL AND \(r).loanReturned IS NULL"
            guard let name else { return (out, []) }
            let words = RecordQuery.folded(name)
            return (out + words.map { _ in " AND \(FilterContains.name)(\(QueryFolding.name)(\(r).loanTo), ?)" }.joined(), StatementArguments(words))
        }
    }

    /// The value shown for a text field (the collector's where set, else Discogs'); several
    /// labels, catalogue numbers, genres or styles joined with " | ", which no word holds.
    private static func textSQL(_ field: TextField, _ r: String, release: (String) -> String, joined: String?) -> String {
        let each = { (column: String, path: String) in
            if let joined { return "(SELECT group_concat(\(path), ' | ') FROM json_each(\(joined).\(column)) j)" }
            return "(SELECT group_concat(\(path), ' | ') FROM release rel, json_each(rel.\(column)) j WHERE rel.id = \(r).releaseID)"
        }
        // rowKey: folded title, U+0001, folded artist, U+0001, GTIN.
        let rest = "substr(\(r).rowKey, instr(\(r).rowKey, char(1)) + 1)"
        switch field {
        case .title: return "substr(\(r).rowKey, 1, instr(\(r).rowKey, char(1)) - 1)"
        case .artist: return "substr(\(rest), 1, instr(\(rest), char(1)) - 1)"
        case .label: return "coalesce(\(r).ownLabel, \(each("labelsJSON", "json_extract(j.value, '$.name')")))"
        case .catno: return "coalesce(\(r).ownCatno, \(each("labelsJSON", "json_extract(j.value, '$.catno')")))"
        case .genre: return "coalesce(\(r).ownGenre, \(each("genresJSON", "j.value")))"
        case .style: return each("stylesJSON", "j.value")
        case .country: return "coalesce(\(r).ownCountry, \(release("country")))"
        }
    }

    /// `value BETWEEN lower AND upper`, either end left out; `known` (or nothing) for no end.
    private static func bounded<T: DatabaseValueConvertible>(
        _ value: String, lower: T?, upper: T?, known: String?
    ) -> (String, StatementArguments)? {
        var parts: [String] = []
        var arguments = StatementArguments()
        if let lower {
            parts.append("\(value) >= ?")
            arguments += [lower]
        }
        if let upper {
            parts.append("\(value) <= ?")
            arguments += [upper]
        }
        if parts.isEmpty { return known.map { ($0, []) } }
        return (parts.joined(separator: " AND "), arguments)
    }
}

/// `crates_fold(text)`: `text` folded as the filter folds it (`TextFolding.fold`: case,
/// accents, width; control characters dropped), NULL for NULL: the query's text fields that
/// no stored column holds folded already (labels, genres, a lender's name). Called only for
/// the records the other terms leave, after the text index narrowed them.
enum QueryFolding {
    static let name = "crates_fold"

    static let function = DatabaseFunction(name, argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return TextFolding.fold(text)
    }
}
