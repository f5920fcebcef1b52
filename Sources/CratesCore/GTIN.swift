/// A Global Trade Item Number as printed under a barcode, in canonical form.
///
/// Stored as text, never as an integer: leading zeros are part of the number.
public struct GTIN: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The canonical digits: 13 for EAN-13, UPC-A and UPC-E (UPC forms carry a leading 0),
    /// 8 for EAN-8, 14 for a GTIN-14 whose indicator digit is not 0.
    public let canonical: String

    /// Rebuilds a GTIN from canonical digits already validated (e.g. read back from the store).
    /// Returns nil when `canonical` is not a valid canonical GTIN.
    public init?(canonical: String) {
        // Placeholder until the parser lands (issue 2).
        guard [8, 13, 14].contains(canonical.count), canonical.allSatisfy(\.isASCII), canonical.allSatisfy(\.isNumber) else { return nil }
        self.canonical = canonical
    }

    public var description: String { canonical }
}
