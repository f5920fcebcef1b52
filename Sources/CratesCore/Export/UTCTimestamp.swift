import Foundation

/// Dates as text in Coordinated Universal Time, to the second, without a locale, a calendar
/// object or a time-zone database: the same text on every machine, and `parse` reads back
/// exactly what `format` wrote.
///
/// The day arithmetic is the proleptic Gregorian calendar's, as ISO 8601 §4.3.2.1 counts it
/// (Howard Hinnant's `days_from_civil` / `civil_from_days`, exact for every year a `Date`
/// can hold). Fractions of a second are dropped (floor), so a date before 1970 is not
/// rounded towards 1970.
public enum UTCTimestamp {
    /// The two spellings crates writes.
    public enum Style: Sendable {
        /// `2024-01-31 12:34:56`: Discogs' collection export (`Date Added`).
        case discogs
        /// `2024-01-31T12:34:56Z`: ISO 8601 / RFC 3339 §5.6, for JSON.
        case iso8601
    }

    /// `date` as text in `style`.
    public static func format(_ date: Date, _ style: Style) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(date, style, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `format(date, style)` to `bytes` as UTF-8 (`crates list` writes a million).
    public static func append(_ date: Date, _ style: Style, to bytes: inout [UInt8]) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        // Written as bytes: an export writes three of these per record, a million records.
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        append(year.magnitude, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(UInt64(month), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(UInt64(day), width: 2, to: &bytes)
        bytes.append(style == .discogs ? UInt8(ascii: " ") : UInt8(ascii: "T"))
        append(UInt64(secondOfDay / 3600), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(UInt64(secondOfDay / 60 % 60), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(UInt64(secondOfDay % 60), width: 2, to: &bytes)
        if style == .iso8601 { bytes.append(UInt8(ascii: "Z")) }
    }

    /// `value` in decimal, zero-padded to at least `width` digits.
    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        // The digits in place, no array of their own (three or four of these per date).
        var count = 1
        var power: UInt64 = 10
        while count < 20, value >= power {
            count += 1
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        for _ in count..<max(width, count) { bytes.append(UInt8(ascii: "0")) }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var rest = value
        for index in stride(from: start + count - 1, through: start, by: -1) {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// Reads `YYYY-MM-DD HH:MM:SS` (a `T` between date and time is accepted too, and a final
    /// `Z`), or a date alone `YYYY-MM-DD` (midnight), as UTC. Nil for anything else, including
    /// impossible dates such as February 30th.
    public static func parse(_ text: String) -> Date? {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        if bytes.last == UInt8(ascii: "Z") { bytes.removeLast() }
        guard bytes.count == 10 || bytes.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        var secondOfDay: Int64 = 0
        if bytes.count == 19 {
            guard bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                  hour < 24, minute < 60, second < 60
            else { return nil }
            secondOfDay = hour * 3600 + minute * 60 + second
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + secondOfDay))
    }

    // MARK: Calendar arithmetic

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2:
            // Gregorian leap years: every 4th, except centuries not divisible by 400.
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}
