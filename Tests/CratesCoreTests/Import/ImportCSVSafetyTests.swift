import CratesCore
import Testing

/// What CSV's leniency could hide is said instead (issue 12, items 5 and 11): a quoted field
/// left open that swallows the rows after it, a key column named twice; and spreadsheets'
/// other delimiters are read.
@Suite struct ImportCSVSafetyTests {
    private func parse(_ text: String, strict: Bool = false) throws -> ImportFile {
        try ImportFile.parse(Array(text.utf8), strict: strict)
    }

    /// The issue's reproduction: `"12 inch` is never closed where it should be, and the next
    /// three rows end up in record 1's note.
    static let swallowing = "barcode,note\n5099750442227,\"12 inch\n0077774620024,ok\n4004064480149,ok\n5036086370084,\"7 inch\"\n"

    @Test func aQuotedFieldSwallowingRowsIsAWarningWithItsLines() throws {
        let file = try parse(Self.swallowing)
        #expect(file.entries.count == 1)
        #expect(file.refusals.isEmpty)
        #expect(file.warnings == [ImportWarning(line: 2, kind: .quotedFieldSpansRows(rowLines: [3, 4, 5]))])
        #expect(file.warnings.first?.message(file: "f.csv") == "f.csv:2: warning: a quoted field opened on this line runs over "
            + "lines 3, 4 and 5, which read as rows of their own: is a closing quote (\") missing? "
            + "The row was read with those lines in its field")
    }

    @Test func inStrictModeItIsARefusal() throws {
        let file = try parse(Self.swallowing, strict: true)
        #expect(file.entries.isEmpty)
        #expect(file.warnings.isEmpty)
        #expect(file.refusals.map(\.line) == [2])
        #expect(file.refusals.first?.reason == .quotedFieldSpansRows(rowLines: [3, 4, 5]))
        #expect(file.refusals.first?.description.contains("runs over lines 3, 4 and 5, which look like rows of their own") == true)
    }

    /// A note that really runs over lines, none of them a row: nothing to say.
    @Test func aMultiLineNoteIsNoWarning() throws {
        let file = try parse("barcode,note\n5099750442227,\"first line\nsecond, with a comma\n5012345678900\"\n0077774620024,x\n")
        #expect(file.entries.map(\.line) == [2, 5])
        #expect(file.entries.first?.note == "first line\nsecond, with a comma\n5012345678900")
        #expect(file.warnings.isEmpty)
        #expect(try parse("barcode,note\n5099750442227,\"a\nb\"\n", strict: true).refusals.isEmpty)
    }

    @Test("semicolons and tabs", arguments: [";", "\t"])
    func otherDelimiters(_ delimiter: String) throws {
        let text = ["Barcode", "Notes", "Date Added"].joined(separator: delimiter) + "\n"
            + ["5099750442227", "\"a\(delimiter)b\"", "2024-05-01"].joined(separator: delimiter) + "\n"
            + ["0077774620024", "", ""].joined(separator: delimiter) + "\n"
        let file = try parse(text)
        guard case .csv(let columns) = file.format else {
            Issue.record("read as \(file.format)")
            return
        }
        #expect(columns.delimiter == UInt8(ascii: delimiter == ";" ? ";" : "\t"))
        #expect(file.entries.map { $0.gtin?.canonical } == ["5099750442227", "0077774620024"])
        #expect(file.entries.first?.note == "a\(delimiter)b")
        #expect(file.refusals.isEmpty)
    }

    @Test("a key column named twice", arguments: [
        ("barcode,barcode", "barcode", [1, 2]),
        ("Barcode;note;EAN", "barcode", [1, 3]),
        ("release_id,title,Release ID", "release_id", [1, 3]),
    ])
    func aRepeatedKeyColumnIsRefused(_ header: String, _ kind: String, _ positions: [Int]) throws {
        let error = #expect(throws: ImportError.self) { try parse(header + "\n5099750442227,5012345678900\n") }
        guard case .repeatedKeyColumn(let line, let named, let columns)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(line == 1 && named == kind && columns.map(\.position) == positions)
        #expect(error?.description.contains("names the \(kind) column 2 times") == true)
        #expect(error?.description.contains("keep one \(kind) column") == true)
    }
}
