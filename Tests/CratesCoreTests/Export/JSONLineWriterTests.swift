import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// The hand-written JSON line of `export --json` (issue 12, item 8: JSONEncoder took three
/// quarters of the export) is byte for byte what JSONEncoder writes, whatever the text.
@Suite(.offThePool) struct JSONLineWriterTests {
    private func expectSame(_ entry: ExportedRecord, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let encoder = ExportedRecord.makeJSONEncoder()
        for discogs in [false, true] {
            let fast = try entry.jsonLine(includeDiscogs: discogs, encoder: encoder)
            let reference = try entry.encodedJSONLine(includeDiscogs: discogs, encoder: encoder)
            #expect(fast == reference, sourceLocation: sourceLocation)
        }
    }

    @Test func theSamplesAsJSONEncoderWritesThem() throws {
        try expectSame(ExportSample.matched)
        try expectSame(ExportSample.unmatched)
        var withHistory = ExportSample.matched
        withHistory.history = [
            LookupEvent(id: 1, recordID: 7, at: ExportSample.addedAt, kind: .matched, message: "release 249504: \"Déjà\" Vu"),
        ]
        try expectSame(withHistory)
        var damaged = ExportSample.matched
        damaged.release?.rawJSON = "{\"tracklist\": [1, 2, ]}"
        try expectSame(damaged)
        // What was paid and who has it: prices with 0 to 4 decimals, a loan out and one back.
        for (price, loan) in [("12.50", Loan(to: "Anna", since: "2026-11-20")), ("3", Loan(to: "Bo", since: nil, returned: "2026-12-01")),
                              ("0.1234", nil), ("1000", Loan(to: "\"Ç\"/\u{7}"))] as [(String, Loan?)] {
            var paid = ExportSample.matched
            paid.record.purchase = Purchase(price: MoneyAmount.parse(price), currency: "GBP", date: "2026-11-20", from: "Spitalfields fair")
            paid.record.loan = loan
            try expectSame(paid)
        }
        var partly = ExportSample.unmatched
        partly.record.purchase = Purchase(from: "a shop")
        try expectSame(partly)
    }

    /// Every control character, quotes, backslashes, slashes, DEL, and text beyond ASCII, in
    /// every string field, seeded.
    @Test func everyCharacterIsEscapedAsJSONEncoderDoes() throws {
        var generator = SeededGenerator(seed: 8)
        let alphabet: [String] = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
            + ["é", "坂本", "🎶", "\u{2028}", "\u{FEFF}", "\u{85}", "\u{9F}", "/", "\\/", "\"", "\\"]
        func text() -> String {
            (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
        }
        for _ in 0..<300 {
            var entry = Bool.random(using: &generator) ? ExportSample.matched : ExportSample.unmatched
            entry.record.note = text()
            entry.record.location = Bool.random(using: &generator)
                ? nil
                : Location(id: Int64.random(in: 1...999, using: &generator), name: text(), ancestors: [text(), text()])
            entry.record.gtin = Bool.random(using: &generator) ? nil : entry.record.gtin
            entry.record.collector = Bool.random(using: &generator)
                ? RecordFields()
                : RecordFields(artist: text(), title: text(), catno: text())
            entry.record.lookupError = text()
            entry.record.skipReason = text()
            entry.section = text()
            entry.record.candidates = entry.record.candidates.map { candidate in
                var c = candidate
                c.artist = text()
                c.label = text()
                c.formats = [text(), text()]
                return c
            }
            entry.release?.artist = text()
            entry.release?.title = text()
            entry.release?.genres = [text()]
            entry.release?.labels = [.init(name: text(), catno: text())]
            entry.release?.url = text()
            // The copy's grading and its Discogs instance (issue 16's members).
            entry.record.grading = Bool.random(using: &generator)
                ? .none
                : CopyGrading(
                    media: MediaCondition.allCases.randomElement(using: &generator),
                    sleeve: SleeveCondition.allCases.randomElement(using: &generator),
                    rating: Rating(clamping: Int.random(in: 0...5, using: &generator)))
            entry.discogs = Bool.random(using: &generator)
                ? nil
                : DiscogsCopyLink(
                    instanceID: Int64.random(in: 1...5_000_000_000, using: &generator), releaseID: 249504,
                    folderID: Int.random(in: 0...9, using: &generator), folderName: Bool.random(using: &generator) ? nil : text(),
                    removedOnDiscogs: Bool.random(using: &generator))
            entry.history = Bool.random(using: &generator)
                ? [LookupEvent(id: 1, recordID: 7, at: ExportSample.addedAt, kind: .failed, message: text())] : nil
            try expectSame(entry)
        }
    }
}
