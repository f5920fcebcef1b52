import CratesCore
import Testing

/// Files given to `crates import` by mistake, told by their first bytes.
@Suite struct BinaryFormatTests {
    /// Each format's first bytes, as its tools write them (the bzip2 block magic included).
    static let starts: [(BinaryFormat, [UInt8])] = [
        (.zip, [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]),
        (.zip, [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)),
        (.gzip, [0x1F, 0x8B, 0x08, 0x08, 0x00, 0x00]),
        (.xz, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04]),
        (.bzip2, Array("BZh91AY&SY".utf8) + [0x8A, 0x2C]),
        (.zstd, [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x1C]),
        (.sqlite, Array("SQLite format 3\u{0}".utf8) + [0x10, 0x00, 0x02, 0x02]),
        (.office, [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0x00]),
        (.pdf, Array("%PDF-1.7\n%\u{E2}\u{E3}\n".utf8)),
        (.png, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00]),
        (.jpeg, [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]),
    ]

    @Test func eachFormatIsToldByItsStartAndRefusedSayingWhatItIs() {
        for (format, start) in Self.starts {
            #expect(BinaryFormat(signature: start) == format)
            // Short or long, the whole file is refused by what it is, before a line is read.
            for tail in [0, 100_000] {
                let file = start + [UInt8](repeating: 0x41, count: tail)
                #expect(throws: ImportError.format(format), "\(format), \(file.count) bytes") { try ImportFile.parse(file) }
            }
        }
        #expect(Set(Self.starts.map(\.0)) == Set(BinaryFormat.allCases))
    }

    @Test func textThatStartsLikeAFormatIsStillText() throws {
        // "BZh" without the block magic, "PK" without the header's bytes: a line of text.
        for text in ["BZh the band\n5099750442227\n", "PK\n5099750442227\n", "SQLite format 2\n5099750442227\n", "%PD\n5099750442227\n"] {
            #expect(BinaryFormat(signature: Array(text.utf8)) == nil, "\(text)")
            let file = try ImportFile.parse(Array(text.utf8))
            #expect(file.entries.count == 1 && file.refusalCount == 1, "\(text)")
        }
        // A UTF-8 byte order mark before a barcode is text, not a format.
        #expect(try ImportFile.parse([0xEF, 0xBB, 0xBF] + Array("5099750442227\n".utf8)).entries.count == 1)
    }

    @Test func theAdviceNamesTheFileAsAShellWord() {
        #expect(BinaryFormat.shellWord("/home/me/records-2026.csv.gz") == "/home/me/records-2026.csv.gz")
        #expect(BinaryFormat.shellWord("/tmp/my records.zip") == "'/tmp/my records.zip'")
        #expect(BinaryFormat.shellWord("it's.gz") == "'it'\\''s.gz'")
        #expect(BinaryFormat.shellWord("$(rm -rf ~).gz") == "'$(rm -rf ~).gz'")
        #expect(BinaryFormat.shellWord("") == "''")
        #expect(ImportError.format(.gzip).description(file: "'my list.gz'").contains("`gunzip -c 'my list.gz' | crates import -`"))
        #expect(ImportError.format(.sqlite).description.contains("`crates --db FILE export --json - | crates import -`"))
    }
}
