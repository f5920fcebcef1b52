import Foundation

/// Why an import file cannot be read at all (a line that is wrong is an `ImportRefusal`,
/// not an error: the other lines are still imported).
public enum ImportError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file is UTF-16 (it starts with a UTF-16 byte order mark, or its first characters
    /// alternate with NUL bytes): a text editor's "Unicode" setting.
    case utf16
    /// The input is not text: it holds a NUL byte, or control characters text does not
    /// have, at this byte offset (an image, an archive, /dev/zero or /dev/urandom). Refused as
    /// soon as it is seen, before the rest is read.
    case binary(offset: Int)
    /// The input is a kind of file collectors give by mistake (an archive, a compressed
    /// list, a spreadsheet, a database, a picture), told by its first bytes.
    case format(BinaryFormat)
    /// The first line looks like a CSV header, but names no column crates can key a record on.
    case noKeyColumn(line: Int, columns: [String])
    /// The header names a key column (`kind`: "barcode" or "release_id") more than once
    /// (`barcode,barcode`, `barcode,EAN`): which one to read would be a guess. `columns` are
    /// 1-based positions with their names.
    case repeatedKeyColumn(line: Int, kind: String, columns: [RepeatedColumn])
    /// The file is JSON (its first line starts with `{` or `[`): not barcodes or CSV, or
    /// (`cratesExport`) crates' own `export --json` file starting past its first line.
    case json(line: Int, cratesExport: Bool)

    /// A column of a header, for `repeatedKeyColumn`.
    public struct RepeatedColumn: Hashable, Sendable {
        /// 1-based, as a spreadsheet counts.
        public var position: Int
        public var name: String

        public init(_ position: Int, _ name: String) {
            self.position = position
            self.name = name
        }
    }

    static func repeatedKeyColumn(line: Int, kind: String, columns: [(Int, String)]) -> ImportError {
        .repeatedKeyColumn(line: line, kind: kind, columns: columns.map { RepeatedColumn($0.0, $0.1) })
    }

    public var description: String { description(file: "FILE") }

    /// The description, its advice naming the input as `file` (a shell word: see
    /// `BinaryFormat.shellWord`).
    public func description(file: String) -> String {
        switch self {
        case .utf16:
            return "the file is UTF-16 text: save it as UTF-8 (or plain ASCII) and import it again"
        case .binary(let offset):
            return "this is not a text file (binary data at byte \(offset)): name a file of barcodes, "
                + "one per line, or a CSV file"
        case .format(let format):
            return format.advice(file: file)
        case .noKeyColumn(let line, let columns):
            let shown = columns.prefix(8).map { "\"\(GTIN.displayForm(of: $0, limit: 24))\"" }.joined(separator: ", ")
            return "line \(line) looks like a CSV header (\(shown)\(columns.count > 8 ? ", …" : "")) but has no "
                + "barcode, gtin, upc, ean or release_id column: name the barcode column \"barcode\""
        case .repeatedKeyColumn(let line, let kind, let columns):
            let shown = columns.map { "\"\(GTIN.displayForm(of: $0.name, limit: 24))\" (column \($0.position))" }
            return "line \(line) names the \(kind) column \(columns.count) times: \(shown.joined(separator: ", ")); "
                + "crates would have to guess which to read: keep one \(kind) column (rename or remove the others)"
        case .json(let line, let cratesExport):
            return cratesExport
                ? "line \(line) starts crates' JSON export, which is restored only whole, from its first line "
                    + "(crates import FILE, into an empty collection); nothing was imported"
                : "line \(line) starts JSON: crates import reads barcodes (one a line), CSV files, and crates' own "
                    + "`export --json` file; nothing was imported"
        }
    }

    public var errorDescription: String? { description }
}
