import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// Figures Discogs sends that are no figures: one unreadable, negative or absurd is skipped
/// and named, the rest of the refresh kept; the collection's value texts read as the
/// currency writes them, or not at all.
@Suite("crates value: figures that are none (process)", .serialized, .processTimeLimit)
struct ValueFiguresTests {
    @Test("one release's figures unreadable, another's negative: each named and skipped, the rest kept, exit 0, and again on a rerun")
    func unreadableAndNegative() async throws {
        let (sandbox, server, _) = try await ValueCommandTests.signedIn()
        try await server.marketplaceStats(
            release: 5_134_861, body: #"{"lowest_price": {"currency": "USD", "value": "twelve"}, "num_for_sale": 3, "blocked_from_sale": false}"#)
        try await server.marketplaceStats(
            release: 10_507_194, body: #"{"lowest_price": {"currency": "USD", "value": -5.0}, "num_for_sale": -2, "blocked_from_sale": false}"#)
        for run in 1...2 {
            let result = try await sandbox.crates(["value", "--refresh", "--json"])
            #expect(result.status == 0, "run \(run): \(result)")
            #expect(result.stderr.contains("release 5134861") && result.stderr.contains("release 10507194"), "run \(run): \(result)")
            let object = try ValueCommandTests.object(result)
            let records = try #require(object["records"] as? [[String: Any]])
            #expect(records.map { $0["lowestPrice"] as? Double } == [1.49, nil, nil], "run \(run): \(result)")
            #expect(records.allSatisfy { ($0["forSale"] as? Int).map { $0 >= 0 } ?? true }, "no negative count: \(records)")
            #expect((object["collection"] as? [String: Any])?["median"] as? Double == 3_506.77, "the collection's value still asked")
        }
        let shown = try await sandbox.crates(["value"])
        #expect(!shown.stdout.contains("-5") && !shown.stdout.contains("-2 for sale"), "\(shown)")
    }

    @Test("an absurd price (1e30): refused and named, never shown in 31 digits")
    func absurd() async throws {
        let (sandbox, server, _) = try await ValueCommandTests.signedIn()
        try await server.marketplaceStats(
            release: 5_134_861, body: #"{"lowest_price": {"currency": "USD", "value": 1e30}, "num_for_sale": 1, "blocked_from_sale": false}"#)
        let result = try await sandbox.crates(["value", "--refresh"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("release 5134861"), "\(result)")
        #expect(result.stdout.range(of: #"\d{16,}"#, options: .regularExpression) == nil, "\(result)")
    }

    @Test("the collection's value as currencies write it: decimal commas read as such, a negative or absurd one unknown")
    func valueTexts() async throws {
        let (sandbox, server, _) = try await ValueCommandTests.signedIn()
        try await server.collectionValue(minimum: "¤12,00", median: "1.597,46 €", maximum: "-$5.00")
        let result = try await sandbox.crates(["value", "--refresh", "--json"])
        #expect(result.status == 0, "\(result)")
        let collection = try #require(try ValueCommandTests.object(result)["collection"] as? [String: Any])
        #expect(collection["minimum"] as? Double == 12, "\(collection)")
        #expect(collection["median"] as? Double == 1_597.46, "\(collection)")
        #expect(collection["maximum"] is NSNull, "\(collection)")
    }
}
