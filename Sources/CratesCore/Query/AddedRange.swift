import Foundation

/// When a copy was added, as `added:` takes it: calendar dates (`2026`, `2026-11`,
/// `2026-11-20`, or a range of them: `2026-01..2026-06`), or ages counted back from now
/// (`30d`, `8w`, `6m`, `1y`; `..30d` is "at most 30 days old", `30d..` "at least"; one age
/// alone is "at most"). Dates are UTC days, as the exports write them. A range mixes no dates
/// with ages: which way "before" runs would differ between its ends.
public enum AddedRange: Hashable, Sendable {
    case dates(QueryRange<QueryDate>)
    case ages(QueryRange<QueryAge>)

    /// The moments the range covers: from `from` (inclusive) to `before` (exclusive); nil: no
    /// bound on that side. `now` is the moment ages count back from.
    public func interval(now: Date) -> (from: Date?, before: Date?) {
        switch self {
        case .dates(let range):
            return (range.lower.map(\.start), range.upper.map(\.end))
        case .ages(let range):
            // The older age bounds the earlier moment: `7d..30d` is from 30 days ago to 7.
            return (range.upper.map { $0.moment(before: now) }, range.lower.map { $0.moment(before: now) })
        }
    }
}

/// A day, a month or a year of the calendar (UTC), as typed: `2026`, `2026-11`, `2026-11-20`.
public struct QueryDate: Hashable, Sendable, Comparable {
    public var year: Int
    public var month: Int?
    public var day: Int?

    /// Reads `2026`, `2026-11` or `2026-11-20` (a date that exists); nil for anything else.
    public init?(_ text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
              let year = Int(parts[0]), year >= 1
        else { return nil }
        self.year = year
        month = parts.count > 1 ? Int(parts[1]) : nil
        day = parts.count > 2 ? Int(parts[2]) : nil
        if let month, !(1...12).contains(month) { return nil }
        if let day {
            // A day the month has (2026-02-30 is not one): the calendar gives it back unchanged.
            guard let month, let date = Self.calendar.date(from: DateComponents(year: year, month: month, day: day)),
                  Self.calendar.component(.day, from: date) == day
            else { return nil }
        }
    }

    /// The first moment of the period.
    public var start: Date {
        Self.calendar.date(from: DateComponents(year: year, month: month ?? 1, day: day ?? 1)) ?? .distantPast
    }

    /// The first moment after the period.
    public var end: Date {
        let step: Calendar.Component = day != nil ? .day : month != nil ? .month : .year
        return Self.calendar.date(byAdding: step, value: 1, to: start) ?? .distantFuture
    }

    public static func < (a: QueryDate, b: QueryDate) -> Bool { a.start < b.start }

    /// The Gregorian calendar in UTC: the dates crates writes and reads.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()
}

/// An age: a count of days, weeks, months or years (`30d`, `8w`, `6m`, `1y`).
public struct QueryAge: Hashable, Sendable, Comparable {
    public enum Unit: Character, Hashable, Sendable {
        case day = "d", week = "w", month = "m", year = "y"
    }

    public var count: Int
    public var unit: Unit

    /// Reads `30d`, `8w`, `6m`, `1y`; nil for anything else.
    public init?(_ text: Substring) {
        guard let last = text.last, let unit = Unit(rawValue: Character(last.lowercased())) else { return nil }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits)
        else { return nil }
        self.count = count
        self.unit = unit
    }

    /// The moment this long before `now`, by the calendar (a month back from 31 March is the
    /// last day of February).
    public func moment(before now: Date) -> Date {
        let component: Calendar.Component
        var value = count
        switch unit {
        case .day: component = .day
        case .week: (component, value) = (.day, count * 7)
        case .month: component = .month
        case .year: component = .year
        }
        return QueryDate.calendar.date(byAdding: component, value: -value, to: now) ?? .distantPast
    }

    /// Days, roughly, to compare two ages of different units.
    var days: Int {
        switch unit {
        case .day: count
        case .week: count * 7
        case .month: count * 30
        case .year: count * 365
        }
    }

    public static func < (a: QueryAge, b: QueryAge) -> Bool { a.days < b.days }
}
