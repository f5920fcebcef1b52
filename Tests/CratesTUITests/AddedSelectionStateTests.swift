import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// The selection follows a record just added, even when a window asked for before it (the
/// store's observation, still on the old focus) comes first: that window must not put the
/// focus back on the row the selection was on.
@Suite struct AddedSelectionStateTests {
    @Test func aStaleWindowDoesNotTakeTheSelectionBackFromTheNewScan() {
        var h = Harness(Sample.large(500, perSection: 50))
        #expect(h.state.selectedItem?.recordID == 1)
        let last = h.store.sections.count - 1
        h.store.sections[last].items.append(Sample.item(501, "5029141777638", artist: "Zed", title: "Last"))
        // The session says it was added; the query this asks for is not answered yet.
        let asked = h.state.handle(.session(.added(recordID: 501)))
        let query = asked.compactMap(\.query).first
        #expect(query?.focus == 501)
        // The observation's window for the old query (focus on record 1) comes first, then a
        // key (`n` to a question, say).
        let stale = h.store.answer(CollectionQuery(window: RowWindow(offset: 0, limit: 100), focus: 1))
        var sent = h.state.handle(.session(.window(stale)))
        sent += h.state.handle(.key(.character("n"), at: 500))
        #expect(!sent.contains(.session(.focus(1))), "the focus went back to the old row: \(sent)")
        #expect(h.state.selectedRecord == 501)
        // The answer to the query with the new focus selects the new record.
        if let query { h.send(.window(h.store.answer(query))) }
        #expect(h.state.selectedItem?.recordID == 501)
    }
}
