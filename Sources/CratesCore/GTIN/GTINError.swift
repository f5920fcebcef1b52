import Foundation

/// Why a text is not a barcode crates can read. Each message says what was found and what
/// would be right, so a collector can fix a typo or a scanner setting.
public enum GTINError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing but whitespace.
    case empty
    /// A control or invisible formatting character (NUL, ESC, a zero-width space…) at a
    /// 1-based character position of the input.
    case controlCharacter(scalar: UInt32, position: Int)
    /// A character that is neither a digit nor a separator, at a 1-based position.
    case invalidCharacter(String, position: Int)
    /// A count of digits no barcode has.
    case wrongLength(digits: Int)
    /// The check digit does not match the digits before it (GS1 mod-10).
    case checkDigit(kind: GTINKind, expected: Int, found: Int)
    /// Eight digits valid as neither EAN-8 nor UPC-E. `upcEExpected` is nil when the first
    /// digit rules UPC-E out (its number system must be 0 or 1).
    case notEAN8NorUPCE(ean8Expected: Int, upcEExpected: Int?, found: Int)
    /// Seven digits valid as neither UPC-E form a scanner may send: without its number system
    /// (check digit last) nor without its check digit (number system 0 first).
    case notShortUPCE(expected: Int, found: Int, firstDigit: Int)
    /// A symbology identifier ("]E0") that is cut short, at a 1-based position.
    case symbologyIdentifier(String, position: Int)
    /// A GS1 element string ("(01)…") without a usable GTIN; the text says what is wrong.
    case elementString(String)

    /// The digit counts accepted, for messages.
    static let acceptedLengths = "8 (EAN-8, UPC-E), 12 (UPC-A), 13 (EAN-13) or 14 (GTIN-14) digits, "
        + "6 or 7 for a UPC-E sent short, plus 2 or 5 for an add-on"

    public var description: String {
        switch self {
        case .empty:
            return "empty: there is no barcode to read"
        case let .controlCharacter(scalar, position):
            return "control character \(Self.escaped(scalar))\(Self.controlName(scalar).map { " (\($0))" } ?? "") "
                + "at position \(position): a barcode holds only digits (is a scanner or file sending binary data?)"
        case let .invalidCharacter(character, position):
            return "\"\(character)\" at position \(position) is not a digit: a barcode holds only digits, "
                + "with spaces or dashes between groups"
        case let .wrongLength(count):
            if count == 0 {
                return "no digits: a barcode has \(Self.acceptedLengths)"
            } else if count > 18 {
                return "\(count) digits is too long: a barcode has \(Self.acceptedLengths)"
            } else if count < 6 {
                return "\(count) digit\(count == 1 ? "" : "s") is too short: a barcode has \(Self.acceptedLengths)"
            }
            return "\(count) digits is not a barcode length: a barcode has \(Self.acceptedLengths)"
        case let .checkDigit(kind, expected, found):
            return "check digit should be \(expected), got \(found): a misread or a typo (read as \(kind.description))"
        case let .notEAN8NorUPCE(ean8Expected, upcEExpected, found):
            let upcE = upcEExpected.map { "check digit should be \($0), got \(found)" }
                ?? "its first digit, the number system, must be 0 or 1"
            return "8 digits, tried as EAN-8 (check digit should be \(ean8Expected), got \(found)) "
                + "and as UPC-E (\(upcE)): a misread or a typo"
        case let .notShortUPCE(expected, found, firstDigit):
            return "7 digits, tried as a UPC-E without its number system (check digit should be \(expected), "
                + "got \(found)) and as a UPC-E without its check digit (it would start with 0, not \(firstDigit)): "
                + "a misread or a typo"
        case let .symbologyIdentifier(text, position):
            return "\"\(text)\" at position \(position) starts a symbology identifier (like ]E0) but is cut short"
        case let .elementString(problem):
            return "GS1 element string: \(problem)"
        }
    }

    /// The scalar as a Swift-style escape, so that no control character reaches a terminal.
    static func escaped(_ scalar: UInt32) -> String {
        switch scalar {
        case 0x00: return "\\0"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        default: return "\\u{\(String(scalar, radix: 16, uppercase: true))}"
        }
    }

    /// The usual name of a control character, when it has a short well-known one.
    static func controlName(_ scalar: UInt32) -> String? {
        switch scalar {
        case 0x00: "NUL"
        case 0x07: "BEL"
        case 0x08: "backspace"
        case 0x09: "tab"
        case 0x0A: "line feed"
        case 0x0B: "vertical tab"
        case 0x0C: "form feed"
        case 0x0D: "carriage return"
        case 0x1B: "ESC"
        case 0x1D: "GS, group separator"
        case 0x7F: "DEL"
        case 0x80...0x9F: "C1 control"
        case 0x200B: "zero-width space"
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: "bidirectional formatting"
        case 0xFEFF: "byte order mark"
        default: nil
        }
    }
}

/// So that `error.localizedDescription` says the same as `description` (without this, Linux
/// Foundation prints "The operation could not be completed").
extension GTINError: LocalizedError {
    public var errorDescription: String? { description }
}
