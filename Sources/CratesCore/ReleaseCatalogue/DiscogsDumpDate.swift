import Foundation

/// The date of one of Discogs' monthly data dumps, as its file names spell it (`YYYYMMDD`):
/// `discogs_20260601_releases.xml.gz`. Dumps are dated the 1st of their month.
public struct DiscogsDumpDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// `20260601`; nil for anything that is not a real calendar date in that form.
    public init?(digits: String) {
        guard digits.count == 8, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let value = Int(digits) else { return nil }
        let (year, month, day) = (value / 10_000, value / 100 % 100, value % 100)
        guard year >= 2000, (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    private init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The 1st of the month that holds `date` (UTC: Discogs dates its dumps so).
    public static func firstOfMonth(containing date: Date) -> DiscogsDumpDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let parts = calendar.dateComponents([.year, .month], from: date)
        return DiscogsDumpDate(year: parts.year ?? 2000, month: parts.month ?? 1, day: 1)
    }

    /// Whether this date is after today (UTC, as Discogs dates its dumps): no dump is dated
    /// so, so such a date is a typing error (`--date 20990101`).
    public func isAfterToday(now: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return self > DiscogsDumpDate(year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// The 1st of the month before.
    public var monthBefore: DiscogsDumpDate {
        month == 1 ? DiscogsDumpDate(year: year - 1, month: 12, day: 1) : DiscogsDumpDate(year: year, month: month - 1, day: 1)
    }

    /// `20260601`.
    public var digits: String { String(format: "%04d%02d%02d", year, month, day) }

    /// `2026-06-01`.
    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// `discogs_20260601_releases.xml.gz`.
    public var releasesFileName: String { "discogs_\(digits)_releases.xml.gz" }

    /// `discogs_20260601_CHECKSUM.txt`: written last, so its presence means the month's dump
    /// is complete.
    public var checksumFileName: String { "discogs_\(digits)_CHECKSUM.txt" }

    public static func < (a: DiscogsDumpDate, b: DiscogsDumpDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    private static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A dump's checksum file: one `HASH NAME` line per file of the month, SHA-256 in hex, ONE
/// space between them (not sha256sum's two, though those and a tab are read too), in no fixed
/// order.
public struct DiscogsDumpChecksums: Hashable, Sendable {
    /// File name to lowercase hex digest.
    public let digests: [String: String]

    /// Reads every line that is a 64-digit hex digest, blanks (spaces or tabs), and a name (a
    /// `*` before the name, as sha256sum writes for binary mode, is dropped); anything else is
    /// skipped.
    public init(text: String) {
        var digests: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(maxSplits: 1, omittingEmptySubsequences: true) { $0 == " " || $0 == "\t" }
            guard fields.count == 2 else { continue }
            let hash = fields[0].lowercased()
            var name = fields[1].trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("*") { name.removeFirst() }
            guard hash.count == 64, hash.allSatisfy(\.isHexDigit), !name.isEmpty else { continue }
            digests[name] = hash
        }
        self.digests = digests
    }

    /// The digest of `name`, if the file lists it.
    public func sha256(of name: String) -> String? { digests[name] }
}
