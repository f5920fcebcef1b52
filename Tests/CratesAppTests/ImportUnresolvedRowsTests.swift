import CratesApp
import CratesCore
import Testing

/// The rows known by release id only that an import did not add wait on disk
/// (`ImportUnresolvedRows` in a `FileSpill`), and come back whole and in file order for the
/// closing list and `--report`, merged with the lines refused.
@Suite("ImportUnresolvedRows: rows not added, on disk, read back in order")
struct ImportUnresolvedRowsTests {
    /// Rows over several blocks (and a partial last one), with three reasons, a barcode on
    /// some and a release id on all.
    static func rows(_ count: Int) -> [ImportUnresolved] {
        let reasons: [ImportUnresolved.Reason] = [.lookupsOff, .noSuchRelease, .failed("Discogs answered 502")]
        return (0..<count).map { n in
            ImportUnresolved(
                line: 2 + 2 * n, gtin: n % 3 == 0 ? GTIN(gtin14Value: 5_099_750_442_227) : nil, releaseID: 1 + n,
                reason: reasons[n % reasons.count])
        }
    }

    @Test("10,001 rows in a temporary file: read back as appended, twice; a copy keeps its own rows")
    func readBack() {
        let expected = Self.rows(10_001)
        var rows = ImportUnresolvedRows(spill: FileSpill())
        for row in expected.prefix(5_000) { rows.append(row) }
        let copy = rows
        for row in expected.dropFirst(5_000) { rows.append(row) }
        #expect(rows.count == 10_001)
        #expect(Array(rows) == expected)
        #expect(Array(rows) == expected, "read again")
        #expect(Array(copy) == Array(expected.prefix(5_000)))
        #expect(rows.failure == nil)
    }

    @Test("the report: refused lines and rows not added in file order, in the listing and the --report text")
    func report() throws {
        var rows = ImportUnresolvedRows(spill: FileSpill())
        for row in Self.rows(5_000) { rows.append(row) }
        let refusals = [1, 7, 10_001, 20_000].map { ImportRefusal(line: $0, input: "hello", reason: .noBarcode) }
        let report = ImportReport(refusals: refusals, unresolved: rows, followUp: nil, lines: [:])
        let lines = report.allItems.map(\.line)
        #expect(lines.count == 5_004)
        #expect(lines == lines.sorted())
        #expect(Array(lines.prefix(5)) == [1, 2, 4, 6, 7])
        #expect(report.allItems.filter { $0.kind == "not-added" }.count == 5_000)

        let listing = report.listing(file: "export.csv", reportPath: nil)
        #expect(listing.first == "Needs a person (5000):")
        #expect(listing[1] == "  export.csv:2: 5099750442227: not-added: its barcode comes from Discogs: import again without --no-lookup")
        #expect(listing[2] == "  export.csv:4: release 2: not-added: Discogs has no such release (deleted or merged?): scan the record's barcode in crates")
        #expect(listing.last == "  … and 4950 more (--report FILE writes them all)")

        var parts: [String] = []
        report.writeTabSeparated { (part: String) in parts.append(part) }
        #expect(parts.count > 1, "written a part at a time")
        let text = parts.joined().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(text.first == "line\tkind\tbarcode\trelease_id\tdetail")
        #expect(text.count == 5_006, "the header, 5,004 items, the last line's end")
        #expect(text[1] == "1\tinvalid\thello\t\t\(ImportRefusal.LineError.noBarcode)")
        #expect(text[2] == "2\tnot-added\t5099750442227\t1\tits barcode comes from Discogs: import again without --no-lookup")
        #expect(text[4] == "6\tnot-added\t\t3\tDiscogs answered 502: import again later")
    }
}
