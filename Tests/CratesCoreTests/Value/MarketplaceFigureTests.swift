import CratesCore
import Foundation
import Testing

/// What a figure of Discogs' marketplace may be: a price from 0 to under a billion, a count
/// from 0; and the collection's value texts read as their currency writes them.
@Suite struct MarketplaceFigureTests {
    @Test("value texts: grouping and decimal separators as currencies write them; anything else unknown", arguments: [
        ("A$1,597.46", 1597.46), ("$12.00", 12), ("¥1,200", 1200), ("CHF 12.50", 12.5), ("R$10.00", 10),
        ("¤12,00", 12), ("12,00 €", 12), ("1.597,46 €", 1597.46), ("€1.234,56", 1234.56), ("12,5", 12.5),
        ("CHF 1'597.46", 1597.46), ("1 597,46 kr", 1597.46), ("1\u{00A0}597,46 kr", 1597.46), ("$1,597", 1597),
        ("-$5.00", nil), ("$-5.00", nil), ("$1e30", nil), ("$1,000,000,000,000,000.00", nil), ("$1,59,7.00", nil),
        ("1,2,3", nil), ("", nil), ("—", nil), ("$", nil),
    ] as [(String, Double?)])
    func amounts(_ text: String, _ expected: Double?) {
        #expect(DiscogsCollectionValue.amount(text) == expected, "\(text)")
    }

    @Test("a release's stats: a negative, absurd or unreadable price, or a negative count, is no answer", arguments: [
        #"{"lowest_price": {"currency": "USD", "value": -5.0}, "num_for_sale": 2}"#,
        #"{"lowest_price": {"currency": "USD", "value": 1e30}, "num_for_sale": 2}"#,
        #"{"lowest_price": {"currency": "USD", "value": "twelve"}, "num_for_sale": 2}"#,
        #"{"lowest_price": {"currency": "USD", "value": 12.5}, "num_for_sale": -2}"#,
    ])
    func refusedStats(_ json: String) {
        #expect(throws: (any Error).self) { try JSONDecoder().decode(DiscogsMarketplaceStats.self, from: Data(json.utf8)) }
    }

    @Test func plainStats() throws {
        let stats = try JSONDecoder().decode(
            DiscogsMarketplaceStats.self, from: Data(#"{"lowest_price": {"currency": "USD", "value": 0}, "num_for_sale": 0}"#.utf8))
        #expect(stats.lowestPrice == DiscogsPrice(currency: "USD", value: 0) && stats.numForSale == 0)
    }

    @Test("a suggested price that is none is left out, the others kept")
    func suggestions() throws {
        let json = #"{"Mint (M)": {"currency": "USD", "value": -1}, "Very Good Plus (VG+)": {"currency": "USD", "value": 7.2}, "Good (G)": {"currency": "USD", "value": 1e30}}"#
        let suggestions = try DiscogsPriceSuggestions.decode(Data(json.utf8))
        #expect(suggestions.byGrade == [.veryGoodPlus: DiscogsPrice(currency: "USD", value: 7.2)])
    }
}
