import Foundation

/// Why an import file cannot be read at all (a line that is wrong is an `ImportRefusal`,
/// not an error: the other lines are still imported).
public enum ImportError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file is UTF-16 (it starts with a UTF-16 byte order mark or holds NUL bytes between
    /// ASCII characters): a text editor's "Unicode" setting.
    case utf16
    /// The first line looks like a CSV header, but names no column crates can key a record on.
    case noKeyColumn(line: Int, columns: [String])

    public var description: String {
        switch self {
        case .utf16:
            return "the file is UTF-16 text: save it as UTF-8 (or plain ASCII) and import it again"
        case .noKeyColumn(let line, let columns):
            let shown = columns.prefix(8).map { "\"\(GTIN.displayForm(of: $0, limit: 24))\"" }.joined(separator: ", ")
            return "line \(line) looks like a CSV header (\(shown)\(columns.count > 8 ? ", …" : "")) but has no "
                + "barcode, gtin, upc, ean or release_id column: name the barcode column \"barcode\""
        }
    }

    public var errorDescription: String? { description }
}
