import CratesCore
import Foundation
import Testing

/// Cells a spreadsheet would run as formulas get a quote in front (OWASP), and read back as
/// they were.
@Suite("spreadsheet formulas in CSV cells")
struct SpreadsheetFormulaTests {
    @Test("=, +, -, @, tab and CR at the start get a quote; anything else stays", arguments: [
        ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"), ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-123", "'-123"), ("@SUM(1)", "'@SUM(1)"), ("\t=1", "'\t=1"), ("\r=1", "'\r=1"), ("'=x", "''=x"), ("''-1", "'''-1"),
        ("Pink Floyd", "Pink Floyd"), ("", ""), ("'quoted'", "'quoted'"), ("a=b", "a=b"), ("1-2", "1-2"), ("'", "'"),
    ])
    func neutralised(_ value: String, _ written: String) {
        #expect(SpreadsheetFormula.neutralised(value) == written)
        #expect(SpreadsheetFormula.restored(written) == value)
    }

    @Test("the export's row quotes them, and the import reads the value back")
    func roundTrip() throws {
        var entry = ExportSample.unmatched
        entry.record.note = "=1+1"
        entry.record.collector = RecordFields(artist: "@SUM(1)", title: "+cmd", catno: "-123")
        let row = DiscogsCollectionCSV.row(entry)
        #expect(row.hasPrefix("'-123,'@SUM(1),'+cmd,"))
        let file = try ImportFile.parse(Array((DiscogsCollectionCSV.header() + row).utf8))
        let read = try #require(file.entries.first)
        #expect(read.note == "=1+1")
        #expect(read.collector == RecordFields(artist: "@SUM(1)", title: "+cmd", catno: "-123"))
    }
}
