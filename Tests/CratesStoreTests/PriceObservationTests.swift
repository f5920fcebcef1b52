import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesStore

/// "v15 price observations": what Discogs' marketplace said, one row per thing per day.
@Suite("Price observations (v15)")
struct PriceObservationTests {
    @Test("v15 on a v14 database: the tables made, the records kept; figures stored and read back, one per day")
    func migratesAnOlderDatabase() async throws {
        let directory = try TemporaryDirectory(prefix: "crates-v15")
        let path = directory.file("v14.sqlite")
        try await OlderCollection.make(at: path, upTo: "v14 sort keys") { queue in
            _ = try await queue.write { db in
                try StoredValues.upsertRelease(db, Release(id: 7, artist: "A", title: "T", genres: ["Rock"]), now: Date())
            }
            #expect(try await queue.read { db in try db.tableExists("releasePrice") } == false)
        }
        let store = try CollectionStore(path: path)
        #expect(try await store.integrityProblems().isEmpty)
        let record = try await store.add(NewRecord(
            gtin: Fixtures.gtin(1), addMethod: .typed, release: Release(id: 7, artist: "A", title: "T", genres: ["Rock"]),
            grading: CopyGrading(media: .nearMint)))
        let day1 = Date(timeIntervalSince1970: 1_795_564_800)  // 2026-11-25
        try await store.storeReleasePrice(releaseID: 7, currency: "EUR", lowestPrice: 12, forSale: 3, at: day1)
        try await store.storeReleasePrice(releaseID: 7, currency: "EUR", lowestPrice: 11, forSale: 4, at: day1.addingTimeInterval(3_600))
        try await store.storeCopyPrice(
            recordID: record.id, grade: .nearMint, price: DiscogsPrice(currency: "EUR", value: 15.5), at: day1.addingTimeInterval(3_600))
        let report = try await store.valueReport(currency: "EUR", accountCurrency: false)
        #expect(report.records == [
            .init(
                id: record.id, releaseID: 7, grade: .nearMint, lowestPrice: 11, forSale: 4, suggestedPrice: 15.5,
                at: day1.addingTimeInterval(3_600), title: "A — T"),
        ])
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM releasePrice") } == 1, "the day's row replaced")
        // Another currency's figures are not these.
        #expect(try await store.valueReport(currency: "USD", accountCurrency: false).records.first?.lowestPrice == nil)
        // The details view's line.
        let details = try #require(try await store.details(record.id))
        #expect(details.value?.figure.detailsText(currency: details.value?.currency ?? "")
            == "lowest listed 11.00 EUR (4 for sale, 2026-11-25); suggested for NM 15.50 EUR")
        // A grade changed since: the suggestion, for the old grade, no longer stands.
        try await store.write { db in try db.execute(sql: "UPDATE record SET mediaCondition = ?", arguments: [MediaCondition.good.rawValue]) }
        #expect(try await store.valueReport(currency: "EUR", accountCurrency: false).records.first?.suggestedPrice == nil)
        let usual = try CollectionStore(path: directory.file("usual.sqlite"))
        let tables = { (store: CollectionStore) in
            try await store.read { db in
                try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name IN ('releasePrice', 'copyPrice', 'collectionValue') ORDER BY name")
            }
        }
        #expect(try await tables(store) == tables(usual))
    }
}
