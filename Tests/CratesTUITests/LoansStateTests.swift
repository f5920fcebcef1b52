import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// The loans view (`B`): who has the collector's records, since when, and which.
@Suite struct LoansStateTests {
    static let listings = LoanListing.ordered([
        LoanListing(recordID: 2, title: "Massive Attack — Mezzanine", loan: Loan(to: "Tom", since: "2026-10-02")),
        LoanListing(recordID: 1, title: "Björk — Homogenic", loan: Loan(to: "anna", since: "2026-11-20")),
        LoanListing(recordID: 3, title: "坂本龍一 — 音楽図鑑", loan: Loan(to: "Ánna", since: "2026-09-01")),
    ])

    @Test func orderedByBorrowerThenTheLongestOut() {
        #expect(Self.listings.map(\.recordID) == [3, 1, 2])
        #expect(Self.listings[0].timeOut(today: "2026-09-02") == "1 day")
        #expect(Self.listings[0].timeOut(today: "2026-09-01") == "today")
        #expect(Self.listings[1].timeOut(today: "2026-11-28") == "8 days")
    }

    @Test func bListsTheCopiesOutAndEnterOpensOne() {
        var h = Harness()
        #expect(h.type([.character("B")]) == [.session(.loadLoans)])
        #expect(h.screen.text.contains("Loading…"))
        h.send(.loans(Self.listings))
        let text = h.screen.text
        #expect(text.contains("crates · loans"))
        #expect(text.contains("3 copies out with 2 people"))
        #expect(text.contains("Lent to") && text.contains("Since") && text.contains("Record"))
        #expect(text.contains("Tom") && text.contains("2026-10-02") && text.contains("Massive Attack — Mezzanine"))
        h.type([.down])
        #expect(h.type([.enter]) == [.loadDetails(1)])
        guard case .details(let details) = h.state.mode else {
            Issue.record("no details")
            return
        }
        #expect(details.recordID == 1)
    }

    @Test func nothingOutSaysHowToLend() {
        var h = Harness()
        h.type([.character("B")])
        h.send(.loans([]))
        #expect(h.screen.text.contains("Nothing is out on loan."))
        h.type([.escape])
        #expect(h.state.mode == .list)
    }

    @Test func theHelpNamesTheKey() {
        #expect(KeyMap.action(for: .character("B"), in: .list) == .loans)
    }
}
