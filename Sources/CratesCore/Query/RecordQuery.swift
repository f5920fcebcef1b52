/// A question put to the collection, as `crates list QUERY...` and the UI's `/` filter take
/// it: words and `field:value` terms, all of which a record must pass (AND); a term with a
/// leading `-` is one it must not pass. A bare word is matched in the record's text as the
/// filter has always matched it (artist, title, labels, catalogue numbers, barcode, the
/// collector's values; accents and case folded), and a bare year (`1977`, `1975-1979`) or
/// format word (`vinyl`, `lp`, `7"`) keeps that year or format, as before.
///
/// A value of the query, parsed once (`RecordQuery(parsing:)`, `RecordQuery(arguments:)`)
/// and carried to the store, which turns each term into SQL over its indexes. The terms are
/// kept in the order typed; the grammar is in `RecordQuery+Parsing.swift`.
public struct RecordQuery: Hashable, Sendable {
    /// The terms, each of which a record must pass.
    public var terms: [Term]

    public init(terms: [Term] = []) {
        self.terms = terms
    }

    /// No term: every record.
    public var isEmpty: Bool { terms.isEmpty }

    /// One condition on a record, or its negation.
    public struct Term: Hashable, Sendable {
        /// The term as it was typed (`-artist:queen`), for messages.
        public var text: String
        /// The record must not pass `test` (`-term`).
        public var negated: Bool
        public var test: Test

        public init(text: String, negated: Bool = false, test: Test) {
            self.text = text
            self.negated = negated
            self.test = test
        }
    }

    /// What a term asks of a record.
    public enum Test: Hashable, Sendable {
        /// A bare word: in the record's filter text (folded), as the filter matches it.
        case word(String)
        /// Every word of the value in one of the record's values shown (the collector's where
        /// set, else Discogs'), folded; nil: the record has that value at all.
        case text(TextField, String?)
        /// A whole word of the format shown (`lp`, `7"`, `cd`); nil: any format.
        case format(String?)
        /// The year shown, within the range; nil: a year is known.
        case year(QueryRange<Int>?)
        /// When the copy was added.
        case added(AddedRange)
        /// In the place named (a name, a path, `#id` or a label code) or a place inside it;
        /// nil: in any place.
        case place(String?)
        /// In one of these lookup states.
        case state([LookupState])
        /// A media (or sleeve) grade within the range, worst to best; nil: graded at all.
        case media(QueryRange<GradeRank>?)
        case sleeve(QueryRange<GradeRank>?)
        /// A rating (1 to 5 stars) within the range; nil: rated at all.
        case rating(QueryRange<Int>?)
        /// The copy's release is on the wantlist (a better copy wanted), with these words in
        /// the want's notes (folded); nil: whatever its notes.
        case wanted(String?)
        /// A purchase price within the range (in the currency given, if any); nil: the price
        /// paid is known.
        case paid(PriceRange?)
        /// Lent now (not returned), to someone whose name holds the value (folded); nil: lent
        /// to anyone.
        case lent(String?)
    }

    /// The values a `field:` term of text matches in.
    public enum TextField: String, Hashable, Sendable, CaseIterable {
        case artist, title, label, catno, genre, style, country
    }

    /// The words of the query's positive text terms (bare words and the words of `artist:`,
    /// `title:`, `label:` and `catno:`), folded: each is in the filter text of every record
    /// the query keeps, so the store's text index can narrow to the records holding them
    /// before the other terms are tested.
    public var indexWords: [String] {
        var words: [String] = []
        for term in terms where !term.negated {
            switch term.test {
            case .word(let word): words.append(contentsOf: Self.folded(word))
            case .text(let field, let value?) where [.artist, .title, .label, .catno].contains(field):
                words.append(contentsOf: Self.folded(value))
            default: break
            }
        }
        return words
    }

    /// `text` folded as the filter text is, split at spaces.
    public static func folded(_ text: String) -> [String] {
        TextFolding.fold(text).split(separator: " ").map(String.init)
    }
}

/// A media or sleeve grade's place on Discogs' scale, worst (Poor) to best (Mint), so that
/// `media:VG+..` reads "VG+ or better". The sleeve's Generic, No Cover and Not Graded are not
/// on the scale: a range never holds them.
public struct GradeRank: Hashable, Sendable, Comparable {
    /// 0 (Poor) to 7 (Mint).
    public var rank: Int

    public init(_ media: MediaCondition) {
        rank = MediaCondition.allCases.count - 1 - (MediaCondition.allCases.firstIndex(of: media) ?? 0)
    }

    /// The media grade of this rank.
    public var media: MediaCondition { MediaCondition.allCases[MediaCondition.allCases.count - 1 - rank] }

    public static func < (a: GradeRank, b: GradeRank) -> Bool { a.rank < b.rank }
}

/// A range of a term's values: both ends kept (`1970..1979`), or one (`1970..`, `..1979`).
public struct QueryRange<Bound: Comparable & Hashable & Sendable>: Hashable, Sendable {
    public var lower: Bound?
    public var upper: Bound?

    public init(lower: Bound?, upper: Bound?) {
        self.lower = lower
        self.upper = upper
    }

    /// One value: from it to it.
    public init(_ value: Bound) {
        self.init(lower: value, upper: value)
    }

    public func contains(_ value: Bound) -> Bool {
        (lower.map { value >= $0 } ?? true) && (upper.map { value <= $0 } ?? true)
    }
}
