import Foundation

/// Why a line received on the scanner socket is not a scan event. The line is dropped with
/// this message; it never stops the reader.
public enum ScanLineError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// Longer than `ScanEvent.maximumLineLength` bytes (the newline not counted).
    case tooLong(bytes: Int)
    /// The bytes are not UTF-8 (RFC 8259 §8.1: JSON text exchanged between systems is UTF-8).
    case notUTF8
    /// Not a JSON text; `detail` says what the JSON reader saw.
    case notJSON(detail: String)
    /// JSON, but not an object (`[…]`, a number, a string…).
    case notAnObject
    /// A required member is missing or null.
    case missingField(String)
    /// A member has the wrong JSON type.
    case wrongType(field: String, expected: String)
    /// A member is an empty string.
    case emptyField(String)
    /// `at` is not an RFC 3339 date-time such as 2026-11-22T10:00:00Z.
    case badTimestamp(String)

    public var description: String {
        switch self {
        case let .tooLong(bytes):
            "a line of \(bytes) bytes is longer than the \(ScanEvent.maximumLineLength)-byte limit of the scanner protocol"
        case .notUTF8:
            "the line is not UTF-8 text"
        case let .notJSON(detail):
            "the line is not JSON (\(detail))"
        case .notAnObject:
            "the line is JSON but not an object: expected {\"symbology\":…,\"data\":…,\"at\":…}"
        case let .missingField(name):
            "the event has no \"\(name)\" member"
        case let .wrongType(field, expected):
            "the event's \"\(field)\" member is not \(expected)"
        case let .emptyField(name):
            "the event's \"\(name)\" member is empty"
        case let .badTimestamp(text):
            "the event's \"at\" member, \"\(GTIN.displayForm(of: text, limit: 40))\", is not an RFC 3339 time such as 2026-11-22T10:00:00Z"
        }
    }

    public var errorDescription: String? { description }
}
