import CratesCore
import CratesTestSupport
import Foundation
import Testing

@Suite struct ImportDateTests {
    @Test("accepted forms", arguments: [
        ("2024-05-01 12:34:56", 1_714_566_896.0),
        ("2024-05-01T12:34:56Z", 1_714_566_896.0),
        ("2024-05-01T12:34:56.250Z", 1_714_566_896.25),
        ("2024-05-01T14:34:56+02:00", 1_714_566_896.0),
        ("2024-05-01T07:34:56-0500", 1_714_566_896.0),
        ("2024-05-01", 1_714_521_600.0),
        ("  2024-05-01 12:34  ", 1_714_566_840.0),
        ("1970-01-01 00:00:00", 0),
        ("2000-02-29", 951_782_400.0),
        ("1969-12-31 23:59:59", -1),
    ])
    func parses(_ text: String, _ seconds: Double) {
        #expect(ImportDate.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test("refused", arguments: [
        "", "yesterday", "2024-13-01", "2023-02-29", "2024-04-31", "2024-05-01 25:00:00", "2024-05-01 12:60",
        "01/05/2024", "2024-05-01T12:34:56Zjunk", "2024-05-01 12:34:56 +02:00", "2024-5-1",
    ])
    func refuses(_ text: String) {
        #expect(ImportDate.parse(text) == nil)
    }

    /// crates' export writes `Date Added` as UTC seconds; reading it back gives the instant.
    @Test func roundTripsWholeSeconds() throws {
        var generator = SeededGenerator(seed: 6)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withSpaceBetweenDateAndTime, .withTime, .withColonSeparatorInTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        for _ in 0..<200 {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000, using: &generator)))
            let text = formatter.string(from: date)
            #expect(ImportDate.parse(text) == date, "\(text)")
        }
    }
}
