/// A Global Trade Item Number as printed under a barcode, in canonical form.
///
/// Stored as text, never as an integer: leading zeros are part of the number.
///
/// Every GTIN is at heart a 14-digit number: the GS1 General Specifications right-align the
/// shorter GTINs with leading zeros in the 14-digit field of AI (01). The canonical form is the
/// shortest of 8, 13 or 14 digits that keeps the number whole:
///
/// - 14 digits when the indicator digit (the first of the 14) is not 0: a GTIN-14;
/// - 8 digits when the 14-digit form starts with six zeros: a GTIN-8 (EAN-8). GS1 keeps the
///   GS1 prefixes 0000000-0000009 and 000001-000009 free for exactly this reason;
/// - 13 digits otherwise: EAN-13, and UPC-A (and so UPC-E) with a leading 0.
///
/// So "0 77774 62002 4", "077774620024", "0077774620024" and "(01)00077774620024" are one
/// GTIN, `0077774620024`. Parse what a person or a scanner produced with `GTIN.parse(_:)`.
public struct GTIN: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The canonical digits: 13 for EAN-13, UPC-A and UPC-E (UPC forms carry a leading 0),
    /// 8 for EAN-8, 14 for a GTIN-14 whose indicator digit is not 0.
    public let canonical: String

    /// Rebuilds a GTIN from canonical digits already validated (e.g. read back from the store).
    /// Returns nil when `canonical` is not a valid canonical GTIN: ASCII digits only, 8, 13 or
    /// 14 of them, a correct check digit, and no leading zeros that a shorter form would drop.
    public init?(canonical: String) {
        guard let digits = DigitString.values(of: canonical), CheckDigit.isValid(digits),
              Self.canonicalDigits(ofGTIN14: Self.padded(digits)) == digits
        else { return nil }
        self.canonical = canonical
    }

    /// Builds the GTIN for any valid digit string of 8, 12, 13 or 14 digits (check digit
    /// included), reducing it to canonical form. Internal: callers outside go through the
    /// parser, which explains what is wrong with a bad input.
    init?(digits: [UInt8]) {
        guard [8, 12, 13, 14].contains(digits.count), CheckDigit.isValid(digits) else { return nil }
        canonical = DigitString.text(of: Self.canonicalDigits(ofGTIN14: Self.padded(digits)))
    }

    /// The 14-digit form (GS1 element string (01) and ITF-14 both carry this).
    public var gtin14: String { String(repeating: "0", count: 14 - canonical.count) + canonical }

    /// The 12-digit UPC-A form when this GTIN is a UPC-A (a 13-digit form starting with 0).
    public var upcA: String? {
        guard canonical.count == 13, canonical.hasPrefix("0") else { return nil }
        return String(canonical.dropFirst())
    }

    /// The 8-digit UPC-E form when this GTIN is a UPC-A that UPC-E can zero-suppress.
    public var upcE: String? { upcA.flatMap(UPCE.compress) }

    /// What the canonical form says about the symbol it came from: EAN-8, UPC-A (13 digits
    /// starting with 0), EAN-13 or GTIN-14. Never `.upcE`: only the input knows that (see
    /// `ParsedBarcode.kind`).
    public var kind: GTINKind {
        switch canonical.count {
        case 8: .ean8
        case 14: .gtin14
        default: canonical.hasPrefix("0") ? .upcA : .ean13
        }
    }

    public var description: String { canonical }

    public static func < (lhs: GTIN, rhs: GTIN) -> Bool { lhs.gtin14 < rhs.gtin14 }

    private static func padded(_ digits: [UInt8]) -> [UInt8] {
        Array(repeating: 0, count: max(0, 14 - digits.count)) + digits
    }

    /// The canonical digits of a 14-digit GTIN (see the type's documentation).
    private static func canonicalDigits(ofGTIN14 digits: [UInt8]) -> [UInt8] {
        if digits.count != 14 { return digits }
        if digits.prefix(6).allSatisfy({ $0 == 0 }) { return Array(digits.suffix(8)) }
        if digits[0] == 0 { return Array(digits.suffix(13)) }
        return digits
    }
}

/// Encoded as its canonical digits, a plain string: decoding validates them, so a store or
/// a file cannot smuggle in a GTIN the parser would not produce.
extension GTIN: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let gtin = GTIN(canonical: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a canonical GTIN")
        }
        self = gtin
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonical)
    }
}
