import Foundation

/// The dates an import file may carry (a Discogs collection export's `Date Added`, or a
/// crates export), read without a locale or a time-zone database so that the same text is
/// the same instant on every machine.
///
/// Accepted: `2024-05-01 12:34:56` (Discogs' export; taken as UTC), ISO 8601 / RFC 3339
/// `2024-05-01T12:34:56Z`, with fractional seconds and a `±HH:MM` offset, and a bare date
/// `2024-05-01` (midnight UTC).
public enum ImportDate {
    /// The instant `text` names, or nil when it is none of the accepted forms (or names a
    /// day that does not exist, such as 2023-02-29).
    public static func parse(_ text: String) -> Date? {
        let s = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var i = 0
        func number(_ count: Int) -> Int? {
            guard i + count <= s.count else { return nil }
            var value = 0
            for byte in s[i..<(i + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < s.count, s[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
              let day = number(2), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if i == s.count { return Date(timeIntervalSince1970: seconds) }
        guard expect(UInt8(ascii: " ")) || expect(UInt8(ascii: "T")) || expect(UInt8(ascii: "t")),
              let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), hour < 24, minute < 60
        else { return nil }
        var second = 0.0
        if expect(UInt8(ascii: ":")) {
            guard let whole = number(2), whole < 61 else { return nil }
            second = Double(whole)
            if expect(UInt8(ascii: ".")) {
                var scale = 0.1
                var any = false
                while i < s.count, s[i] >= 48, s[i] <= 57 {
                    second += Double(s[i] - 48) * scale
                    scale /= 10
                    i += 1
                    any = true
                }
                guard any else { return nil }
            }
        }
        seconds += Double(hour * 3600 + minute * 60) + second
        if i == s.count || expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) {
            return i == s.count ? Date(timeIntervalSince1970: seconds) : nil
        }
        // RFC 3339 §5.6 time-offset: local time = UTC + offset.
        let sign: Double
        if expect(UInt8(ascii: "+")) { sign = 1 } else if expect(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let offsetHours = number(2), offsetHours < 24 else { return nil }
        _ = expect(UInt8(ascii: ":"))
        guard let offsetMinutes = number(2), offsetMinutes < 60, i == s.count else { return nil }
        seconds -= sign * Double(offsetHours * 3600 + offsetMinutes * 60)
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
