import Foundation

/// What the collector paid for a copy, and where: kept on the copy, never sent to Discogs
/// (its collection has no such fields). Each part may be unknown on its own.
public struct Purchase: Hashable, Sendable {
    /// The amount paid (`MoneyAmount`: digits, at most 4 decimals).
    public var price: Decimal?
    /// The currency's ISO 4217 code (`CurrencyCode`).
    public var currency: String?
    /// The day it was bought, `YYYY-MM-DD`.
    public var date: String?
    /// The shop, fair or seller.
    public var from: String?

    public static let none = Purchase()

    public init(price: Decimal? = nil, currency: String? = nil, date: String? = nil, from: String? = nil) {
        self.price = price
        self.currency = currency
        self.date = date
        self.from = from
    }

    public var isEmpty: Bool { price == nil && currency == nil && date == nil && from == nil }

    /// "12.50 GBP" (the price and its currency), nil without a price.
    public var priceText: String? {
        price.map { MoneyAmount.text($0) + (currency.map { " \($0)" } ?? "") }
    }

    /// "12.50 GBP on 2026-11-20 at Spitalfields fair", with what is known; empty when nothing.
    public var summary: String {
        var parts: [String] = []
        if let priceText { parts.append(priceText) }
        if let date { parts.append("on \(date)") }
        if let from { parts.append("from \(from)") }
        return parts.joined(separator: " ")
    }
}

/// Who has a copy on loan, since when, and whether it came back: kept on the copy, never
/// sent to Discogs. The last loan stays once returned, so the details say who had it last.
public struct Loan: Hashable, Sendable {
    public var to: String
    /// The day it was lent, `YYYY-MM-DD`.
    public var since: String?
    /// The day it came back, `YYYY-MM-DD`; nil while it is out.
    public var returned: String?

    public init(to: String, since: String? = nil, returned: String? = nil) {
        self.to = to
        self.since = since
        self.returned = returned
    }

    /// Lent and not back yet.
    public var isOut: Bool { returned == nil }

    /// "lent to Anna since 2026-11-20", or "lent to Anna 2026-10-01, returned 2026-11-02".
    public var summary: String {
        if let returned {
            return "lent to \(to)\(since.map { " \($0)" } ?? ""), returned \(returned)"
        }
        return "lent to \(to)\(since.map { " since \($0)" } ?? "")"
    }
}

/// A day as crates keeps it (`YYYY-MM-DD`, a date on a receipt rather than a moment): the
/// checks on one a person types.
public enum DayText {
    /// `text` trimmed when it is a day that exists (`2026-11-20`); nil otherwise.
    public static func checked(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count == 10, let day = QueryDate(Substring(trimmed)), day.day != nil else { return nil }
        return trimmed
    }

    /// Today in UTC, as `YYYY-MM-DD`.
    public static func today(_ now: Date = Date()) -> String {
        String(UTCTimestamp.format(now, .iso8601).prefix(10))
    }
}

/// A change of a copy's purchase, part by part (`crates edit --paid …`, the edit form):
/// only the parts given change.
public struct PurchaseChange: Hashable, Sendable {
    public typealias Value = CopyGradingChange.Value
    public var price: Value<Decimal>?
    public var currency: Value<String>?
    public var date: Value<String>?
    public var from: Value<String>?

    public init(price: Value<Decimal>? = nil, currency: Value<String>? = nil, date: Value<String>? = nil, from: Value<String>? = nil) {
        self.price = price
        self.currency = currency
        self.date = date
        self.from = from
    }

    public var isEmpty: Bool { price == nil && currency == nil && date == nil && from == nil }

    /// The purchase with the change made.
    public func applied(to purchase: Purchase) -> Purchase {
        var result = purchase
        if let price { result.price = price.value }
        if let currency { result.currency = currency.value }
        if let date { result.date = date.value }
        if let from { result.from = from.value }
        return result
    }

