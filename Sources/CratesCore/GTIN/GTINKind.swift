/// The kind of barcode a GTIN was read from, named as collectors and scanners name them.
public enum GTINKind: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// 13 digits, GS1 prefix not 0.
    case ean13 = "EAN-13"
    /// 12 digits (canonically 13 with a leading 0): the North American form.
    case upcA = "UPC-A"
    /// A zero-suppressed 8-digit UPC-E, expanded to the UPC-A it stands for.
    case upcE = "UPC-E→UPC-A"
    /// 8 digits.
    case ean8 = "EAN-8"
    /// 14 digits with an indicator digit other than 0: a case or carton (ITF-14, GS1-128).
    case gtin14 = "GTIN-14"

    public var description: String { rawValue }
}

/// An EAN-2 or EAN-5 add-on: the small supplementary barcode right of the main one
/// (an issue number on periodicals, a suggested price on books and some records). It is not
/// part of the GTIN and carries no check digit of its own in the transmitted data.
public struct GTINAddOn: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 2 or 5 digits.
    public let digits: String

    /// Nil unless `digits` is 2 or 5 ASCII digits.
    public init?(_ digits: String) {
        guard [2, 5].contains(digits.utf8.count), DigitString.values(of: digits) != nil else { return nil }
        self.digits = digits
    }

    /// "EAN-2" or "EAN-5".
    public var name: String { digits.utf8.count == 2 ? "EAN-2" : "EAN-5" }

    public var description: String { digits }
}
