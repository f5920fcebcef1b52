import Foundation

/// The grammar of a query:
///
/// - terms are separated by spaces, and all must hold;
/// - a term is a word, or `field:value` (a field of `RecordQuery.Field`, any case);
/// - `-` before a term negates it (`-lent:`, `-live`);
/// - a value (or a word) in double quotes keeps its spaces and colons (`place:"Crate A1"`,
///   `"1977"`: the number as text, not a year); a quote is one only at the start of a word or
///   of a value, so `7"` is seven inches;
/// - a range is `low..high`, either end left out (`1970..`, `..1979`); one value is a range
///   from it to it;
/// - an empty value asks for the field to be there at all (`paid:`, `lent:`, `place:`);
/// - a bare year (`1977`, `1975-1979`) or format word (`vinyl`, `lp`, `7"`) is a `year:` or
///   `format:` term, as the filter has always read them (bare years join into one range).
extension RecordQuery {
    /// The fields a term can name, in the README table's order.
    public enum Field: String, CaseIterable, Sendable {
        case artist, title, label, catno, genre, style, format, country, year, added, place, state, media, sleeve, rating,
            wanted, paid, lent
    }

    /// Reads a query typed as one text (the UI's filter, one argument of several terms).
    public init(parsing text: String) throws(RecordQueryError) {
        self.init(terms: Self.joiningYears(try Self.tokens(in: Substring(text)).map { token throws(RecordQueryError) in try Self.term(token) }))
    }

    /// Reads a query given as a command's arguments. An argument that starts with `field:`
    /// is that one term, spaces and all (the shell has taken its quotes off already:
    /// `place:"Crate A1"` arrives as `place:Crate A1`); any other is read as text, which may
    /// hold several terms.
    public init(arguments: [String]) throws(RecordQueryError) {
        var terms: [Term] = []
        for argument in arguments {
            if let token = Self.wholeTerm(argument) {
                terms.append(try Self.term(token))
            } else {
                for token in try Self.tokens(in: Substring(argument)) { terms.append(try Self.term(token)) }
            }
        }
        self.init(terms: Self.joiningYears(terms))
    }

    /// One term as the tokenizer cuts it.
    struct Token: Equatable {
        /// As typed.
        var text: String
        var negated: Bool
        /// The field's name as typed; nil: a bare word.
        var field: String?
        var value: String
        /// The word or value was quoted.
        var quoted: Bool
    }

