/// A query term crates cannot read, with the term as typed and what the field takes: the
/// message `crates list` prints (exit 64) and the UI's filter shows.
public struct RecordQueryError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// `name:` is no field.
        case notAField(String)
        /// A range whose first end comes after its second.
        case wrongWayRound
        /// A quote opened and never closed.
        case unclosedQuote
        /// `added:` given something that is no date or age.
        case notADate
        /// `paid:` given a currency crates knows none of.
        case unknownCurrency(String)
        /// A value the field does not take; the text says what it takes.
        case badValue(String)
        /// A field this crates cannot answer yet, and why.
        case unavailable(String)
        /// A place the collection does not have (or names ambiguously), in the words of the
        /// places' own error.
        case place(String)
    }

    /// The term as typed (`year:1979..1970`).
    public var term: String
    public var kind: Kind

    public init(term: String, kind: Kind) {
        self.term = term
        self.kind = kind
    }

    /// The fields a term can name, in the order the README's table lists them.
    public static let fieldList = RecordQuery.Field.allCases.map { "\($0.rawValue):" }.joined(separator: " ")

    public var description: String {
        let shown = ControlCharacters.cleaned(term)
        switch kind {
        case .notAField(let name):
            return "\(shown): \(ControlCharacters.cleaned(name)) is not a field; a term is a word or one of "
                + "\(Self.fieldList) (quote a word that holds a colon: \"\(shown)\")"
        case .wrongWayRound:
            return "\(shown): the range runs the wrong way round (its first end comes after its second)"
        case .unclosedQuote:
            return "\(shown): a quote is left open (close it: place:\"Crate A1\")"
        case .notADate:
            return "\(shown): not a date; added: takes a year, month or day (2026, 2026-11, 2026-11-20), "
                + "an age (30d, 8w, 6m, 1y), or a range of either (2026-01..2026-06, ..30d)"
        case .unknownCurrency(let code):
            return "\(shown): \(ControlCharacters.cleaned(code)) is no currency crates knows; paid: takes an amount, "
                + "with an ISO 4217 code after it if you like (10.., 10..20, ..20GBP)"
        case .badValue(let takes):
            return "\(shown): \(takes)"
        case .unavailable(let why):
            return "\(shown): \(why)"
        case .place(let why):
            return "\(shown): \(ControlCharacters.cleaned(why))"
        }
    }
}
