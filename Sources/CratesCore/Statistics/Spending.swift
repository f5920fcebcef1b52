import Foundation

/// What the collector spent on the copies whose price paid is known (`crates stats`): per
/// year bought and by where bought. Amounts are summed per currency and never converted (no
/// rate is known offline), so one year may have a line per currency.
public struct Spending: Hashable, Sendable {
    /// One line: the copies of one key (a year, a shop) bought in one currency.
    public struct Line: Hashable, Sendable {
        /// The year ("2026"), or the shop, fair or seller; `Spending.unknown` when not said.
        public var key: String
        /// The ISO 4217 code, nil when the price was given without one.
        public var currency: String?
        public var amount: Decimal
        public var copies: Int

        public init(key: String, currency: String?, amount: Decimal, copies: Int) {
            self.key = key
            self.currency = currency
            self.amount = amount
            self.copies = copies
        }

        /// "GBP 12.50", or "12.50" without a currency.
        public var amountText: String { (currency.map { "\($0) " } ?? "") + MoneyAmount.text(amount) }
    }

    /// The key of copies bought on a day not said, or where not said.
    public static let unknown = "not said"

    /// Per year bought, oldest first (copies without a day last).
    public var perYear: [Line]
    /// By where bought, the largest amount first within a currency.
    public var byPlaceBought: [Line]

    public init(perYear: [Line] = [], byPlaceBought: [Line] = []) {
        self.perYear = perYear
        self.byPlaceBought = byPlaceBought
    }

    public var isEmpty: Bool { perYear.isEmpty && byPlaceBought.isEmpty }

    /// The copies' purchases summed; a purchase without a price is not counted.
    public init(_ purchases: [Purchase]) {
        var years: [Key: Line] = [:]
        var places: [Key: Line] = [:]
        for purchase in purchases {
            guard let price = purchase.price else { continue }
            let year = purchase.date.map { String($0.prefix(4)) } ?? Self.unknown
            let place = purchase.from ?? Self.unknown
            years[Key(key: year, currency: purchase.currency), default: Line(key: year, currency: purchase.currency, amount: 0, copies: 0)]
                .add(price)
            places[Key(key: place, currency: purchase.currency), default: Line(key: place, currency: purchase.currency, amount: 0, copies: 0)]
                .add(price)
        }
        perYear = years.values.sorted {
            ($0.key == Self.unknown ? 1 : 0, $0.key, $0.currency ?? "") < ($1.key == Self.unknown ? 1 : 0, $1.key, $1.currency ?? "")
        }
        byPlaceBought = places.values.sorted {
            if $0.currency != $1.currency { return ($0.currency ?? "") < ($1.currency ?? "") }
            return $0.amount != $1.amount ? $0.amount > $1.amount : $0.key < $1.key
        }
    }

    private struct Key: Hashable {
        var key: String
        var currency: String?
    }

    /// `{"perYear":[…],"byPlaceBought":[…]}`, each line `{"key","currency","amount","copies"}`
    /// (`amount` a number as written, "12.50" → 12.50; `currency` null when not said).
    public var json: String {
        func lines(_ lines: [Line]) -> String {
            "[" + lines.map {
                "{\"key\":\(JSONStringLiteral.quoted($0.key)),\"currency\":\($0.currency.map(JSONStringLiteral.quoted) ?? "null"),"
                    + "\"amount\":\(MoneyAmount.text($0.amount)),\"copies\":\($0.copies)}"
            }.joined(separator: ",") + "]"
        }
        return "{\"perYear\":\(lines(perYear)),\"byPlaceBought\":\(lines(byPlaceBought))}"
    }

    /// The report's lines: a heading per list, then "  2026  GBP 112.50  (9 copies)", keys,
    /// currencies and amounts in columns.
    public var textLines: [(text: String, heading: Bool)] {
        var result: [(String, Bool)] = []
        for (heading, lines) in [("Spent per year", perYear), ("Spent by where bought", byPlaceBought)] where !lines.isEmpty {
            result.append(("", false))
            result.append((heading, true))
            // The currencies in a column, the amounts right-aligned after them.
            let keyWidth = lines.map { $0.key.count }.max() ?? 0
            let currencyWidth = lines.map { $0.currency?.count ?? 0 }.max() ?? 0
            let amountWidth = lines.map { MoneyAmount.text($0.amount).count }.max() ?? 0
            for line in lines {
                let amount = MoneyAmount.text(line.amount)
                result.append((
                    "  " + line.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0) + "  "
                        + (line.currency ?? "").padding(toLength: currencyWidth, withPad: " ", startingAt: 0) + " "
                        + String(repeating: " ", count: amountWidth - amount.count) + amount
                        + "  (\(line.copies) \(line.copies == 1 ? "copy" : "copies"))",
                    false))
            }
        }
        return result
    }
}

extension Spending.Line {
    fileprivate mutating func add(_ price: Decimal) {
        amount += price
        copies += 1
    }
}
