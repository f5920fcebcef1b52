import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// What the collection is worth, as Discogs' answers say it, through real libcurl against the
/// loopback server: the collection's value (its text kept, its number read), a release's
/// lowest price and copies for sale, the suggestions with and without seller settings, and a
/// 429 in the middle waited out.
@Suite struct DiscogsMarketplaceTests {
    @Test("the value's text as Discogs writes it, and its number", arguments: [
        ("A$1,597.46", 1597.46), ("$12.00", 12), ("€1,234.00", 1234), ("£3.50", 3.5), ("¥1,200", 1200), ("CHF 12.50", 12.5),
        ("R$10.00", 10), ("", nil), ("—", nil),
    ] as [(String, Double?)])
    func amounts(_ text: String, _ expected: Double?) {
        #expect(DiscogsCollectionValue.amount(text) == expected)
    }

    @Test func recordedCollectionValue() throws {
        let value = try JSONDecoder().decode(
            DiscogsCollectionValue.self, from: Data(#"{"minimum": "A$1,597.46", "median": "A$3,506.77", "maximum": "A$7,505.54"}"#.utf8))
        #expect(value.minimum == "A$1,597.46" && value.minimumAmount == 1597.46)
        #expect(value.medianAmount == 3506.77 && value.maximumAmount == 7505.54)
    }

    @Test func collectionValueIsTheOwnersOnly() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        let value = try await client.collectionValue(username: "DamIDhagor")
        #expect(value == DiscogsCollectionValue(minimum: "$1,597.46", median: "$3,506.77", maximum: "$7,505.54"))
        await #expect(throws: DiscogsError.self) { _ = try await client.collectionValue(username: "someone else") }
        #expect(try await server.marketplaceCounts().value == 2)
    }

    @Test func statsLowestPriceAndForSale() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        let stats = try await client.marketplaceStats(releaseID: 1401, currency: "EUR")
        #expect(stats == DiscogsMarketplaceStats(lowestPrice: DiscogsPrice(currency: "EUR", value: 43.49), numForSale: 11))
        let none = try await client.marketplaceStats(releaseID: 20)
        #expect(none.lowestPrice == nil && none.numForSale == 0)
        #expect(try await server.marketplaceCounts().stats == 2)
    }

    @Test("price suggestions with seller settings; without them, {} and 403 both say so")
    func suggestions() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        guard case .suggestions(let suggestions) = try await client.priceSuggestions(releaseID: 5) else {
            Issue.record("seller settings: a price per grade")
            return
        }
        #expect(suggestions.byGrade.count == 8)
        #expect(suggestions.byGrade[.veryGoodPlus] == DiscogsPrice(currency: "USD", value: 7.2))
        try await server.sellerSettings("no")
        #expect(try await client.priceSuggestions(releaseID: 5) == .noSellerSettings)
        try await server.sellerSettings("forbidden")
        #expect(try await client.priceSuggestions(releaseID: 5) == .noSellerSettings)
        #expect(try await server.marketplaceCounts().suggestions == 3)
    }

    @Test("a 429 in the middle of the stats: waited out and sent again, every answer there")
    func throttledInTheMiddle() async throws {
        let server = try await DiscogsTestServer.start(["--limit", "60", "--window", "1"])
        let limiter = RateLimiter(configuration: .init(limit: 60, window: 1))
        let client = try testClient(server, limiter: limiter)
        var lowest: [Double?] = []
        for id in [1, 2, 3] {
            if id == 2 { try await server.inject("429", count: 1, match: "/marketplace/stats/2") }
            lowest.append(try await client.marketplaceStats(releaseID: id).lowestPrice?.value)
        }
        #expect(lowest == [1.49, 2.49, 3.49])
        #expect(await limiter.statistics.throttled == 1)
        #expect(try await server.marketplaceCounts().stats == 3, "the 429 is answered before the endpoint counts")
    }
}
