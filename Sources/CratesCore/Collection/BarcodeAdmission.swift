/// The one rule for which barcodes become records, in every entry point (the TUI's prompt and
/// scans, `crates add`, `crates lookup`, `crates import`).
///
/// - A record's own barcode (a GS1 member's number, or an unassigned prefix some small labels
///   print) is added.
/// - A number of another kind (an ISBN, ISMN, ISSN, coupon or refund receipt) is most likely
///   a misdirected scan, but Discogs lists audiobooks and book-and-CD sets under their ISBNs:
///   the person confirms it (the TUI asks; the command line wants `--force`), and a confirmed
///   one is looked up like any barcode.
/// - A restricted-circulation number (GS1 prefixes 020–029, 040–049, 200–299; GTIN-8s
///   starting 0 or 2) is never a product's barcode: a shop's price sticker, or crates' own
///   location and copy labels (prefixes 290 and 291). It is never added as a record.
/// - crates' own labels (`LabelCode`) are told apart before that rule (`.label`): a place's
///   or a copy's label, which the collection UI acts on and everything else refuses as a
///   record, saying whose label it is.
public enum BarcodeAdmission: Hashable, Sendable {
    case record
    case confirm(NotARecord)
    case reserved(reason: String)
    case label(LabelCode)

    /// The command line's form of the rule: nil when admitted (`force` admits what a person
    /// may confirm), otherwise why not.
    public func refusal(force: Bool, action: String = "add it anyway") -> String? {
        switch self {
        case .record: nil
        case .confirm(let code): force ? nil : code.refusal(action)
        case .reserved(let reason): reason
        case .label(let code): code.notARecordReason
        }
    }
}

/// A valid barcode of a kind that is not a record's, which a person may still add.
public struct NotARecord: Hashable, Sendable {
    public var gtin: GTIN
    /// "an ISBN: a book, not a record".
    public var reason: String
    /// "a book (ISBN 9781617292156)".
    public var what: String

    /// The TUI's question: "This is a book (ISBN 9781617292156): add it anyway?"
    public var question: String { "This is \(what): add it anyway?" }

    /// The command line's refusal: "an ISBN: a book, not a record; add it anyway with --force".
    public func refusal(_ action: String = "add it anyway") -> String { "\(reason); \(action) with --force" }
}

extension GTIN {
    /// Whether this barcode becomes a record (see `BarcodeAdmission`).
    public var admission: BarcodeAdmission {
        if let label = LabelCode(self) { return .label(label) }
        let classification = self.classification
        let what: String
        switch classification {
        case .issuer, .unassigned: return .record
        case .restrictedCirculation:
            return .reserved(
                reason: "a restricted-circulation number (a shop's price label, or a crates label), not a record's barcode")
        case .isbn: what = "a book (ISBN \(canonical))"
        case .ismn: what = "printed music (ISMN \(canonical))"
        case .issn: what = "a magazine or periodical (ISSN \(canonical))"
        case .coupon: what = "a coupon (\(canonical))"
        case .refundReceipt: what = "a refund receipt (\(canonical))"
        }
        return .confirm(NotARecord(gtin: self, reason: classification.notARecordReason ?? what, what: what))
    }
}
