import CratesCore
import CratesTestSupport
import Testing

/// Reading an import file as a stream, within bounds (issue 12, items 6 and 7): lines split
/// the same however the file is cut into chunks, an overlong line skipped without being
/// kept, binary input refused by the first chunk that shows it, and the entries held
/// compactly.
@Suite(.offThePool) struct ImportStreamingTests {
    private func parse(_ text: String, strict: Bool = false) throws -> ImportFile {
        try ImportFile.parse(Array(text.utf8), strict: strict)
    }

    /// Feeds `bytes` to a splitter in chunks of the given sizes (cycled).
    private func split(_ bytes: [UInt8], chunks sizes: [Int], limit: Int = 64) -> [ImportLineSplitter.Piece] {
        var splitter = ImportLineSplitter(maximumLength: limit)
        var pieces: [ImportLineSplitter.Piece] = []
        var start = 0
        var turn = 0
        while start < bytes.count {
            let end = min(bytes.count, start + sizes[turn % sizes.count])
            // Copied: a piece must not depend on the chunk array it came from.
            splitter.feed(Array(bytes[start..<end])) { pieces.append(Self.copied($0)) }
            start = end
            turn += 1
        }
        splitter.finish { pieces.append(Self.copied($0)) }
        return pieces
    }

    private static func copied(_ piece: ImportLineSplitter.Piece) -> ImportLineSplitter.Piece {
        if case .line(let number, let bytes) = piece { return .line(number: number, bytes: ArraySlice(Array(bytes))) }
        return piece
    }

