/// crates' own barcode for a place or a copy: an EAN-13 in GS1's restricted-distribution
/// range.
///
/// GS1 keeps the GS1 prefixes 200-299 for restricted distribution ("in-store" numbers a
/// company assigns for its own use, GS1 General Specifications §1.4.5 and the prefix table in
/// ../shared/gs1/gtin-prefixes.tsv), so such a number never clashes with a record's own
/// barcode, and every EAN scanner reads it. A keyboard-wedge scanner types it as 13 digits
/// and Enter, like any record.
///
/// The scheme (fixed: the store and every printed label rely on it):
/// - `290` + the location id, 9 digits zero-padded, + the GS1 check digit: a location label;
/// - `291` + the record (copy) id, 9 digits zero-padded, + the check digit: a copy label.
///
/// So location 17 is `2900000000179` and copy 5 is `2910000000055`.
public struct LabelCode: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// What a label stands for.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
        /// A place: a room, a shelf or a crate.
        case location
        /// One copy of a record (a row of the collection).
        case copy

        /// The GS1 prefix of this kind's codes, in the restricted-distribution range 200-299.
        public var prefix: String {
            switch self {
            case .location: "290"
            case .copy: "291"
            }
        }

        /// The kind whose codes start with `prefix`, if any.
        public init?(prefix: some StringProtocol) {
            guard let kind = Self.allCases.first(where: { $0.prefix == prefix }) else { return nil }
            self = kind
        }

        public var description: String { rawValue }
    }

    /// The ids a code can carry: the 9 digits between the prefix and the check digit.
    public static let idRange: ClosedRange<Int> = 0...999_999_999

    /// What the label stands for.
    public let kind: Kind
    /// The location id or the record id.
    public let id: Int
    /// The 13-digit EAN-13 the label prints.
    public let gtin: GTIN

    /// The code for `kind` and `id`; nil when `id` is outside `idRange` (9 digits).
    public init?(kind: Kind, id: Int) {
        guard Self.idRange.contains(id) else { return nil }
        let body = kind.prefix + Self.zeroPadded(id)
        guard let digits = DigitString.values(of: body),
              let gtin = GTIN(digits: digits + [CheckDigit.compute(body: digits)])
        else { return nil }
        self.kind = kind
        self.id = id
        self.gtin = gtin
    }

    /// The label code `gtin` is, or nil when it is not one of crates' codes (any other
    /// barcode, a record's own or another shop's in-store number).
    public init?(_ gtin: GTIN) {
        let digits = gtin.canonical
        guard digits.utf8.count == 13, let kind = Kind(prefix: digits.prefix(3)),
              let id = Int(digits.dropFirst(3).prefix(9))
        else { return nil }
        self.kind = kind
        self.id = id
        self.gtin = gtin
    }

    /// The 13 digits, as printed beneath the bars and typed by a scanner.
    public var digits: String { gtin.canonical }

    /// A short human description, for `crates barcode` and status lines:
    /// "crates location label 17", "crates copy label 5".
    public var summary: String { "crates \(kind) label \(id)" }

    public var description: String { digits }

    /// Why the code is not a record's barcode, for every place that refuses it as one:
    /// "crates location label 17: a place's own label, not a record's barcode".
    public var notARecordReason: String {
        switch kind {
        case .location: "\(summary): a place's own label, not a record's barcode"
        case .copy: "\(summary): the sticker of record \(id) in the collection, not a record's barcode"
        }
    }

    /// Location labels first, then copy labels, each by id.
    public static func < (lhs: LabelCode, rhs: LabelCode) -> Bool { lhs.gtin < rhs.gtin }

    static func zeroPadded(_ id: Int) -> String {
        let text = String(id)
        return String(repeating: "0", count: max(0, 9 - text.count)) + text
    }
}
