import Foundation

extension LabelCode {
    /// Reads `input` as the GTIN parser reads any barcode (`GTIN.parse(_:)`: a scanner's line,
    /// typed digits with spaces, a symbology identifier…) and says whether it is a crates label.
    ///
    /// - Returns: the label code, or nil when `input` is a valid barcode but not a crates
    ///   label (a record's own barcode: carry on with `GTIN.parse(_:)`'s reading).
    /// - Throws: `LabelCodeError.checkDigit` when `input` has the shape of a crates label
    ///   (13 digits starting 290 or 291) but a wrong check digit, so the message can say what
    ///   was meant; `LabelCodeError.barcode` with the parser's reason for anything else that
    ///   is not a barcode.
    public static func parse(_ input: String) throws(LabelCodeError) -> LabelCode? {
        let parsed: ParsedBarcode
        do {
            parsed = try GTIN.parse(input)
        } catch {
            if case let .checkDigit(_, expected, found) = error, let (kind, id) = intended(by: input) {
                throw .checkDigit(kind: kind, id: id, expected: expected, found: found)
            }
            throw .barcode(error)
        }
        return LabelCode(parsed.gtin)
    }

    /// The kind and id a 13-digit input starting 290 or 291 (or 14 digits, 0 first) was meant
    /// to carry, whatever its check digit: the digits as the GTIN parser reads them (any
    /// script, spaces and dashes between groups, an optional symbology identifier such as
    /// "]E0" first).
    static func intended(by input: String) -> (Kind, Int)? {
        var characters = Substring(input).drop(while: \.isWhitespace)
        if characters.first == "]" { characters = characters.dropFirst(3) }
        var digits: [UInt8] = []
        for character in characters {
            if let value = GTINParser.digitValue(character) {
                digits.append(value)
            } else if !GTINParser.isSeparator(character) {
                return nil
            }
        }
        // A GTIN-14 with indicator 0 (ITF-14, GS1-128) is the same 13 digits.
        if digits.count == 14, digits.first == 0 { digits.removeFirst() }
        guard digits.count == 13, let kind = Kind(prefix: DigitString.text(of: digits.prefix(3))),
              let id = Int(DigitString.text(of: digits[3..<12]))
        else { return nil }
        return (kind, id)
    }
}

/// Why a text is not a crates label code.
public enum LabelCodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Shaped like a crates label (13 digits starting 290 or 291) but the GS1 check digit
    /// does not match: a misread, or a typo in a typed code.
    case checkDigit(kind: LabelCode.Kind, id: Int, expected: Int, found: Int)
    /// Not a barcode at all; the GTIN parser's reason.
    case barcode(GTINError)
    /// A few digits, too few for a barcode: most likely a Discogs release id typed without
    /// its `r` (a search prints ids bare).
    case releaseNumber(String, GTINError)
    /// A web address that is not a Discogs release page.
    case webAddress(String, GTINError)

    /// The GTIN parser's error for the same input (for a wrong check digit, its own
    /// check-digit error), for callers that handle every barcode error alike.
    public var gtinError: GTINError {
        switch self {
        case let .checkDigit(_, _, expected, found): .checkDigit(kind: .ean13, expected: expected, found: found)
        case let .barcode(error), let .releaseNumber(_, error), let .webAddress(_, error): error
        }
    }

    public var description: String {
        switch self {
        case let .checkDigit(kind, id, _, _):
            "looks like crates \(kind) label \(id), but its \(gtinError.description)"
        case let .barcode(error):
            error.description
        case let .releaseNumber(digits, error):
            "\(error.description); for the Discogs release \(digits), type r\(digits)"
        case let .webAddress(text, _):
            "\(ControlCharacters.cleaned(String(text.prefix(80)))) is a web address but not a Discogs release page: "
                + "give a release page (https://www.discogs.com/release/249504-…), r249504, or a barcode"
        }
    }
}

/// So that `error.localizedDescription` says the same as `description`.
extension LabelCodeError: LocalizedError {
    public var errorDescription: String? { description }
}
