import Foundation

/// The scanner socket protocol: each event is one line of UTF-8 JSON (RFC 8259), an object
/// with three string members, newline-terminated:
///
///     {"symbology":"EAN-13","data":"5099750442227","at":"2026-11-22T10:00:00Z"}
///
/// `at` is an RFC 3339 date-time; crates writes UTC with whole seconds and reads fractional
/// seconds and offsets too. Readers ignore members they do not know (room to grow) and drop,
/// with a warning, any line longer than `maximumLineLength` bytes, not UTF-8, not JSON, or
/// without the three members.
extension ScanEvent {
    /// The longest line a reader accepts, in bytes, not counting the newline.
    public static let maximumLineLength = 4096

    /// The event as one line of JSON, without the newline: members in the documented order.
    public var jsonLine: String {
        "{\"symbology\":\(JSONStringLiteral.quoted(symbology.rawValue)),\"data\":\(JSONStringLiteral.quoted(data)),"
            + "\"at\":\"\(at.formatted(Date.ISO8601FormatStyle()))\"}"
    }

    /// The line as bytes on the wire, newline included. Throws `.tooLong` when it would be
    /// longer than a reader accepts (a big QR code), so a daemon never sends what every
    /// client would drop.
    public func encodedLine() throws(ScanLineError) -> [UInt8] {
        var bytes = Array(jsonLine.utf8)
        guard bytes.count <= Self.maximumLineLength else { throw .tooLong(bytes: bytes.count) }
        bytes.append(0x0A)
        return bytes
    }

    /// Reads one line (without its newline; a trailing CR is tolerated). Never traps: anything
    /// that is not an event is a `ScanLineError` naming what is wrong.
    public init<Bytes: Collection<UInt8>>(jsonLine line: Bytes) throws(ScanLineError) {
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }
        guard bytes.count <= Self.maximumLineLength else { throw .tooLong(bytes: bytes.count) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            throw .notJSON(detail: "read “\(GTIN.displayForm(of: text, limit: 40))”")
        }
        guard let members = object as? [String: Any] else { throw .notAnObject }
        func string(_ name: String) throws(ScanLineError) -> String {
            guard let value = members[name], !(value is NSNull) else { throw .missingField(name) }
            guard let string = value as? String else { throw .wrongType(field: name, expected: "a string") }
            guard !string.isEmpty else { throw .emptyField(name) }
            return string
        }
        let symbology = try string("symbology")
        let data = try string("data")
        let stamp = try string("at")
        guard let at = Self.parseTime(stamp) else { throw .badTimestamp(stamp) }
        self.init(symbology: ScanSymbology(rawValue: symbology), data: data, at: at)
    }

    /// The one line a daemon sends a client it turns away (at its client limit) before it
    /// closes the connection: `{"error":"…"}` and a newline. An event line never has an
    /// `error` member, and a reader that does not know this line drops it as it drops any
    /// line without the event's members.
    public static func refusalLine(_ reason: String) -> [UInt8] {
        Array("{\"error\":\(JSONStringLiteral.quoted(reason))}\n".utf8)
    }

    /// The reason, when `line` is a daemon's refusal (a JSON object with a string `error`
    /// member and no `data`); nil for anything else.
    public static func refusal<Bytes: Collection<UInt8>>(inJSONLine line: Bytes) -> String? {
        guard line.count <= maximumLineLength,
              let members = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
              members["data"] == nil, let reason = members["error"] as? String
        else { return nil }
        return reason
    }

    /// RFC 3339 §5.6 date-time, with or without fractional seconds.
    static func parseTime(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
