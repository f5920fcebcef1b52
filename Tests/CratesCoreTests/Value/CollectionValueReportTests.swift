import CratesCore
import Foundation
import Testing

/// `crates value --json` as the issue names its members, and each figure said with its
/// source and date, none invented.
@Suite struct CollectionValueReportTests {
    static let day = Date(timeIntervalSince1970: 1_795_564_800)  // 2026-11-25T00:00:00Z

    static let report = CollectionValueReport(
        currency: "USD",
        collection: .init(value: DiscogsCollectionValue(minimum: "$1,597.46", median: "$3,506.77", maximum: "$7,505"), at: day),
        records: [
            .init(id: 12, releaseID: 1401, grade: .veryGoodPlus, lowestPrice: 12.49, forSale: 3, suggestedPrice: 7.2, at: day),
            .init(id: 13, releaseID: 20, grade: nil, lowestPrice: nil, forSale: 0, suggestedPrice: nil, at: day),
            .init(id: 14, releaseID: 7, grade: .mint, lowestPrice: nil, forSale: nil, suggestedPrice: nil, at: nil),
        ])

    @Test func json() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.report.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["currency", "collection", "records"])
        #expect(object["currency"] as? String == "USD")
        let collection = try #require(object["collection"] as? [String: Any])
        #expect(Set(collection.keys) == ["minimum", "median", "maximum", "text", "at"])
        #expect(collection["minimum"] as? Double == 1597.46 && collection["maximum"] as? Double == 7505)
        #expect((collection["text"] as? [String: String]) == ["minimum": "$1,597.46", "median": "$3,506.77", "maximum": "$7,505"])
        #expect(collection["at"] as? String == "2026-11-25T00:00:00Z")
        let records = try #require(object["records"] as? [[String: Any]])
        #expect(records.count == 3)
        for record in records {
            #expect(Set(record.keys) == ["id", "releaseId", "lowestPrice", "forSale", "grade", "suggestedPrice", "at", "paid"])
        }
        #expect(records[0]["id"] as? Int == 12 && records[0]["releaseId"] as? Int == 1401)
        #expect(records[0]["lowestPrice"] as? Double == 12.49 && records[0]["forSale"] as? Int == 3)
        #expect(records[0]["grade"] as? String == "Very Good Plus (VG+)" && records[0]["suggestedPrice"] as? Double == 7.2)
        #expect(records[1]["lowestPrice"] is NSNull && records[1]["grade"] is NSNull && records[1]["suggestedPrice"] is NSNull)
        #expect(records[2]["at"] is NSNull && records[2]["forSale"] is NSNull)
        let empty = CollectionValueReport(currency: "EUR", collection: nil, records: [])
        #expect(empty.json == #"{"currency":"EUR","collection":null,"records":[]}"#)
    }

    @Test func labelsSaySourceAndDate() {
        #expect(Self.report.records[0].labels(currency: "USD")
            == ["lowest listed 12.49 USD, 3 for sale, 2026-11-25", "suggested for VG+ 7.20 USD, 2026-11-25"])
        #expect(Self.report.records[1].labels(currency: "USD") == ["none listed, 2026-11-25"])
        #expect(Self.report.records[2].labels(currency: "USD").isEmpty, "never asked: no figure, none invented")
    }
}
