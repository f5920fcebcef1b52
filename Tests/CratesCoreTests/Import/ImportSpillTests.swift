import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// `ImportEntries` keeps a row's extras as bytes in a spill, and reads them back unchanged.
@Suite("import entries: the rows' extras in a spill")
struct ImportSpillTests {
    @Test("every extra comes back as it went in; rows without any take none")
    func roundTrip() throws {
        let entries = try [
            #require(ImportEntry(line: 1, gtin: sampleGTIN(1))),
            #require(ImportEntry(
                line: 2, gtin: sampleGTIN(2), releaseID: 7, note: "a note, ünïcode 🎶", addedAt: Date(timeIntervalSince1970: 1_706_704_496.25),
                location: "Living Room › Shelf 2", grading: CopyGrading(media: .veryGoodPlus, sleeve: .noCover, rating: Rating(clamping: 4)),
                collector: RecordFields(title: "T", genre: "Folk", year: 1975), handEntered: true)),
            #require(ImportEntry(
                line: 3, gtin: nil, described: RecordFields(artist: "A", title: "T", catno: "CAT 1", country: "UK"))),
            #require(ImportEntry(line: 4, gtin: nil, releaseID: 9, note: String(repeating: "x", count: 70_000))),
        ]
        let spill = MemorySpill()
        var stored = ImportEntries(spill: spill)
        for entry in entries { stored.append(entry) }
        #expect(Array(stored) == entries)
        #expect(stored.describedKeyHash(at: 2) == ImportEntries.keyHash(try #require(entries[2].described?.entryKey)))
        #expect(stored.describedKeyHash(at: 0) == nil && stored.gtinValue(at: 2) == 0)
    }

    @Test("two rows describing the same record are two copies; two different ones one each")
    func occurrences() throws {
        let rows = try ["A|T", "B|U", "A|T"].enumerated().map { index, text in
            let parts = text.split(separator: "|").map(String.init)
            return try #require(ImportEntry(line: index + 1, gtin: nil, described: RecordFields(artist: parts[0], title: parts[1])))
        }
        #expect(ImportEntries(rows).occurrences() == [1, 1, 2])
    }
}
