import Foundation

/// What Discogs' marketplace said of a release, as the price cache keeps it: the lowest
/// price listed (nil: none listed), how many copies are for sale, in which currency, and
/// when it was asked. Shown offline with its age, never as if it were today's.
public struct PriceFigure: Hashable, Sendable {
    public var lowest: Double?
    /// Discogs' `curr_abbr` ("GBP"); "" when it was not known when stored.
    public var currency: String
    public var forSale: Int?
    public var asOf: Date

    public init(lowest: Double?, currency: String, forSale: Int?, asOf: Date) {
        self.lowest = lowest
        self.currency = currency
        self.forSale = forSale
        self.asOf = asOf
    }

    /// "£12.40 lowest, 14 for sale, 3 days ago"; "none for sale, today" when nothing is
    /// listed.
    public func text(now: Date) -> String {
        let age = FigureAge.text(asOf, now: now)
        guard let lowest else { return "none for sale, \(age)" }
        let sale = forSale.map { ", \($0) for sale" } ?? ""
        return "\(Self.money(lowest, currency)) lowest\(sale), \(age)"
    }

    /// "£12.40", "$9.00", "€15.50", "¥1200", else the amount and its code ("21.00 CHF"),
    /// or the bare amount when the currency is not known.
    public static func money(_ amount: Double, _ currency: String) -> String {
        switch currency {
        case "GBP": String(format: "£%.2f", amount)
        case "USD": String(format: "$%.2f", amount)
        case "EUR": String(format: "€%.2f", amount)
        case "JPY": String(format: "¥%.0f", amount)
        case "": String(format: "%.2f", amount)
        default: String(format: "%.2f %@", amount, currency)
        }
    }
}

/// How old a stored figure is, in days: "today", "1 day ago", "12 days ago".
public enum FigureAge {
    public static func text(_ date: Date, now: Date) -> String {
        let days = Int((now.timeIntervalSince(date) / 86_400).rounded(.down))
        switch days {
        case ..<1: return "today"
        case 1: return "1 day ago"
        default: return "\(days) days ago"
        }
    }
}