    static func tokens(in text: Substring) throws(RecordQueryError) -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard !text[index].isWhitespace else {
                index = text.index(after: index)
                continue
            }
            let start = index
            var negated = false
            if text[index] == "-", text.index(after: index) < text.endIndex, !text[text.index(after: index)].isWhitespace {
                negated = true
                index = text.index(after: index)
            }
            // A field: letters, then a colon.
            var field: String?
            var letters = index
            while letters < text.endIndex, text[letters].isASCII, text[letters].isLetter { letters = text.index(after: letters) }
            if letters > index, letters < text.endIndex, text[letters] == ":" {
                field = String(text[index..<letters])
                index = text.index(after: letters)
            }
            var value = ""
            var quoted = false
            if index < text.endIndex, text[index] == "\"" {
                guard let close = text[text.index(after: index)...].firstIndex(of: "\"") else {
                    throw RecordQueryError(term: String(text[start...]).trimmingCharacters(in: .whitespaces), kind: .unclosedQuote)
                }
                value = String(text[text.index(after: index)..<close])
                quoted = true
                index = text.index(after: close)
            }
            while index < text.endIndex, !text[index].isWhitespace {
                value.append(text[index])
                index = text.index(after: index)
            }
            tokens.append(Token(text: String(text[start..<index]), negated: negated, field: field, value: value, quoted: quoted))
        }
        return tokens
    }

    /// An argument that is one `field:value` term whatever it holds; nil for any other.
    static func wholeTerm(_ argument: String) -> Token? {
        var rest = Substring(argument)
        let negated = rest.first == "-"
        if negated { rest = rest.dropFirst() }
        guard let colon = rest.firstIndex(of: ":"), colon > rest.startIndex,
              rest[..<colon].allSatisfy({ $0.isASCII && $0.isLetter }),
              argument.contains(where: \.isWhitespace)
        else { return nil }
        var value = rest[rest.index(after: colon)...]
        var quoted = false
        if value.count >= 2, value.first == "\"", value.last == "\"" {
            value = value.dropFirst().dropLast()
            quoted = true
        }
        return Token(text: argument, negated: negated, field: String(rest[..<colon]), value: String(value), quoted: quoted)
    }

    static func term(_ token: Token) throws(RecordQueryError) -> Term {
        guard let name = token.field else {
            // A bare word: a year or a format word as the filter reads them, unless quoted.
            var test = Test.word(token.value)
            if !token.quoted {
                if let years = ListFilterTerms.years(Substring(token.value)) {
                    test = .year(QueryRange(lower: years.lowerBound, upper: years.upperBound))
                } else if ListFilterTerms.formatWords.contains(token.value.lowercased()) {
                    test = .format(token.value.lowercased())
                }
            }
            return Term(text: token.text, negated: token.negated, test: test)
        }
        guard let field = Field(rawValue: name.lowercased()) else {
            throw RecordQueryError(term: token.text, kind: .notAField(name))
        }
        let value = token.value.trimmingCharacters(in: .whitespaces)
        let test = try Self.test(field, value, term: token.text)
        return Term(text: token.text, negated: token.negated, test: test)
    }

    static func test(_ field: Field, _ value: String, term: String) throws(RecordQueryError) -> Test {
        let empty = value.isEmpty
        func bad(_ takes: String) -> RecordQueryError { RecordQueryError(term: term, kind: .badValue(takes)) }
        switch field {
        case .artist: return .text(.artist, empty ? nil : value)
        case .title: return .text(.title, empty ? nil : value)
        case .label: return .text(.label, empty ? nil : value)
        case .catno: return .text(.catno, empty ? nil : value)
        case .genre: return .text(.genre, empty ? nil : value)
        case .style: return .text(.style, empty ? nil : value)
        case .country: return .text(.country, empty ? nil : value)
        case .format: return .format(empty ? nil : value.lowercased())
        case .place: return .place(empty ? nil : value)
        case .wanted: return .wanted(empty ? nil : value)
        case .lent: return .lent(empty ? nil : value)
        case .year:
            if empty { return .year(nil) }
            let takes = "year: takes a year or a range of years (1977, 1970..1979, 1970.., ..1979)"
            // The filter's "1975-1979" too.
            if let legacy = ListFilterTerms.years(Substring(value), within: 1...9999), value.contains("-") {
                return .year(QueryRange(lower: legacy.lowerBound, upper: legacy.upperBound))
            }
            return .year(try range(value, term: term, takes: takes) { text in
                text.count == 4 && text.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(text) : nil
            })
        case .added:
            guard !empty else { throw RecordQueryError(term: term, kind: .notADate) }
            do {
                return .added(.ages(try range(value, term: term, takes: "", read: QueryAge.init)))
            } catch {
                if error.kind == .wrongWayRound { throw error }
            }
            do {
                return .added(.dates(try range(value, term: term, takes: "", read: QueryDate.init)))
            } catch {
                if error.kind == .wrongWayRound { throw error }
                throw RecordQueryError(term: term, kind: .notADate)
            }
        case .state:
            let takes = "state: takes a lookup state (\(LookupState.allCases.map(\.rawValue).joined(separator: ", "))), "
                + "or several separated by commas"
            var states: [LookupState] = []
            for name in value.split(separator: ",") {
                let folded = name.trimmingCharacters(in: .whitespaces).lowercased()
                guard let state = LookupState.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { throw bad(takes) }
                if !states.contains(state) { states.append(state) }
            }
            guard !states.isEmpty else { throw bad(takes) }
            return .state(states)
        case .media, .sleeve:
            if empty { return field == .media ? .media(nil) : .sleeve(nil) }
            let takes = "\(field.rawValue): takes a grade (M, NM, VG+, VG, G+, G, F, P) or a range of them from worse "
                + "to better (VG+.. for VG+ or better, G..VG)"
            let grades = try range(value, term: term, takes: takes) { text in
                (try? MediaCondition(parsing: String(text))).map(GradeRank.init)
            }
            return field == .media ? .media(grades) : .sleeve(grades)
        case .rating:
            if empty { return .rating(nil) }
            return .rating(try range(value, term: term, takes: "rating: takes stars from 0 to 5, or a range of them (4.., 2..3)") {
                text in text.count == 1 ? Int(text).flatMap { (0...5).contains($0) ? $0 : nil } : nil
            })
        case .paid:
            if empty { return .paid(nil) }
            return .paid(try priceRange(value, term: term))
        }
    }

    /// `low..high`, `low..`, `..high` or one value, each end read by `read`; a range whose low
    /// end comes after its high end is refused, as is one with no end.
    static func range<Bound>(
        _ value: String, term: String, takes: String, read: (Substring) -> Bound?
    ) throws(RecordQueryError) -> QueryRange<Bound> {
        let bad = RecordQueryError(term: term, kind: .badValue(takes))
        guard let dots = value.range(of: "..") else {
            guard let one = read(Substring(value)) else { throw bad }
            return QueryRange(one)
        }
        let low = value[..<dots.lowerBound]
        let high = value[dots.upperBound...]
        guard !(low.isEmpty && high.isEmpty) else { throw bad }
        var lower: Bound?
        var upper: Bound?
        if !low.isEmpty {
            guard let bound = read(low) else { throw bad }
            lower = bound
        }
        if !high.isEmpty {
            guard let bound = read(high) else { throw bad }
            upper = bound
        }
        if let lower, let upper, upper < lower { throw RecordQueryError(term: term, kind: .wrongWayRound) }
        return QueryRange(lower: lower, upper: upper)
    }

    /// `paid:`'s value: a range of amounts, each with a currency's code after it if you like
    /// (one currency for both ends).
    static func priceRange(_ value: String, term: String) throws(RecordQueryError) -> PriceRange {
        let takes = "paid: takes an amount or a range of amounts, a currency's code after it if you like "
            + "(12.50, 10.., 10..20, ..20GBP)"
        var currencies: Set<String> = []
        var unknown: String?
        let amounts: QueryRange<Decimal>
        do {
            amounts = try range(value, term: term, takes: takes) { text -> Decimal? in
                let letters = text.reversed().prefix { $0.isLetter }.count
                let code = text.suffix(letters)
                // A currency after an amount: letters alone ("ten") are no amount at all.
                if !code.isEmpty, letters < text.count {
                    guard let known = CurrencyCode.parse(code) else {
                        unknown = String(code)
                        return nil
                    }
                    currencies.insert(known)
                }
                return MoneyAmount.parse(text.dropLast(letters))
            }
        } catch {
            if let unknown, error.kind != .wrongWayRound { throw RecordQueryError(term: term, kind: .unknownCurrency(unknown)) }
            throw error
        }
        guard currencies.count <= 1 else {
            throw RecordQueryError(term: term, kind: .badValue("paid: give one currency for both ends (10GBP..20GBP)"))
        }
        return PriceRange(amounts: amounts, currency: currencies.first)
    }

    /// Bare year words join into one range at the first one's place, as the filter joined
    /// them ("1975 1979" is 1975 to 1979), rather than asking for two years at once.
    static func joiningYears(_ terms: [Term]) -> [Term] {
        var joined: [Term] = []
        var yearIndex: Int?
        for term in terms {
            guard !term.negated, case .year(let range?) = term.test, ListFilterTerms.years(Substring(term.text)) != nil else {
                joined.append(term)
                continue
            }
            if let index = yearIndex, case .year(let held?) = joined[index].test, let low = held.lower, let high = held.upper,
               let newLow = range.lower, let newHigh = range.upper
            {
                joined[index].test = .year(QueryRange(lower: min(low, newLow), upper: max(high, newHigh)))
                joined[index].text += " " + term.text
            } else {
                yearIndex = joined.count
                joined.append(term)
            }
        }
        return joined
    }
}
