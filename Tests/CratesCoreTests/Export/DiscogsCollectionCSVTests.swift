import CratesCore
import Foundation
import Testing

/// Discogs' collection-export columns plus Barcode, Location and Collector Fields, one row per copy.
@Suite("Discogs collection CSV")
struct DiscogsCollectionCSVTests {
    @Test("the header is Discogs' export header plus Barcode, Location, Collector Fields, Genre, Country, Entered By Hand, the purchase and loan and the places' codes, exactly")
    func header() {
        #expect(DiscogsCollectionCSV.header() == "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,"
            + "CollectionFolder,Date Added,Collection Media Condition,Collection Sleeve Condition,Collection Notes,Barcode,"
            + "Location,Collector Fields,Genre,Country,Entered By Hand,"
            + "Purchase Price,Purchase Currency,Purchase Date,Bought From,Lent To,Lent On,Returned On,Location Codes\n")
        #expect(DiscogsCollectionCSV.header(CSVWriter(lineEnding: .crlf)).hasSuffix("Entered By Hand,Purchase Price,Purchase Currency,Purchase Date,Bought From,Lent To,Lent On,Returned On,Location Codes\r\n"))
    }

    @Test("a matched copy: release columns filled, commas, quotes and line breaks quoted")
    func matched() {
        let row = DiscogsCollectionCSV.row(ExportSample.matched)
        #expect(row == #"SD 7200,"Crosby, Stills & Nash","""Déjà"" Vu,"# + "\n" + #"Live","Atlantic, Rhino, Inc.","#
            + #""Vinyl, LP, Album + CD, Album",,1970,249504,"Crate 3, top",2024-01-31 12:34:56,,,"#
            + #""signed, ""mint"""# + "\n" + #"sleeve worn",0075678190421,"Living Room › Crate 3, top",,Rock,US,,,,,,,,,"# + "\n")
        #expect(DiscogsCollectionCSV.fields(ExportSample.matched) == [
            "SD 7200", "Crosby, Stills & Nash", "\"Déjà\" Vu,\nLive", "Atlantic, Rhino, Inc.", "Vinyl, LP, Album + CD, Album",
            "", "1970", "249504", "Crate 3, top", "2024-01-31 12:34:56", "", "", "signed, \"mint\"\nsleeve worn",
            "0075678190421", "Living Room › Crate 3, top", "", "Rock", "US", "", "", "", "", "", "", "", "", "",
        ])
    }

    @Test("an unmatched copy: empty release columns, its barcode and date kept")
    func unmatched() {
        #expect(DiscogsCollectionCSV.row(ExportSample.unmatched) == ",,,,,,,,,2024-01-31 12:34:56,,,,5012345678900,,,,,,,,,,,,,\n")
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

/// Issue 16's columns: grading, notes and folder, written and read back.
@Suite("Discogs collection CSV: grading and folder")
struct DiscogsCollectionCSVGradingTests {
    static var graded: ExportedRecord {
        var entry = ExportSample.matched
        entry.record.grading = CopyGrading(media: .veryGoodPlus, sleeve: .noCover, rating: Rating(clamping: 4))
        return entry
    }

    @Test("Rating, the two conditions in Discogs' words, and the copy's Discogs folder")
    func written() {
        var entry = Self.graded
        let fields = DiscogsCollectionCSV.fields(entry)
        #expect(fields[5] == "4" && fields[10] == "Very Good Plus (VG+)" && fields[11] == "No Cover")
        #expect(fields[8] == "Crate 3, top", "not on Discogs: the location")
        entry.discogs = DiscogsCopyLink(instanceID: 5_000_000_001, releaseID: 249_504, folderID: 7, folderName: "Vinyl")
        #expect(DiscogsCollectionCSV.fields(entry)[8] == "Vinyl")
        entry.discogs?.removedOnDiscogs = true
        #expect(DiscogsCollectionCSV.fields(entry)[8] == "Crate 3, top", "removed on Discogs: in no folder there")
    }

    @Test("a copy pulled from Discogs is a record without a barcode: none to write, and JSON says null")
    func pulled() throws {
        var entry = Self.graded
        entry.record.gtin = nil
        entry.record.addMethod = .discogs
        let barcode = try #require(DiscogsCollectionCSV.columns.firstIndex(of: "Barcode"))
        #expect(DiscogsCollectionCSV.fields(entry)[barcode] == "")
        let line = try entry.jsonLine(includeDiscogs: false, encoder: ExportedRecord.makeJSONEncoder())
        #expect(line.contains(#""gtin":null"#))
        #expect(line.contains(#""mediaCondition":"Very Good Plus (VG+)""#) && line.contains(#""rating":4"#))
        #expect(line.contains(#""sleeveCondition":"No Cover""#) && line.contains(#""discogsCollection":null"#))
        #expect(entry.listingLine.split(separator: "\t", omittingEmptySubsequences: false)[1] == "")
    }

    @Test("an import of the export reads the grading back; a bad grade is refused with its line")
    func readBack() throws {
        let text = DiscogsCollectionCSV.header() + DiscogsCollectionCSV.row(Self.graded)
            + DiscogsCollectionCSV.row(ExportSample.unmatched)
        let parsed = try ImportFile.parse(Array(text.utf8))
        #expect(parsed.refusals.isEmpty)
        #expect(parsed.entries.map(\.grading) == [Self.graded.record.grading, .none])
        let bad = "release_id,Rating,Collection Media Condition,Collection Sleeve Condition\n1,6,,\n2,,Sealed,\n3,,VG+,generic\n"
        let file = try ImportFile.parse(Array(bad.utf8))
        #expect(file.refusals.map(\.description) == [
            "2: 6 is not a rating: a rating is a whole number from 0 (not rated) to 5",
            "3: \"Sealed\" is not a media condition: use one of Mint (M), Near Mint (NM or M-), Very Good Plus (VG+), Very Good (VG), Good Plus (G+), Good (G), Fair (F), Poor (P) (or the short form: M, NM or M-, VG+, VG, G+, G, F, P)",
        ])
        #expect(file.entries.map(\.grading) == [CopyGrading(media: .veryGoodPlus, sleeve: .generic)])
    }
}
