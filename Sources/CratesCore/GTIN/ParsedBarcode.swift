/// What the parser made of one input: the GTIN and what the barcode said around it.
public struct ParsedBarcode: Hashable, Sendable {
    /// The text as given to the parser.
    public let input: String
    /// The product's number, canonical.
    public let gtin: GTIN
    /// The barcode it was read as; `.upcE` when the input was a UPC-E (6, 7 or 8 digits).
    public let kind: GTINKind
    /// The EAN-2 or EAN-5 add-on that came with it, if any.
    public let addOn: GTINAddOn?
    /// The 8-digit UPC-E (number system, six digits, check digit) when the input was one,
    /// completed if the scanner sent it short.
    public let upcE: String?
    /// What the parser normalised or assumed on the way, in order.
    public let notes: [ParseNote]

    /// The issuing GS1 organisation, or the class that is not a record (see `GTINClass`).
    public var classification: GTINClass { gtin.classification }

    /// The barcode texts for a Discogs search, in order (see `GTIN.lookupForms`), with the
    /// UPC-E as scanned when it differs from the canonical UPC-E an encoder would print.
    public var lookupForms: [String] { gtin.lookupForms(scannedUPCE: upcE) }
}

/// Something the parser normalised or assumed, worth telling a collector who wonders why a
/// barcode reads as it does.
public enum ParseNote: Hashable, Sendable, CustomStringConvertible {
    /// A leading symbology identifier (ISO/IEC 15424), such as "]E0", was removed.
    case symbologyIdentifier(String)
    /// Digits from another script (Arabic-Indic, Eastern Arabic, fullwidth…) were read as 0-9.
    case unicodeDigits
    /// The GTIN was taken from the GS1 application identifier (01).
    case elementString
    /// Other application identifiers after (01), such as "(17)" or "(10)", were ignored.
    case ignoredApplicationIdentifiers([String])
    /// Unparenthesised GS1 data after the 14 digits of (01) was ignored.
    case ignoredTrailingData
    /// A UPC-E came without its number system digit: 0 was assumed.
    case numberSystemAssumed
    /// A UPC-E came without its check digit: it was computed.
    case checkDigitComputed(Int)

    public var description: String {
        switch self {
        case let .symbologyIdentifier(identifier):
            let meaning = Self.symbologyName(identifier).map { " (\($0))" } ?? ""
            return "symbology identifier \(identifier)\(meaning) removed"
        case .unicodeDigits:
            return "non-ASCII digits read as 0-9"
        case .elementString:
            return "GTIN taken from the GS1 application identifier (01)"
        case let .ignoredApplicationIdentifiers(identifiers):
            return "ignored \(identifiers.joined(separator: " ")) after (01)"
        case .ignoredTrailingData:
            return "ignored the GS1 data after (01)"
        case .numberSystemAssumed:
            return "UPC-E sent without its number system: 0 assumed"
        case let .checkDigitComputed(digit):
            return "UPC-E sent without its check digit: computed as \(digit)"
        }
    }

    /// The symbology an identifier's code letter names (ISO/IEC 15424 code characters).
    static func symbologyName(_ identifier: String) -> String? {
        switch identifier.dropFirst().first {
        case "E": "EAN/UPC"
        case "C": identifier == "]C1" ? "GS1-128" : "Code 128"
        case "I": "ITF"
        case "e": "GS1 DataBar"
        case "d": identifier == "]d2" ? "GS1 DataMatrix" : "Data Matrix"
        case "Q": identifier == "]Q3" ? "GS1 QR Code" : "QR Code"
        case "J": identifier == "]J1" ? "GS1 DotCode" : "DotCode"
        default: nil
        }
    }
}
