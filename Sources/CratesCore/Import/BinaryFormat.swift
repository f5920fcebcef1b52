import Foundation

/// A kind of file that is not a list but that collectors hand to `crates import` by
/// mistake, told by its first bytes (its signature), so the refusal can say what the file is
/// and how to import what it holds, rather than only that it is not text.
public enum BinaryFormat: String, Hashable, Sendable, CaseIterable {
    /// A ZIP archive: also what a spreadsheet saved as .xlsx or .ods is.
    case zip
    case gzip
    case xz
    case bzip2
    case zstd
    /// A SQLite database: most likely a `crates backup` copy, or a collection itself.
    case sqlite
    /// An OLE2 compound file: an Excel .xls workbook (or another old Office file).
    case office
    case pdf
    case png
    case jpeg

    /// The format whose signature `bytes` (a file's first bytes) start with, if any.
    public init?(signature bytes: [UInt8]) {
        guard let format = Self.allCases.first(where: { format in
            format.signatures.contains { bytes.starts(with: $0) }
        }) else { return nil }
        self = format
    }

    private var signatures: [[UInt8]] {
        switch self {
        // A local file header, or the end record that is all an empty archive holds.
        case .zip: [[0x50, 0x4B, 0x03, 0x04], [0x50, 0x4B, 0x05, 0x06]]
        // The magic, then deflate, the one method gzip writes.
        case .gzip: [[0x1F, 0x8B, 0x08]]
        case .xz: [[0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]]
        // "BZh", the block size (1-9), then the first block's magic "1AY&SY": the three
        // letters alone could start a line of text.
        case .bzip2: (0x31...0x39).map { [0x42, 0x5A, 0x68, $0, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59] }
        case .zstd: [[0x28, 0xB5, 0x2F, 0xFD]]
        case .sqlite: [Array("SQLite format 3\u{0}".utf8)]
        case .office: [[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]]
        case .pdf: [Array("%PDF-".utf8)]
        case .png: [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]]
        case .jpeg: [[0xFF, 0xD8, 0xFF]]
        }
    }

    /// What the file is and how to import what it holds; `file` is the file as a shell
    /// command names it (quoted where it must be).
    public func advice(file: String) -> String {
        let decompressed = { (tool: String, name: String) in
            "this is a \(name)-compressed file: `\(tool) \(file) | crates import -` imports the list or CSV "
                + "inside (a Discogs data dump is built into a catalogue instead: `crates catalogue build \(file)`)"
        }
        switch self {
        case .zip:
            return "this is a ZIP archive, not a list (a spreadsheet saved as .xlsx or .ods is one too): save "
                + "the sheet as CSV (UTF-8) and import that, or import the CSV inside: `unzip -p \(file) | crates import -`"
        case .gzip: return decompressed("gunzip -c", "gzip")
        case .xz: return decompressed("xz -dc", "xz")
        case .bzip2: return decompressed("bzip2 -dc", "bzip2")
        case .zstd: return decompressed("zstd -dc", "zstd")
        case .sqlite:
            return "this is a SQLite database, not a list (a `crates backup` copy?): it opens as the collection "
                + "itself (`crates --db \(file)`); to bring it into an empty collection, "
                + "`crates --db \(file) export --json - | crates import -`"
        case .office:
            return "this is an Office file (an Excel .xls workbook?), not a list: save the sheet as CSV (UTF-8) and import that"
        case .pdf:
            return "this is a PDF, not a list: crates import reads barcodes, one a line, CSV files and crates' own "
                + "`export --json` file"
        case .png, .jpeg:
            return "this is a \(self == .png ? "PNG" : "JPEG") image, not a list: `zbarimg -q --raw \(file) | crates import -` "
                + "imports the barcodes it shows"
        }
    }

    /// `path` as a shell word: as it is when it holds only characters no shell reads
    /// specially, else in single quotes (a quote inside closed, escaped and reopened).
    public static func shellWord(_ path: String) -> String {
        let plain = !path.isEmpty && path.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || "/._-+=:,@%".unicodeScalars.contains(scalar)
        }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
