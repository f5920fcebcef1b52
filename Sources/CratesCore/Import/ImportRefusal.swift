/// A line of an import file that is not imported, and why. Reported as
/// `gtins.txt:17: 5099750442228: check digit should be 7, got 8: …`.
public struct ImportRefusal: Hashable, Sendable, CustomStringConvertible {
    /// Why a line is refused.
    public enum LineError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The barcode does not read (the parser says exactly why).
        case barcode(GTINError)
        /// A crates label that does not read (a wrong check digit: which label was meant).
        case label(LabelCodeError)
        /// A valid GTIN that is not a record's barcode: an ISBN, an ISSN, a coupon, a shop's
        /// price label (GS1 prefix classification).
        case notARecord(GTIN, reason: String)
        /// The `release_id` column holds something else than a Discogs release number.
        case releaseID(String)
        /// The date column holds something that is not a date.
        case date(String)
        /// A condition column holds something that is not a Discogs grade.
        case condition(ConditionError)
        /// The rating column holds something that is not 0 to 5.
        case rating(RatingError)
        /// A CSV row with neither a barcode nor a release id (nor a catalogue number or a
        /// title to search by).
        case noBarcode
        /// A row described by its catalogue number, artist and title whose values cannot make
        /// a search (a control character, a field too long, a year out of range).
        case description(String)
        /// A quoted CSV field opened on this line is never closed: the rest of the file, up
        /// to `lastLine`, was read as that one field.
        case unterminatedQuote(lastLine: Int)
        /// A line (or a CSV row) of `length` bytes, over the `limit`: no barcode line is that
        /// long. Skipped without being kept.
        case tooLong(length: Int, limit: Int)
        /// With `--strict`: a quoted field runs over these lines, which read as rows of their
        /// own (see `ImportWarning.Kind.quotedFieldSpansRows`).
        case quotedFieldSpansRows(rowLines: [Int])

        public var description: String {
            switch self {
            case .barcode(let error):
                error.description
            case .label(let error):
                error.description
            case .notARecord(_, let reason):
                reason
            case .releaseID(let text):
                "release_id \"\(GTIN.displayForm(of: text, limit: 24))\" is not a Discogs release number (digits, like 249504)"
            case .date(let text):
                "date \"\(GTIN.displayForm(of: text, limit: 32))\" is not a date: write it as 2024-05-01 or 2024-05-01 12:34:56"
            case .condition(let error):
                error.description
            case .rating(let error):
                error.description
            case .noBarcode:
                "the row has no barcode, release_id, catalogue number or title: nothing to find the record by"
            case .description(let reason):
                reason
            case .unterminatedQuote(let lastLine):
                "a quoted field opened here is never closed: the rest of the file (to line \(lastLine)) "
                    + "was read as one field; close the quote (\") or double the quotes inside it"
            case .tooLong(let length, let limit):
                "the line is \(length) bytes long, more than the \(limit) a line may have: skipped"
            case .quotedFieldSpansRows(let rows):
                "a quoted field opened here runs over \(ImportWarning.lines(rows)), which look like rows of their own: "
                    + "close the quote (\") where the field ends, or double the quotes inside it"
            }
        }

        /// Whether the line holds a valid barcode that is simply not a record's.
        public var isNotARecord: Bool {
            if case .notARecord = self { return true }
            return false
        }
    }

    /// The 1-based line the refused line (or CSV row) starts on.
    public var line: Int
    /// The offending text, made safe for a terminal (escapes, at most 64 characters); empty
    /// when there is nothing to show.
    public var input: String
    public var reason: LineError

    /// `input` is made safe to show (see `GTIN.displayForm(of:)`).
    public init(line: Int, input: String, reason: LineError) {
        self.line = line
        self.input = GTIN.displayForm(of: input)
        self.reason = reason
    }

    /// `17: 5099750442228: check digit should be 7, …` (the file's name goes in front).
    public var description: String {
        input.isEmpty ? "\(line): \(reason)" : "\(line): \(input): \(reason)"
    }

    /// The line as a compiler-style message: `gtins.txt:17: 5099750442228: …`.
    public func message(file: String) -> String {
        "\(file):\(description)"
    }
}
