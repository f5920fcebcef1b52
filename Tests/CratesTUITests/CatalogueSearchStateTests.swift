import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// The search form (`s`) with a local catalogue, as a value: each keystroke asks the
/// catalogue (never Discogs), its answer shows under the fields, a late answer to an earlier
/// keystroke is dropped, and Enter sends the search itself.
@Suite struct CatalogueSearchStateTests {
    static let june = CatalogueEdition(dumpDate: "20260601")

    /// The catalogue searches `commands` ask for.
    static func asked(_ commands: [AppCommand]) -> [ReleaseSearchQuery] {
        commands.compactMap { if case .session(.searchCatalogue(let query, nil)) = $0 { query } else { nil } }
    }

    @Test func eachKeystrokeAsksTheCatalogueAndItsAnswerShowsUnderTheForm() throws {
        var h = Harness()
        h.send(.catalogue(Self.june))
        h.type([.character("s")])
        var asked: [ReleaseSearchQuery] = []
        for c in "kraf" { asked += Self.asked(h.type([.character(c)])) }
        // "k" alone is a search already (an artist); each keystroke asks again.
        #expect(asked.map(\.artist) == ["k", "kr", "kra", "kraf"])
        #expect(!h.commands.contains { if case .session(.search) = $0 { true } else { false } }, "no Discogs search while typing")

        let found = [
            ReleaseCandidate(releaseID: 1, artist: "Kraftwerk", title: "Trans Europa Express", country: "Germany", year: 1977, catno: "1C 064-82 306"),
            ReleaseCandidate(releaseID: 2, artist: "Kraftwerk", title: "Autobahn", year: 1974),
        ]
        // An answer to an earlier keystroke, come late: dropped.
        h.send(.found(ReleaseSearchAnswer(
            recordID: nil, query: asked[1], candidates: found, requests: 0, catalogue: Self.june, preview: true)))
        #expect(!h.lines.joined(separator: "\n").contains("in the catalogue of"))
        h.send(.found(ReleaseSearchAnswer(
            recordID: nil, query: asked[3], candidates: found, requests: 0, catalogue: Self.june, preview: true)))
        let screen = h.lines.joined(separator: "\n")
        #expect(screen.contains("2 in the catalogue of 2026-06-01: Enter to choose"), "\(screen)")
        #expect(screen.contains("Kraftwerk — Trans Europa Express  (1C 064-82 306, 1977, Germany)"), "\(screen)")

        // Enter sends the search itself (the session asks the catalogue first).
        let sent = h.type([.enter])
        #expect(sent.contains { if case .session(.search(let query, nil)) = $0 { query.artist == "kraf" } else { false } })
    }

    @Test func nothingInTheCatalogueSaysEnterAsksDiscogs() throws {
        var h = Harness()
        h.send(.catalogue(Self.june))
        h.type([.character("s")])
        let query = try #require(Self.asked(h.type([.character("z")])).last)
        h.send(.found(ReleaseSearchAnswer(recordID: nil, query: query, candidates: [], requests: 0, catalogue: Self.june, preview: true)))
        #expect(h.lines.joined(separator: "\n").contains("Nothing in the catalogue of 2026-06-01: Enter asks Discogs"))
    }

    @Test func withoutACatalogueTypingAsksNothing() {
        var h = Harness()
        h.type([.character("s")])
        #expect(h.type("kraftwerk").isEmpty)
    }
}
