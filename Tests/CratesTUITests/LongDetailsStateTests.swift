import CratesCore
import CratesTestSupport
import Foundation
import Testing
@testable import CratesTUI

/// A record's details longer than the screen (a long note, a tracklist, credits): the
/// title counts the lines shown, and the scroll stays within them.
@Suite("Collection UI: long details")
struct LongDetailsStateTests {
    static func details(_ h: Harness) -> AppState.DetailsState? {
        if case .details(let state) = h.state.mode { state } else { nil }
    }

    @Test("a note of 60 lines: the title says 1–N of M and more; G shows the end; j past it and one k")
    func scrollsWithinTheLines() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let note = (1...60).map { "Line \($0) of the provenance, as the shop wrote it on the inner sleeve." }.joined(separator: " ")
        let record = CollectionRecord(
            id: 1, gtin: Fixtures.gtin("5099750442227"), addedAt: date, addMethod: .wedge, note: note, releaseID: 7,
            lookupState: .matched, updatedAt: date)
        var h = Harness(width: 80, height: 24)
        h.type([.enter])
        h.send(.details(RecordDetails(record: record, release: GradingAndSyncTests.homogenic, history: [])))
        let layout = h.state.detailsLayout(try #require(Self.details(h)?.details))
        try #require(layout.lastScroll > 0, "the details fit: nothing to scroll")
        let count = layout.lines.count
        #expect(h.lines[0].hasPrefix(" crates · details 1–\(layout.visible) of \(count)"), "\(h.lines[0])")
        #expect(h.lines[0].hasSuffix("j Space:more Esc:back"), "\(h.lines[0])")
        h.type([.character("G")])
        #expect(Self.details(h)?.scroll == layout.lastScroll)
        #expect(h.lines[0].hasPrefix(" crates · details \(layout.lastScroll + 1)–\(count) of \(count)"), "\(h.lines[0])")
        #expect(h.lines[0].hasSuffix("Esc:back ?:help"), "\(h.lines[0])")
        h.type([.character("j"), .character(" ")])
        #expect(Self.details(h)?.scroll == layout.lastScroll)
        h.type([.character("k")])
        #expect(Self.details(h)?.scroll == layout.lastScroll - 1)
        #expect(h.lines.contains { $0.contains("Line 60 of the provenance") }, "the end shows")
    }
}
