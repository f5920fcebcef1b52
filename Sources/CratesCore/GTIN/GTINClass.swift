/// Who issued a GTIN, or what kind of number it is when it cannot be a record's own barcode.
///
/// Only `.issuer` and `.unassigned` can be a music release: a record label's barcode comes
/// from a GS1 member organisation (named for a country, which says where the label joined
/// GS1, not where the record was pressed). An unassigned prefix is likely a misread or a
/// home-made number, but some small labels print such numbers and Discogs records them as
/// printed, so it is still worth a lookup.
public enum GTINClass: Hashable, Sendable, CustomStringConvertible {
    /// Issued by the GS1 member organisation (or GS1 office) the prefix table names.
    case issuer(String)
    /// A prefix GS1 has not assigned (the 3 digits).
    case unassigned(prefix: String)
    /// Bookland, 978 and 979 except 9790.
    case isbn
    /// 9790: International Standard Music Number, printed music.
    case ismn
    /// 977: serial publications.
    case issn
    /// Coupons: 050-059, 981-984 and 99.
    case coupon
    /// Refund receipts: 980.
    case refundReceipt
    /// Restricted circulation numbers: a shop's in-store or variable-weight label
    /// (020-029, 040-049, 200-299; GTIN-8s starting 0 or 2).
    case restrictedCirculation

    /// Why this number is not worth a Discogs lookup, or nil when it may be a record.
    public var notARecordReason: String? {
        switch self {
        case .issuer, .unassigned: nil
        case .isbn: "an ISBN: a book, not a record"
        case .ismn: "an ISMN: printed music (a score), not a record"
        case .issn: "an ISSN: a magazine or other periodical, not a record"
        case .coupon: "a coupon, not a record"
        case .refundReceipt: "a refund receipt, not a record"
        case .restrictedCirculation:
            "a restricted-circulation number (a shop's in-store or price label), not the record's own barcode"
        }
    }

    /// Whether a Discogs lookup is worth making.
    public var isMusicReleaseCandidate: Bool { notARecordReason == nil }

    /// The issuer's name, or the reason this is not a record.
    public var description: String {
        switch self {
        case let .issuer(name): name
        case let .unassigned(prefix): "GS1 prefix \(prefix) is not assigned: a misread, or a number not issued by GS1"
        default: notARecordReason ?? ""
        }
    }
}
