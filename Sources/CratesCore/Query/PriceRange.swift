import Foundation

/// Prices paid, as `paid:` takes them: `10..`, `..20`, `10..20`, `12.50`, each amount with a
/// currency code after it if you like (`10GBP..20GBP`, `..20EUR`): with one, only purchases in
/// that currency (never converted); without, in any.
public struct PriceRange: Hashable, Sendable {
    public var amounts: QueryRange<Decimal>
    /// The currency's code, upper case; nil: any currency.
    public var currency: String?

    public init(amounts: QueryRange<Decimal>, currency: String? = nil) {
        self.amounts = amounts
        self.currency = currency
    }
}

/// The currencies crates knows a price in: ISO 4217's codes in use (Discogs' twelve among
/// them), so that a typing slip ("GPB") is refused rather than kept as a currency nobody has.
public enum CurrencyCode {
    public static let known: Set<String> = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD", "BIF",
        "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CLP", "CNY", "COP", "CRC",
        "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS",
        "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD",
        "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL",
        "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN", "MYR", "MZN", "NAD",
        "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD",
        "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP",
        "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS", "VES",
        "VND", "VUV", "WST", "XAF", "XCD", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWL",
    ]

    /// The code of `text` (any case, spaces around ignored); nil when crates knows no such
    /// currency.
    public static func parse(_ text: some StringProtocol) -> String? {
        let code = text.trimmingCharacters(in: .whitespaces).uppercased()
        return known.contains(code) ? code : nil
    }
}

/// An amount of money as typed: digits with at most one decimal point ("12.50", "12"; ".5"
/// is not one), at most 4 decimals and 9 digits before the point; nil for anything else.
public enum MoneyAmount {
    public static func parse(_ text: some StringProtocol) -> Decimal? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 9,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        if parts.count == 2 { guard (1...4).contains(parts[1].count) else { return nil } }
        return Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX"))
    }

    /// The amount as crates writes it: at least two decimals ("12.50", "3.00", "0.125").
    public static func text(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 4, .plain)
        let plain = "\(rounded)"
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        let decimals = parts.count > 1 ? String(parts[1]) : ""
        return "\(parts[0]).\(decimals.padding(toLength: max(2, decimals.count), withPad: "0", startingAt: 0))"
    }
}