    /// "paid 12.50", "currency GBP", "bought 2026-11-20", "bought from \"…\"", "paid cleared":
    /// for the record's history and the edit's summary.
    public var summaryParts: [String] {
        var parts: [String] = []
        switch price {
        case .set(let amount)?: parts.append("paid \(MoneyAmount.text(amount))")
        case .clear?: parts.append("price paid removed")
        case nil: break
        }
        switch currency {
        case .set(let code)?: parts.append("currency \(code)")
        case .clear?: parts.append("currency removed")
        case nil: break
        }
        switch date {
        case .set(let day)?: parts.append("bought \(day)")
        case .clear?: parts.append("day bought removed")
        case nil: break
        }
        switch from {
        case .set(let text)?: parts.append("bought from \"\(text)\"")
        case .clear?: parts.append("where bought removed")
        case nil: break
        }
        return parts
    }

    /// The change that puts `purchase` back as it was, in the parts this one changes.
    public func inverse(of purchase: Purchase) -> PurchaseChange {
        func back<T>(_ changed: Value<T>?, _ old: T?) -> Value<T>? {
            changed == nil ? nil : old.map { .set($0) } ?? .clear
        }
        return PurchaseChange(
            price: back(price, purchase.price), currency: back(currency, purchase.currency), date: back(date, purchase.date),
            from: back(from, purchase.from))
    }

    /// Checks what a person typed: the price an amount (`12.50`), the currency a code crates
    /// knows (`GBP`), the date a day (`2026-11-20`), the place bought at most 200 characters;
    /// an empty value clears that part. Nil arguments leave their part as it is.
    public static func checked(
        price: String? = nil, currency: String? = nil, date: String? = nil, from: String? = nil
    ) throws(PurchaseLoanError) -> PurchaseChange {
        var change = PurchaseChange()
        if let price {
            let trimmed = price.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                change.price = .clear
            } else {
                guard let amount = MoneyAmount.parse(trimmed) else { throw .price(EscapedText.displayForm(of: price, limit: 40)) }
                change.price = .set(amount)
            }
        }
        if let currency {
            let trimmed = currency.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                change.currency = .clear
            } else {
                guard let code = CurrencyCode.parse(trimmed) else { throw .currency(EscapedText.displayForm(of: currency, limit: 40)) }
                change.currency = .set(code)
            }
        }
        if let date { change.date = try checkedDay(date, "bought") }
        if let from { change.from = try checkedText(from, "bought-from") }
        return change
    }

    static func checkedDay(_ text: String, _ name: String) throws(PurchaseLoanError) -> Value<String> {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return .clear }
        guard let day = DayText.checked(text) else { throw .day(name, EscapedText.displayForm(of: text, limit: 40)) }
        return .set(day)
    }

    static func checkedText(_ text: String, _ name: String) throws(PurchaseLoanError) -> Value<String> {
        if text.unicodeScalars.contains(where: ControlCharacters.isInvisible) {
            throw .text(name, "it holds a control character: \"\(EscapedText.displayForm(of: text, limit: 40))\"")
        }
        let trimmed = ReleaseSearchQuery.trimmed(text)
        if trimmed.isEmpty { return .clear }
        if trimmed.count > PurchaseLoanError.maximumLength {
            throw .text(name, "it is \(trimmed.count) characters long; at most \(PurchaseLoanError.maximumLength) are taken")
        }
        return .set(trimmed)
    }
}

/// A change of a copy's loan.
public enum LoanChange: Hashable, Sendable {
    /// The copy is lent (or its loan set as it was, by an undo).
    case set(Loan)
    /// The copy came back on that day (`YYYY-MM-DD`).
    case returned(String)
    /// No loan at all.
    case clear

    /// The loan with the change made; a return of a copy not out changes nothing.
    public func applied(to loan: Loan?) -> Loan? {
        switch self {
        case .set(let loan): return loan
        case .clear: return nil
        case .returned(let day):
            guard var loan, loan.isOut else { return loan }
            loan.returned = day
            return loan
        }
    }

