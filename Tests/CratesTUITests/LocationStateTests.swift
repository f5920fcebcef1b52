import CratesCore
import CratesTestSupport
import Foundation
import Testing
@testable import CratesTUI

/// Places in the collection UI, as a value: a scanned label goes to the session, the current
/// place shows on the status line and narrows the list, Esc leaves it after the filter, the
/// move question takes Enter for yes, `L` shows the tree.
@Suite("Collection UI: places")
struct LocationStateTests {
    static let crate = Location(id: 5, name: "Crate A3", parentID: 4, ancestors: ["Living Room", "Shelf 2"])
    static let other = Location(id: 3, name: "Crate A1", parentID: 2, ancestors: ["Living Room", "Shelf 1"])

    static func scan(_ h: inout Harness, _ code: String, from start: Double = 100) -> [AppCommand] {
        h.type(code.map { Key.character($0) } + [.enter], from: start, interval: 0.01)
    }

    @Test("a scanned label goes to the session as a label, never as a record; a mistyped one says which was meant")
    func labels() throws {
        var h = Harness()
        let code = try #require(Self.crate.code)
        #expect(Self.scan(&h, "2900000000056") == [.session(.add(.label(code), method: .wedge))])
        #expect(h.state.message == nil, "nothing said before the session answers")
        #expect(Self.scan(&h, "2900000000057", from: 200) == [.bell])
        #expect(h.state.prompt?.error == "looks like crates location label 5, but its check digit should be 6, got 7: "
            + "a misread or a typo (read as EAN-13)")
        // A QR code from the camera holding a copy's label.
        h.send(.key(.escape, at: 300))
        let copy = try #require(LabelCode(kind: .copy, id: 2))
        let commands = h.send(.cameraScan(ScanEvent(symbology: .qrCode, data: "2910000000024", at: Date(timeIntervalSince1970: 0))))
        #expect(commands == [.session(.add(.label(copy), method: .camera))])
    }

    @Test("the current place: on the status line and in the title, the list narrowed to it; Esc clears the filter, then leaves it")
    func currentPlace() {
        var store = Sample.collection
        store.places = [1: 5, 3: 5]
        var h = Harness(store, width: 100)
        h.send(.location(Self.crate))
        #expect(h.lines[22].hasPrefix(" → Crate A3 (Living Room › Shelf 2) · 6 records"))
        #expect(h.lines[0].hasPrefix(" crates · in Crate A3: 2 records"))
        #expect(h.state.list.rows.map(\.recordID) == [1, 3])
        h.send(.key(.character("/"), at: 100))
        h.type("bj", from: 101)
        h.send(.key(.enter, at: 102))
        #expect(h.state.list.rows.map(\.recordID) == [1])
        #expect(h.send(.key(.escape, at: 103)).isEmpty, "the first Esc clears the filter")
        #expect(h.state.filter.isEmpty && h.state.location == Self.crate)
        #expect(h.send(.key(.escape, at: 104)) == [.session(.setLocation(nil))])
        #expect(h.state.location == nil && h.state.list.rows.count == 6)
        #expect(!h.lines[22].contains("→"))
        // Narrow: the place keeps its name, in its short form.
        var narrow = Harness(store, width: 40)
        narrow.send(.location(Self.crate))
        // The status line sits above the message, which wraps at this width.
        #expect(narrow.lines[23 - narrow.state.bottomRows].hasPrefix(" → Crate A3 · 6 rec"), "\(narrow.lines)")
        #expect(narrow.state.bottomRows > 1)
    }

    @Test("the move question: Y by default on Enter, c for another copy, n keeps it where it is; the move undoes with u")
    func moveQuestion() throws {
        var h = Harness()
        h.send(.location(Self.crate))
        let gtin = Fixtures.gtin("5099750442227")
        let question = AddQuestion(
            entry: .barcode(gtin), gtin: gtin, method: .wedge,
            kind: .moveHere(MoveHere(recordID: 1, title: "Björk — Homogenic", from: Self.other, to: Self.crate, copies: 1)),
            allowing: [])
        h.send(.ask(question))
        #expect(h.lines[23] == "Björk — Homogenic, in Crate A1: move it here? (Y/n, c: another copy)")
        #expect(h.send(.key(.enter, at: 100)) == [.session(.move([1], to: 5))])
        h.send(.ask(question))
        #expect(h.send(.key(.character("c"), at: 101)) == [.addCopy(gtin, method: .wedge)])
        h.send(.ask(question))
        #expect(h.send(.key(.character("n"), at: 102)).isEmpty)
        #expect(h.lines[23] == "Not moved: Björk — Homogenic stays in Crate A1")
        // c means nothing to another copy's question: it stays asked.
        h.send(.duplicate(gtin, method: .wedge, copies: 1))
        #expect(h.send(.key(.character("c"), at: 103)).isEmpty)
        #expect(h.state.questions.count == 1)
        #expect(h.send(.key(.enter, at: 104)).isEmpty, "Enter is no to another copy")

        h.send(.moved(count: 1, to: Self.crate, undo: 7))
        #expect(h.lines[23] == "Moved to Crate A3: u to undo")
        #expect(h.send(.key(.character("u"), at: 105)) == [.undo(7)])
    }

    @Test("L shows the tree with counts; Enter makes the place current; Esc goes back")
    func tree() {
        var h = Harness()
        #expect(h.send(.key(.character("L"), at: 100)) == [.session(.loadLocations)])
        #expect(h.lines[0].hasPrefix(" crates · places"))
        let tree = LocationTree([
            .init(id: 1, name: "Living Room", parentID: nil),
            .init(id: 4, name: "Shelf 2", parentID: 1, count: 1),
            .init(id: 5, name: "Crate A3", parentID: 4, count: 2),
            .init(id: 2, name: "Shelf 1", parentID: 1),
        ])
        h.send(.locations(tree))
        let lines = h.lines
        #expect(lines[2].hasPrefix("    Living Room") && lines[2].hasSuffix(" 3") && lines[2].count == 79)
        #expect(lines[3].hasPrefix("      Shelf 1") && lines[3].hasSuffix(" 0"))
        #expect(lines[4].hasPrefix("      Shelf 2") && lines[4].hasSuffix(" 3"))
        #expect(lines[5].hasPrefix("        Crate A3") && lines[5].hasSuffix(" 2"))
        h.type("jjj", from: 101)
        #expect(h.send(.key(.enter, at: 110)) == [.session(.setLocation(5))])
        #expect(h.state.mode == .list)
        #expect(h.state.location == Self.crate)
        // Back in the tree, the current place is marked and selected.
        h.send(.key(.character("L"), at: 111))
        h.send(.locations(tree))
        #expect(h.lines[5].hasPrefix("  →     Crate A3"))
        #expect(h.send(.key(.escape, at: 112)).isEmpty)
        #expect(h.state.mode == .list && h.state.location == Self.crate)
        // No places at all says how to make one.
        h.send(.key(.character("L"), at: 113))
        h.send(.locations(.empty))
        #expect(h.lines[2].contains("No places yet."))
    }

    @Test("a copy's label selects its record; the details show the place and the copy's label")
    func selectAndDetails() {
        var h = Harness()
        h.send(.select(recordID: 3))
        #expect(h.state.selectedItem?.recordID == 3)
        h.send(.key(.enter, at: 100))
        var details = AppStateTests.details(id: 3, state: .pending)
        details.record.location = Self.crate
        h.send(.details(details))
        let text = h.lines.joined(separator: "\n")
        #expect(text.contains("Location     Crate A3 (Living Room › Shelf 2)"))
        #expect(text.contains("Copy label   2910000000031"))
    }
}
