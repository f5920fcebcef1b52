import CratesCore
import Foundation
import Testing

/// Discogs' collection-export columns plus Barcode, Location and Collector Fields, one row per copy.
@Suite("Discogs collection CSV")
struct DiscogsCollectionCSVTests {
    @Test("the header is Discogs' export header plus Barcode, Location and Collector Fields, exactly")
    func header() {
        #expect(DiscogsCollectionCSV.header() == "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,"
            + "CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes,Barcode,"
            + "Location,Collector Fields\n")
        #expect(DiscogsCollectionCSV.header(CSVWriter(lineEnding: .crlf)).hasSuffix("Barcode,Location,Collector Fields\r\n"))
    }

    @Test("a matched copy: release columns filled, commas, quotes and line breaks quoted")
    func matched() {
        let row = DiscogsCollectionCSV.row(ExportSample.matched)
        #expect(row == #"SD 7200,"Crosby, Stills & Nash","""Déjà"" Vu,"# + "\n" + #"Live","Atlantic, Rhino, Inc.","#
            + #""Vinyl, LP, Album + CD, Album",,1970,249504,"Crate 3, top",2024-01-31 12:34:56,,,"#
            + #""signed, ""mint"""# + "\n" + #"sleeve worn",0075678190421,"Living Room › Crate 3, top","# + "\n")
        #expect(DiscogsCollectionCSV.fields(ExportSample.matched) == [
            "SD 7200", "Crosby, Stills & Nash", "\"Déjà\" Vu,\nLive", "Atlantic, Rhino, Inc.", "Vinyl, LP, Album + CD, Album",
            "", "1970", "249504", "Crate 3, top", "2024-01-31 12:34:56", "", "", "signed, \"mint\"\nsleeve worn",
            "0075678190421", "Living Room › Crate 3, top", "",
        ])
    }

    @Test("an unmatched copy: empty release columns, its barcode and date kept")
    func unmatched() {
        #expect(DiscogsCollectionCSV.row(ExportSample.unmatched) == ",,,,,,,,,2024-01-31 12:34:56,,,,5012345678900,,\n")
    }

    @Test("the rows read back to the same fields, one row per copy")
    func readsBack() {
        let copies = [ExportSample.matched, ExportSample.unmatched, ExportSample.matched]
        let text = DiscogsCollectionCSV.header() + copies.map { DiscogsCollectionCSV.row($0) }.joined()
        let rows = ReferenceCSVReader.rows(text)
        #expect(rows.count == 4)
        #expect(rows.first == DiscogsCollectionCSV.columns)
        #expect(Array(rows.dropFirst()) == copies.map(DiscogsCollectionCSV.fields))
        #expect(rows.allSatisfy { $0.count == DiscogsCollectionCSV.columns.count })
        #expect(rows.dropFirst().map { DiscogsCollectionCSV.dateAdded($0[9]) } == Array(repeating: ExportSample.addedAt, count: 3))
    }
}
