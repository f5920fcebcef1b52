import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// Dates as UTC text, checked against published instants and against Foundation's own
/// formatter as an independent oracle.
@Suite("UTC timestamps", .offThePool)
struct UTCTimestampTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let seconds: Double
        let discogs: String
        var testDescription: String { discogs }
    }

    static let vectors: [Vector] = [
        Vector(seconds: 0, discogs: "1970-01-01 00:00:00"),
        Vector(seconds: 1_706_704_496, discogs: "2024-01-31 12:34:56"),
        Vector(seconds: 951_782_400, discogs: "2000-02-29 00:00:00"),  // a leap day of a year divisible by 400
        Vector(seconds: 4_107_542_399, discogs: "2100-02-28 23:59:59"),  // 2100 is not a leap year
        Vector(seconds: 4_107_542_400, discogs: "2100-03-01 00:00:00"),
        Vector(seconds: -1, discogs: "1969-12-31 23:59:59"),
        Vector(seconds: -0.25, discogs: "1969-12-31 23:59:59"),  // floor, not towards 1970
        Vector(seconds: 1_706_704_496.999, discogs: "2024-01-31 12:34:56"),
        Vector(seconds: -2_208_988_800, discogs: "1900-01-01 00:00:00"),
        Vector(seconds: 253_402_300_799, discogs: "9999-12-31 23:59:59"),
    ]

    @Test("known instants in Discogs' Date Added form", arguments: vectors)
    func known(_ vector: Vector) {
        let date = Date(timeIntervalSince1970: vector.seconds)
        #expect(UTCTimestamp.format(date, .discogs) == vector.discogs)
        #expect(UTCTimestamp.format(date, .iso8601) == vector.discogs.replacingOccurrences(of: " ", with: "T") + "Z")
        #expect(UTCTimestamp.parse(vector.discogs) == Date(timeIntervalSince1970: vector.seconds.rounded(.down)))
    }

    @Test("agrees with Foundation's formatter over 2,000 random instants, and reads back what it writes")
    func oracle() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var generator = SeededGenerator(seed: 0xDA7E)
        for _ in 0..<2_000 {
            // 1900 to 2200.
            let seconds = Double(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            let text = UTCTimestamp.format(date, .discogs)
            #expect(text == formatter.string(from: date))
            #expect(UTCTimestamp.parse(text) == date)
            #expect(UTCTimestamp.parse(UTCTimestamp.format(date, .iso8601)) == date)
        }
    }

    @Test("other spellings it accepts")
    func accepted() {
        #expect(UTCTimestamp.parse("2024-01-31") == UTCTimestamp.parse("2024-01-31 00:00:00"))
        #expect(UTCTimestamp.parse(" 2024-01-31T12:34:56Z ") == Date(timeIntervalSince1970: 1_706_704_496))
        #expect(DiscogsCollectionCSV.dateAdded("2024-01-31 12:34:56") == Date(timeIntervalSince1970: 1_706_704_496))
    }

    @Test("impossible or malformed dates are nil", arguments: [
        "", "2023-02-29 00:00:00", "2024-13-01 00:00:00", "2024-00-10", "2024-04-31", "2024-01-31 24:00:00",
        "2024-01-31 12:60:00", "2024-01-31 12:00:60", "2024/01/31 12:00:00", "24-01-31", "2024-01-31 12:34",
        "２０２４-01-31", "2024-01-31 12:34:56+01:00", "2024-1-31 12:34:56",
    ])
    func rejected(_ text: String) {
        #expect(UTCTimestamp.parse(text) == nil)
    }
}
