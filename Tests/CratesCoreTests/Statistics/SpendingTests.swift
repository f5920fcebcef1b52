import CratesCore
import Foundation
import Testing

/// What was spent, per year and by where bought: summed exactly, per currency, never converted.
@Suite("Spending")
struct SpendingTests {
    static func bought(_ price: String?, _ currency: String?, _ date: String?, _ from: String?) -> Purchase {
        Purchase(price: price.flatMap(MoneyAmount.parse), currency: currency, date: date, from: from)
    }

    @Test("per year (oldest first, no day last) and by where bought (largest first), per currency")
    func sums() {
        let spending = Spending([
            Self.bought("12.50", "GBP", "2026-11-20", "Spitalfields fair"),
            Self.bought("0.10", "GBP", "2026-01-02", "Spitalfields fair"),
            Self.bought("0.20", "GBP", "2025-06-01", "Rough Trade"),
            Self.bought("30", "EUR", "2026-03-03", nil),
            Self.bought("5", nil, nil, "Rough Trade"),
            Self.bought(nil, "GBP", "2026-01-01", "a shop"),  // no price: not counted
        ])
        #expect(spending.perYear == [
            .init(key: "2025", currency: "GBP", amount: Decimal(string: "0.20")!, copies: 1),
            .init(key: "2026", currency: "EUR", amount: 30, copies: 1),
            .init(key: "2026", currency: "GBP", amount: Decimal(string: "12.60")!, copies: 2),
            .init(key: Spending.unknown, currency: nil, amount: 5, copies: 1),
        ])
        #expect(spending.byPlaceBought.map { "\($0.key) \($0.amountText) \($0.copies)" } == [
            "Rough Trade 5.00 1", "not said EUR 30.00 1", "Spitalfields fair GBP 12.60 2", "Rough Trade GBP 0.20 1",
        ])
        #expect(spending.json.hasPrefix(#"{"perYear":[{"key":"2025","currency":"GBP","amount":0.20,"copies":1},"#))
        #expect(spending.json.contains(#"{"key":"not said","currency":null,"amount":5.00,"copies":1}"#))
        #expect(spending.textLines.map(\.text).contains("  2026      GBP 12.60  (2 copies)"))
        #expect(Spending([Self.bought(nil, nil, nil, "a fair")]).isEmpty)
    }
}
