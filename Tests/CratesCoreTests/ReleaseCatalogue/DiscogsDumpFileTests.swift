import CratesCore
import Foundation
import Testing

/// The names and checksums of Discogs' monthly dump files.
@Suite("Discogs dump files")
struct DiscogsDumpFileTests {
    @Test("a dump date: YYYYMMDD only, a real calendar date; the month before crosses a year")
    func dates() throws {
        let june = try #require(DiscogsDumpDate(digits: "20260601"))
        #expect(june.description == "2026-06-01")
        #expect(june.releasesFileName == "discogs_20260601_releases.xml.gz")
        #expect(june.checksumFileName == "discogs_20260601_CHECKSUM.txt")
        #expect(june.monthBefore.digits == "20260501")
        #expect(DiscogsDumpDate(digits: "20260101")?.monthBefore.digits == "20251201")
        for bad in ["2026-06-01", "20261301", "20260230", "2026060", "202606011", "２０２６０６０１", "", "19990101"] {
            #expect(DiscogsDumpDate(digits: bad) == nil, "\(bad)")
        }
        #expect(DiscogsDumpDate(digits: "20240229") != nil)
        // A dump is dated when Discogs made it: never after today (UTC).
        let now = Date(timeIntervalSince1970: 1_796_083_140)
        #expect(DiscogsDumpDate(digits: "20261130")?.isAfterToday(now: now) == false)
        #expect(DiscogsDumpDate(digits: "20261201")?.isAfterToday(now: now) == true)
        #expect(DiscogsDumpDate(digits: "20990101")?.isAfterToday(now: Date()) == true)
        // 2026-11-30 23:59 UTC is still November's, whatever the local zone.
        #expect(DiscogsDumpDate.firstOfMonth(containing: Date(timeIntervalSince1970: 1_796_083_140)).digits == "20261101")
    }

    @Test("a checksum file: a space (or sha256sum's two, or a tab) between hash and name, lines in any order, other lines skipped")
    func checksums() {
        let releases = String(repeating: "ab", count: 32)
        let text = """
            \(String(repeating: "1", count: 64)) discogs_20260601_masters.xml.gz
            \(releases.uppercased()) discogs_20260601_releases.xml.gz
            not a line of checksums
            \(String(repeating: "2", count: 63)) discogs_20260601_images.xml.gz
            \(String(repeating: "3", count: 64))  *discogs_20260601_artists.xml.gz\r
            \(String(repeating: "4", count: 64))\tdiscogs_20260601_labels.xml.gz
            \(String(repeating: "5", count: 64)) \t discogs_20260601_extra.xml.gz\t
            """
        let checksums = DiscogsDumpChecksums(text: text)
        #expect(checksums.sha256(of: "discogs_20260601_releases.xml.gz") == releases)
        #expect(checksums.sha256(of: "discogs_20260601_artists.xml.gz") == String(repeating: "3", count: 64), "sha256sum's form too")
        #expect(checksums.sha256(of: "discogs_20260601_labels.xml.gz") == String(repeating: "4", count: 64), "a tab between them")
        #expect(checksums.sha256(of: "discogs_20260601_extra.xml.gz") == String(repeating: "5", count: 64), "blanks and tabs")
        #expect(checksums.sha256(of: "discogs_20260601_masters.xml.gz") == String(repeating: "1", count: 64))
        #expect(checksums.sha256(of: "discogs_20260601_images.xml.gz") == nil, "63 digits is no SHA-256")
        #expect(DiscogsDumpChecksums(text: "<html><body>Not Found</body></html>").digests.isEmpty)
    }
}
