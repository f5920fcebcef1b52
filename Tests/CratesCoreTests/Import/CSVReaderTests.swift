import CratesCore
import Testing

/// RFC 4180 reading: quoting, line breaks inside quotes, doubled quotes, line numbers.
@Suite struct CSVReaderTests {
    private func records(_ text: String) -> [CSVReader.Record] {
        CSVReader.records(Array(text.utf8))
    }

    @Test("fields and records", arguments: [
        ("a,b,c\n", [["a", "b", "c"]]),
        ("a,b,c", [["a", "b", "c"]]),
        ("a,b\r\nc,d\r\n", [["a", "b"], ["c", "d"]]),
        ("a,,c\n", [["a", "", "c"]]),
        (",\n", [["", ""]]),
        ("\"a,b\",c\n", [["a,b", "c"]]),
        ("\"say \"\"hi\"\"\",x\n", [["say \"hi\"", "x"]]),
        ("\"\"\n", [[""]]),
        ("a, \"b,c\"\n", [["a", "b,c"]]),
        ("5\"12 single,x\n", [["5\"12 single", "x"]]),
        ("a\rb\n", [["a"], ["b"]]),
    ] as [(String, [[String]])])
    func fields(_ text: String, _ expected: [[String]]) {
        #expect(records(text).map(\.fields) == expected)
    }

    /// A line break inside quotes is kept as LF, whichever it was (notes keep LF only).
    @Test func quotedLineBreaksKeepTheLineNumbersOfLaterRecords() {
        let text = "h1,h2\r\n\"line one\r\nline two\nline three\",x\r\nnext,y\r\n"
        let read = records(text)
        #expect(read.map(\.line) == [1, 2, 5])
        #expect(read[1].fields == ["line one\nline two\nline three", "x"])
        #expect(read[2].fields == ["next", "y"])
        #expect(read.allSatisfy { $0.unterminatedQuoteEndLine == nil })
    }

    @Test func anUnterminatedQuoteIsReportedWithTheLinesItSwallowed() {
        let read = records("a,b\n\"open,c\nd,e\nf,g\n")
        #expect(read.count == 2)
        #expect(read[1].line == 2)
        #expect(read[1].unterminatedQuoteEndLine == 4)  // the file's last line
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        let read = CSVReader.records([0x61, 0xFF, 0x2C, 0x62, 0x0A])
        #expect(read.map(\.fields) == [["a\u{FFFD}", "b"]])
    }

    @Test func blankRecords() {
        #expect(records(",,,\n").first?.isBlank == true)
        #expect(records(" , \n").first?.isBlank == true)
        #expect(records("a,\n").first?.isBlank == false)
    }
}
