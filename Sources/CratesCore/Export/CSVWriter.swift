/// Fields and records of comma-separated values as RFC 4180 §2 defines them: fields joined
/// by commas; a field holding a comma, a double quote, a CR or an LF enclosed in double
/// quotes (§2.6), its double quotes doubled (§2.7). Everything else goes out as it is:
/// nothing is trimmed, escaped with backslashes or dropped, so any text reads back intact.
///
/// Fields that start or end with a space or a tab are quoted too, which RFC 4180 does not
/// require, because some readers trim unquoted fields.
public struct CSVWriter: Hashable, Sendable {
    /// What ends a record. RFC 4180 §2.1 says CRLF; Discogs' own exports (and most Unix
    /// tools) use LF, and every CSV reader accepts both. Line breaks inside a quoted field
    /// are written as they are in the text, whichever this is.
    public enum LineEnding: String, Hashable, Sendable, CaseIterable {
        case lf = "\n"
        case crlf = "\r\n"
    }

    public var lineEnding: LineEnding

    public init(lineEnding: LineEnding = .lf) {
        self.lineEnding = lineEnding
    }

    /// One record: the fields, each quoted when it must be, joined by commas, then the line
    /// ending.
    public func record(_ fields: [String]) -> String {
        var line = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { line += "," }
            line += Self.field(field)
        }
        return line + lineEnding.rawValue
    }

    /// One field, quoted when it must be (see the type's rules).
    public static func field(_ text: String) -> String {
        guard needsQuotes(text) else { return text }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        // By scalar, not by Character: a quote followed by a combining mark is one grapheme
        // cluster, but still a quote to a CSV reader.
        for scalar in text.unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }

    static func needsQuotes(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09 { return true }
        // Bytes, not Characters: "\r\n" is a single Character, equal to neither "\r" nor "\n".
        return bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }
    }
}
