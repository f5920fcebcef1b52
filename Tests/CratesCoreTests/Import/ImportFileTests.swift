import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// Reading import files: the line format (messy, as people and scanners write them), CSV
/// with a header, Discogs' collection export, and the refusals with their line numbers.
@Suite struct ImportFileTests {
    private func parse(_ text: String) throws -> ImportFile {
        try ImportFile.parse(Array(text.utf8))
    }

    // MARK: Lines

    @Test func messyLinesAreReadWithTheirLineNumbers() throws {
        let longLine = String(repeating: "5", count: 10_000)
        let text = "\u{FEFF}# my shelf\r\n5099750442227\r\n\r\n   \r\n7 27361 62652 5  \r\n0-77774-62002-4 # The Beatles\r\n"
            + "5099750442228\r\nABC\r\n9781617292156\r\n04252614\r\n\(longLine)\r\n(01)05099750442227\r\nr249504\r\n"
            + "\t5012345678900\t\n5099750442227"
        let file = try parse(text)
        #expect(file.format == .lines)
        #expect(file.lineCount == 15)
        #expect(file.entries.map(\.line) == [2, 5, 6, 10, 12, 13, 14, 15])
        #expect(file.entries.map { $0.gtin?.canonical } == [
            "5099750442227", "0727361626525", "0077774620024", "0042100005264", "5099750442227", nil, "5012345678900",
            "5099750442227",
        ])
        #expect(file.entries[5].releaseID == 249_504)
        #expect(file.entries[5].key == .release(249_504))
        #expect(file.refusals.map(\.line) == [7, 8, 9, 11])
        #expect(file.refusals[0].message(file: "gtins.txt").hasPrefix("gtins.txt:7: 5099750442228: check digit should be 7"))
        #expect(file.refusals[1].description.hasPrefix("8: ABC: \"A\" at position 1 is not a digit"))
        #expect(file.refusals[2].reason.isNotARecord)
        #expect(file.refusals[2].description == "9: 9781617292156: an ISBN: a book, not a record; add it anyway with --force")
        // The 10,000-character line is over the 4 KB a line may have: named, shortened, skipped.
        #expect(file.refusals[3].input.count == 65)
        #expect(file.refusals[3].reason == .tooLong(length: 10_000, limit: 4096))
    }

    @Test("a refused line, and why", arguments: [
        ("5099750442228", "check digit should be 7"),
        ("50997504422x7", "\"x\" at position 12 is not a digit"),
        ("123", "3 digits is too short"),
        ("9812345678902", "a coupon, not a record"),
        ("9771234567003", "an ISSN"),
        ("9790230000000", "an ISMN"),
        ("2012345678903", "restricted-circulation"),
        ("5099750442227\u{1B}", "control character \\u{1B}"),
        ("5099750442227,", "\",\" at position 14 is not a digit"),
        ("r0", "\"r\" at position 1 is not a digit"),
    ])
    func refusals(_ line: String, _ reason: String) throws {
        let file = try parse("# header comment\n\(line)\n")
        #expect(file.entries.isEmpty)
        #expect(file.refusals.count == 1)
        #expect(file.refusals.first?.line == 2)
        #expect(file.refusals.first?.reason.description.contains(reason) == true, "\(file.refusals)")
    }

    @Test("every form the barcode parser takes", arguments: [
        ("5099750442227", "5099750442227"),
        ("5 099750 442227", "5099750442227"),
        ("077774620024", "0077774620024"),
        ("0 77774 62002 4", "0077774620024"),
        ("04252614", "0042100005264"),
        ("425261", "0042100005264"),
        ("96385074", "96385074"),
        ("]E05099750442227", "5099750442227"),
        ("(01)05099750442227(17)250101", "5099750442227"),
        ("5099750442227 12", "5099750442227"),
        ("５０９９７５０４４２２２７", "5099750442227"),
    ])
    func forms(_ line: String, _ canonical: String) throws {
        let file = try parse(line + "\n")
        #expect(file.refusals.isEmpty, "\(file.refusals)")
        #expect(file.entries.map { $0.gtin?.canonical } == [canonical])
    }

    @Test func emptyAndCommentOnlyFiles() throws {
        for text in ["", "\u{FEFF}", "\n\n", "# nothing\r\n  # here\r\n"] {
            let file = try parse(text)
            #expect(file.entries.isEmpty && file.refusals.isEmpty)
        }
    }

    @Test func utf16IsRefusedAsAWhole() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("5099750442227\n".utf8).flatMap { byte -> [UInt8] in [byte, 0] }
        #expect(throws: ImportError.utf16) { try ImportFile.parse(utf16) }
    }

    // MARK: CSV

    @Test func csvWithABarcodeAndANoteColumn() throws {
        let text = "Artist,Barcode,Note\r\n"
            + "\"Pink Floyd\",5099750442227,\"first pressing, signed\"\r\n"
            + "Someone,\"0 77774 62002 4\",\"two\r\nlines, and \"\"quotes\"\"\"\r\n"
            + ",,\r\n"
            + "Nobody,,no barcode\r\n"
            + "Bad,5099750442228,x\r\n"
            + "Book,9781617292156,\r\n"
        let file = try parse(text)
        guard case .csv(let columns) = file.format else { Issue.record("not CSV"); return }
        #expect(columns.barcode == 1 && columns.note == 2 && columns.releaseID == nil)
        #expect(file.entries.map(\.line) == [2, 3])
        #expect(file.entries.map(\.note) == ["first pressing, signed", "two\nlines, and \"quotes\""])
        #expect(file.entries[1].gtin == Fixtures.gtin("0077774620024"))
        #expect(file.refusals.map(\.line) == [6, 7, 8])
        #expect(file.refusals[0].reason == .noBarcode)
        #expect(file.refusals[1].input == "5099750442228")
        #expect(file.refusals[2].reason.isNotARecord)
    }

    @Test("header names", arguments: [
        ("gtin", true), ("UPC", true), ("EAN", true), (" Barcode ", true), ("release_id", true), ("UPC/EAN", true),
    ])
    func headerNames(_ name: String, _ key: Bool) throws {
        let file = try parse("\(name),other\n5099750442227,x\n")
        guard case .csv(let columns) = file.format else { Issue.record("not CSV"); return }
        #expect(columns.hasKey == key)
    }

    @Test func aHeaderWithoutAKeyColumnIsAnError() {
        #expect(throws: ImportError.noKeyColumn(line: 2, columns: ["Artist", "Rating"])) {
            try parse("# export\nArtist,Rating\nPink Floyd,5\n")
        }
    }

    @Test func aBarcodeWithATrailingCommaIsALineNotAHeader() throws {
        let file = try parse("5099750442227,\n5012345678900\n")
        #expect(file.format == .lines)
        #expect(file.refusals.map(\.line) == [1])
        #expect(file.entries.map(\.line) == [2])
    }

    /// Discogs' collection export: no barcode column, keyed on release_id; notes, date
    /// added and folder kept.
    @Test func discogsCollectionExport() throws {
        let text = #"""
            Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes
            #1 RECORDS 001,The Persuader,Stockholm,Svek,"12"", 33 ⅓ RPM",,1999,1,Uncategorized,2019-03-14 10:23:45,Mint (M),Mint (M),"signed, by both"
            NB 265-2,HammerFall,Glory To The Brave,Nuclear Blast,"CD, Album",5,1997,5134861,Metal shelf,2020-01-02 03:04:05,,,
            X,Y,Z,L,F,,,abc,Uncategorized,2020-01-02 03:04:05,,,
            X,Y,Z,L,F,,,7,Uncategorized,last tuesday,,,

            """#
        let file = try parse(text.replacingOccurrences(of: "\n", with: "\r\n"))
        guard case .csv(let columns) = file.format else { Issue.record("not CSV"); return }
        #expect(columns.barcode == nil && columns.releaseID == 7 && columns.note == 12 && columns.date == 9)
        #expect(file.entries.map(\.key) == [.release(1), .release(5_134_861)])
        #expect(file.entries.allSatisfy { $0.gtin == nil })
        #expect(file.entries[0].note == "signed, by both")
        #expect(file.entries[0].location == nil, "Uncategorized is Discogs' default folder, not a place")
        #expect(file.entries[1].location == "Metal shelf")
        #expect(file.entries[0].addedAt == ImportDate.parse("2019-03-14T10:23:45Z"))
        #expect(file.refusals.map(\.line) == [4, 5])
        #expect(file.refusals[0].reason == .releaseID("abc"))
        #expect(file.refusals[1].reason == .date("last tuesday"))
    }

    /// crates' export: Discogs' columns plus Barcode; keyed on release_id when it has one.
    @Test func cratesExportWithBarcodes() throws {
        let text = #"""
            Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes,Barcode
            NB 265-2,HammerFall,Glory To The Brave,Nuclear Blast,"CD, Album",,1997,5134861,,2020-01-02 03:04:05,,,,0727361626525
            ,,,,,,,,crate 3,2021-06-07 08:09:10,,,"a note, with ""quotes""",5012345678917
            ,,,,,,,12,,2021-06-07 08:09:10,,,,5099750442228

            """#
        let file = try parse(text)
        #expect(file.entries.map(\.key) == [.release(5_134_861), .gtin(Fixtures.gtin("5012345678917"))])
        #expect(file.entries[0].gtin == Fixtures.gtin("0727361626525"))
        #expect(file.entries[1].note == "a note, with \"quotes\"")
        #expect(file.entries[1].location == "crate 3")
        #expect(file.refusals.map(\.line) == [4], "a row with a release id and a bad barcode is refused")
    }

    @Test func notesLoseControlCharactersButKeepLineBreaks() throws {
        let file = try parse("barcode,note\n5099750442227,\"a\u{1B}[31mred\u{07}\nnext\"\n")
        #expect(file.entries.first?.note == "a[31mred\nnext")
    }

    @Test func commentRowsInACSVWhoseFirstColumnIsTheBarcode() throws {
        let file = try parse("barcode,note\n# a comment row\n5099750442227,x\n")
        #expect(file.entries.map(\.line) == [3])
        #expect(file.refusals.isEmpty)
    }

    @Test func anUnclosedQuoteIsOneRefusalNamingTheLinesItSwallowed() throws {
        let file = try parse("barcode,note\n5099750442227,\"open\n5012345678900,x\n5012345678917,y\n")
        #expect(file.entries.isEmpty)
        #expect(file.refusals.count == 1)
        #expect(file.refusals.first?.line == 2)
        #expect(file.refusals.first?.reason == .unterminatedQuote(lastLine: 4))
    }

    // MARK: Robustness

    /// Random bytes never crash the reader, and every line with content is accounted for.
    @Test func randomBytesNeverCrash() throws {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array("0123456789 ,\"#\r\n\t-()]Eabc".utf8) + [0x00, 0x1B, 0xFF, 0xC3, 0xA9]
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            }
            guard let file = try? ImportFile.parse(bytes) else { continue }
            #expect(file.entries.allSatisfy { $0.line >= 1 && $0.line <= max(1, file.lineCount) })
            // What a message shows is safe on a terminal: no control character gets through.
            #expect(file.refusals.allSatisfy { refusal in
                refusal.line >= 1 && refusal.message(file: "f").unicodeScalars.allSatisfy {
                    $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value)
                }
            })
            #expect(file.entries.map(\.line) == file.entries.map(\.line).sorted())
        }
    }
}
