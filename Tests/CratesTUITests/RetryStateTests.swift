import CratesCore
import Testing
@testable import CratesTUI

/// `r` asks for the record's lookup again, and says what will come of it: a lookup now, or,
/// in a run that cannot look anything up, the queue and what it waits for.
@Suite("Collection UI: r, look up again")
struct RetryStateTests {
    @Test("r says looking up when signed in; queued, and why, when not signed in or with --no-lookup")
    func saysWhatComesOfIt() throws {
        let cases: [(DiscogsStatus, String)] = [
            (.notSignedIn, "5099750442227 is queued again: Discogs looks it up once you sign in (A)"),
            (.lookupsOff, "5099750442227 is queued again: lookups are off in this run (--no-lookup)"),
            (.signedIn(username: "DamIDhagor"), "Looking up 5099750442227 again"),
            (.offline, "Looking up 5099750442227 again"),
        ]
        for (status, said) in cases {
            var h = Harness()
            h.send(.discogs(status))
            let id = try #require(h.state.selectedItem?.recordID)
            #expect(h.state.selectedItem?.gtin == "5099750442227")
            #expect(h.type([.character("r")]) == [.session(.retry(id))])
            #expect(h.state.message?.text == said, "\(status)")
        }
    }
}