    /// `--lent-to NAME [--lent-on DAY]`, `--returned`: checked (a name of at most 200
    /// characters, a day that exists; lent today when no day is given).
    public static func checked(
        lentTo: String?, lentOn: String?, returned: Bool, now: Date = Date()
    ) throws(PurchaseLoanError) -> LoanChange? {
        if returned, lentTo != nil { throw .text("returned", "a copy is either lent (--lent-to) or returned, not both at once") }
        if lentOn != nil, lentTo == nil { throw .text("lent-on", "give --lent-to NAME with it: the day says when, the name to whom") }
        if returned { return .returned(DayText.today(now)) }
        guard let lentTo else { return nil }
        guard case .set(let name) = try PurchaseChange.checkedText(lentTo, "lent-to") else {
            throw .text("lent-to", "give the name of whom it is lent to")
        }
        var since = DayText.today(now)
        if let lentOn, case .set(let day) = try PurchaseChange.checkedDay(lentOn, "lent-on") { since = day }
        return .set(Loan(to: name, since: since))
    }
}

/// A purchase's or a loan's value refused, saying what to type instead.
public enum PurchaseLoanError: Error, Hashable, Sendable, CustomStringConvertible {
    case price(String)
    case currency(String)
    case day(String, String)
    case text(String, String)

    /// The longest shop, seller or borrower's name taken, in characters.
    public static let maximumLength = 200

    public var description: String {
        switch self {
        case .price(let shown): "--paid \(shown): \(reason) ('' clears it)"
        case .currency(let shown): "--currency \(shown): \(reason)"
        case .day(let name, let shown): "--\(name) \(shown): \(reason)"
        case .text(let name, _): "--\(name): \(reason)"
        }
    }

    /// What is wrong and what is taken instead, without the option's name: the edit form
    /// puts its field's label before it ("Paid “12,5x”: not an amount; give…").
    public var reason: String {
        switch self {
        case .price: "not an amount; give digits with at most 4 decimals, such as 12.50"
        case .currency: "no currency crates knows; give an ISO 4217 code, such as GBP, EUR or USD"
        case .day: "not a day; give one as YYYY-MM-DD, such as 2026-11-20"
        case .text(_, let why): why
        }
    }

    /// The value refused as typed (escaped, cut), nil for a refusal of no one value.
    public var shown: String? {
        switch self {
        case .price(let shown), .currency(let shown), .day(_, let shown): shown
        case .text: nil
        }
    }
}

extension LoanChange {
    /// A loan as the edit form gives it, whole: to whom, since when (blank: today) and the
    /// day it came back (blank: still out). A blank name with nothing else removes the loan;
    /// a day without a name is refused (the name says to whom). `names` are the fields'
    /// names the errors use (`to`, `since`, `returned`).
    public static func checked(
        to: String, since: String, returned: String, names: (to: String, since: String, returned: String),
        now: Date = Date()
    ) throws(PurchaseLoanError) -> LoanChange {
        let blank = { (text: String) in text.trimmingCharacters(in: .whitespaces).isEmpty }
        guard case .set(let name) = try PurchaseChange.checkedText(to, names.to) else {
            if blank(since), blank(returned) { return .clear }
            throw .text(names.to, "give the name of whom it is lent to (empty every loan field to remove the loan)")
        }
        let lent = try PurchaseChange.checkedDay(since, names.since)
        let back = try PurchaseChange.checkedDay(returned, names.returned)
        var loan = Loan(to: name, since: DayText.today(now))
        if case .set(let day) = lent { loan.since = day }
        if case .set(let day) = back {
            if let since = loan.since, day < since {
                throw .text(names.returned, "\(day) is before the day it was lent, \(since)")
            }
            loan.returned = day
        }
        return .set(loan)
    }
}