    @Test func linesAreTheSameHoweverTheInputIsCut() {
        var generator = SeededGenerator(seed: 12)
        let alphabet = Array("0123456789 ab".utf8) + [0x0A, 0x0D, 0x0D, 0x0A]
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            }
            let whole = split(bytes, chunks: [max(1, bytes.count)])
            let sizes = (0..<3).map { _ in Int.random(in: 1...17, using: &generator) }
            #expect(split(bytes, chunks: sizes) == whole, "chunks \(sizes) of \(bytes)")
            #expect(split(bytes, chunks: [1]) == whole)
        }
    }

    @Test func lineEndsAcrossChunks() {
        let pieces = split(Array("a\r\nb\rc\nd".utf8), chunks: [2])  // "a\r" | "\nb" | "\rc" | "\nd"
        #expect(pieces == [
            .line(number: 1, bytes: ArraySlice("a".utf8)), .line(number: 2, bytes: ArraySlice("b".utf8)),
            .line(number: 3, bytes: ArraySlice("c".utf8)), .line(number: 4, bytes: ArraySlice("d".utf8)),
        ])
    }

    /// A 50 MB line fed in 64 KB chunks is one `.tooLong` with its length; the next line is
    /// read as usual.
    @Test func anEndlessLineIsCountedNotKept() {
        var splitter = ImportLineSplitter(maximumLength: 4096)
        var pieces: [ImportLineSplitter.Piece] = []
        splitter.feed(Array("5099750442227\n".utf8)) { pieces.append($0) }
        let chunk = [UInt8](repeating: UInt8(ascii: "7"), count: 64 * 1024)
        for _ in 0..<800 { splitter.feed(chunk) { pieces.append($0) } }
        splitter.feed(Array("\n0077774620024".utf8)) { pieces.append(Self.copied($0)) }
        splitter.finish { pieces.append(Self.copied($0)) }
        #expect(pieces.count == 3)
        #expect(pieces[1] == .tooLong(number: 2, length: 800 * 64 * 1024))
        #expect(pieces[2] == .line(number: 3, bytes: ArraySlice("0077774620024".utf8)))
        #expect(splitter.lineCount == 3)
    }

    @Test func aLineOverFourKilobytesIsRefusedAsTooLong() throws {
        let file = try parse("5099750442227\n" + String(repeating: "1", count: 5_000) + "\n0077774620024\n")
        #expect(file.entries.map(\.line) == [1, 3])
        #expect(file.refusals.map(\.reason) == [.tooLong(length: 5_000, limit: 4096)])
        #expect(file.refusals.first?.description
            == "2: \(String(repeating: "1", count: 64))…: the line is 5000 bytes long, more than the 4096 a line may have: skipped")
    }

    @Test func binaryInputIsRefusedAtOnce() throws {
        // /dev/zero
        #expect(throws: ImportError.binary(offset: 0)) { try ImportFile.parse([UInt8](repeating: 0, count: 65_536)) }
        // /dev/urandom (seeded)
        var generator = SeededGenerator(seed: 7)
        let random = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(throws: ImportError.self) { try ImportFile.parse(random) }
        // Text, then a NUL: refused at the NUL, by the chunk that holds it.
        var parser = ImportParser()
        try parser.consume(Array(String(repeating: "5099750442227\n", count: 1_000).utf8))
        #expect(throws: ImportError.binary(offset: 14_001)) { try parser.consume([0x35, 0x00]) }
        // Control characters a text does not have.
        #expect(throws: ImportError.binary(offset: 0)) {
            try ImportFile.parse(Array(repeating: Array("50997\u{1}\u{2}\u{3}\u{1B}\n".utf8), count: 100).flatMap { $0 })
        }
        #expect(ImportError.binary(offset: 3).description.hasPrefix("this is not a text file (binary data at byte 3)"))
    }

    @Test func utf16IsStillToldApart() {
        let text = Array("5099750442227\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(throws: ImportError.utf16) { try ImportFile.parse(text) }  // little-endian, no BOM
        #expect(throws: ImportError.utf16) { try ImportFile.parse([0xFE, 0xFF, 0x00, 0x35]) }
        #expect(throws: ImportError.utf16) { try ImportFile.parse([0x00, 0x35, 0x00, 0x30]) }
    }

    @Test func onlyTheFirstRefusalsAreKept() throws {
        var limits = ImportParser.Limits()
        limits.refusalsKept = 10
        var parser = ImportParser(limits: limits)
        try parser.consume(Array(String(repeating: "nope\n9781617292156\n", count: 1_000).utf8))
        let file = try parser.finish()
        #expect(file.refusals.count == 10)
        #expect(file.refusalCount == 2_000)
        #expect(file.notARecordCount == 1_000)
        let plan = ImportPlan(file: file, present: [:], copies: false)
        #expect(plan.invalidCount == 1_000 && plan.notARecordCount == 1_000)
    }

    @Test func entriesAreHeldCompactlyAndReadBackTheSame() throws {
        let text = "barcode,release_id,note,date added,location\n"
            + "5099750442227,,first,2024-05-01,Shelf 1\n0077774620024,249504,,,\n,249504,second,,\n04252614,,,,\n"
        let file = try parse(text)
        let expected = [
            ImportEntry(line: 2, gtin: GTIN(canonical: "5099750442227"), note: "first", addedAt: ImportDate.parse("2024-05-01"), location: "Shelf 1"),
            ImportEntry(line: 3, gtin: GTIN(canonical: "0077774620024"), releaseID: 249_504),
            ImportEntry(line: 4, gtin: nil, releaseID: 249_504, note: "second"),
            ImportEntry(line: 5, gtin: GTIN(canonical: "0042100005264")),
        ]
        #expect(Array(file.entries) == expected)
        #expect(ImportEntries(expected.compactMap { $0 }) == file.entries)
        // The release rows are copies 1 and 2 of release 249504.
        #expect(file.entries.occurrences() == [1, 1, 2, 1])
        for canonical in ["5099750442227", "0077774620024", "12345670", "15012345678907"] {
            let gtin = try #require(GTIN(canonical: canonical))
            #expect(GTIN(gtin14Value: gtin.gtin14Value) == gtin)
        }
        #expect(GTIN(gtin14Value: 5_099_750_442_228) == nil)  // check digit
    }
}
