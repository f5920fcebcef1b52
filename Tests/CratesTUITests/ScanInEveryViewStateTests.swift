import CratesCore
import Foundation
import CratesTestSupport
import Testing

@testable import CratesTUI

/// A scan in a view other than the list is handled there: its question shows and is
/// answered where the collector is, rather than waiting, unseen, for the list.
@Suite struct ScanInEveryViewStateTests {
    @Test func aDuplicateScannedInTheStatisticsIsAskedThere() {
        var h = Harness()
        h.type([.character("#")])
        let code = Fixtures.gtin("5099750442227")
        #expect(h.type("5099750442227".map { Key.character($0) } + [.enter], from: 200, interval: 0.01) == [.add(code, method: .wedge)])
        #expect(h.lines[23] == "Adding 5099750442227")
        h.send(.duplicate(code, method: .wedge, copies: 1))
        // Asked on the bottom line of the statistics, not held until Esc.
        #expect(h.lines[23].contains("already have 1 copy: add another? (y/N)"))
        #expect(h.type([.character("y")], from: 300) == [.addCopy(code, method: .wedge)])
        guard case .statistics = h.state.mode else {
            Issue.record("left the statistics")
            return
        }
    }

    @Test func inTheDetailsNSaysNotAddedAndStays() {
        var h = Harness()
        h.type([.enter])
        let code = Fixtures.gtin("5099750442227")
        h.type("5099750442227".map { Key.character($0) } + [.enter], from: 200, interval: 0.01)
        h.send(.duplicate(code, method: .wedge, copies: 2))
        #expect(h.lines[23].contains("already have 2 copies: add another? (y/N)"))
        #expect(h.type([.character("n")], from: 300).isEmpty)
        #expect(h.lines[23] == "Not added: 5099750442227")
        guard case .details = h.state.mode else {
            Issue.record("left the details")
            return
        }
    }
}
