import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// `ImportEntries` keeps a row's extras as bytes in a spill, and reads them back unchanged.
@Suite("import entries: the rows' extras in a spill")
struct ImportSpillTests {
    @Test("every extra comes back as it went in; rows without any take none")
    func roundTrip() throws {
        var entries = try [
            #require(ImportEntry(line: 1, gtin: Fixtures.gtin(1))),
            #require(ImportEntry(
                line: 2, gtin: Fixtures.gtin(2), releaseID: 7, note: "a note, ünïcode 🎶", addedAt: Date(timeIntervalSince1970: 1_706_704_496.25),
                location: "Living Room › Shelf 2", grading: CopyGrading(media: .veryGoodPlus, sleeve: .noCover, rating: Rating(clamping: 4)),
                collector: RecordFields(title: "T", genre: "Folk", year: 1975), handEntered: true)),
            #require(ImportEntry(
                line: 3, gtin: nil, described: RecordFields(artist: "A", title: "T", catno: "CAT 1", country: "UK"))),
            #require(ImportEntry(line: 4, gtin: nil, releaseID: 9, note: String(repeating: "x", count: 70_000))),
        ]
        // What was paid and the loan: with a rating, and alone (the rating's byte flags them).
        var paid = try #require(ImportEntry(line: 5, gtin: Fixtures.gtin(5), grading: CopyGrading(rating: Rating(clamping: 5))))
        paid.purchase = Purchase(price: MoneyAmount.parse("12.50"), currency: "GBP", date: "2026-11-20", from: "Spitalfields fair")
        paid.loan = Loan(to: "Anna", since: "2026-11-21", returned: nil)
        var lent = try #require(ImportEntry(line: 6, gtin: Fixtures.gtin(6)))
        lent.loan = Loan(to: "Bo", since: nil, returned: "2026-12-01")
        var bought = try #require(ImportEntry(line: 7, gtin: Fixtures.gtin(7)))
        bought.purchase = Purchase(from: "a fair")
        entries += [paid, lent, bought]
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
