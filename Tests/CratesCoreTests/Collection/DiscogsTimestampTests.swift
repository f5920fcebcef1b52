import CratesCore
import Foundation
import Testing

/// `date_added` as Discogs writes it, with Foundation's ISO 8601 parser as the oracle.
@Suite struct DiscogsTimestampTests {
    @Test func offsetsAreApplied() throws {
        let oracle = ISO8601DateFormatter()
        for text in [
            "2022-07-28T04:28:27-07:00", "2015-11-30T10:54:13-08:00", "2016-07-27T08:11:29-07:00",
            "2020-01-01T00:00:00Z", "2019-12-31T23:30:00+05:30", "2024-02-29T12:00:00+00:00",
        ] {
            #expect(DiscogsTimestamp.parse(text) == oracle.date(from: text), "\(text)")
        }
        #expect(DiscogsTimestamp.parse("2022-07-28T04:28:27-07:00") == UTCTimestamp.parse("2022-07-28 11:28:27"))
        #expect(DiscogsTimestamp.parse("2022-07-28T04:28:27-0700") == UTCTimestamp.parse("2022-07-28 11:28:27"))
        #expect(DiscogsTimestamp.parse("2022-07-28T04:28:27.123-07:00") == UTCTimestamp.parse("2022-07-28 11:28:27"))
    }

    @Test func malformedIsNil() {
        for text in ["", "2022-07-28", "2022-07-28T04:28:27", "2022-07-28T04:28:27-7:00", "2022-02-30T00:00:00Z",
                     "2022-07-28T04:28:27+25:00", "2022-07-28T04:28:27.-07:00", "yesterday", "2022-07-28T04:28:27-07:00 "] {
            #expect(DiscogsTimestamp.parse(text) == nil, "\(text)")
        }
    }
}
