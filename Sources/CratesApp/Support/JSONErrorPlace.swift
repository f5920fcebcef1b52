import Foundation

/// Where a JSON document stops parsing, in a person's terms: Foundation says only "Invalid
/// value around character 12." (an offset into the bytes), which is turned into a line and
/// a column of the file.
enum JSONErrorPlace {
    /// " (line 3, column 2)", " (it ends too soon)", or "" when the error does not say.
    static func describe(_ error: any Error, in data: Data) -> String {
        let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
        if detail.localizedCaseInsensitiveContains("end of file") || detail.localizedCaseInsensitiveContains("unexpected end") {
            return " (it ends too soon)"
        }
        guard let range = detail.range(of: #"character (\d+)"#, options: .regularExpression),
              let offset = Int(detail[range].dropFirst("character ".count))
        else { return "" }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return " (line \(line), column \(column))"
    }
}
