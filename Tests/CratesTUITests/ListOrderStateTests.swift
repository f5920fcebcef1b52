import CratesCore
import CratesTestSupport
import Foundation
import Testing
@testable import CratesTUI

/// Issue items on the list: its orders, the pressings' columns, undo as a stack, the
/// barcode as printed, and the details view's wrapping.
@Suite struct ListOrderStateTests {
    @Test("O cycles the orders: in the title bar, asked of the store, remembered")
    func oCyclesTheOrders() {
        var h = Harness()
        #expect(h.lines[0].hasPrefix(" crates · by artist"))
        var seen: [ListOrder] = []
        for _ in ListOrder.allCases {
            let commands = h.type([.character("O")])
            guard case .rememberOrder(let order) = commands.first else {
                Issue.record("no rememberOrder in \(commands)")
                return
            }
            seen.append(order)
            #expect(h.state.list.order == order, "the window answers the new order")
            #expect(h.lines[0].hasPrefix(" crates · by \(order.rawValue)"))
        }
        #expect(seen == [.title, .year, .added, .label, .place, .artist])
        // The remembered order is where a new UI starts.
        let started = AppState(width: 80, height: 24, order: .year)
        #expect(started.order == .year)
    }

    @Test("u undoes the session's deletes, moves and edits one by one, last first")
    func undoIsAStack() {
        var h = Harness()
        h.send(.deleted(count: 1, undo: 7))
        h.send(.deleted(count: 1, undo: 8))
        h.send(.moved(count: 2, to: nil, undo: 9))
        h.send(.edited(text: "Saved Björk — Homogenic: year 1997", undo: 10))
        #expect(h.lines[23].hasPrefix("Saved Björk — Homogenic: year 1997"))
        #expect(h.type([.character("u")]) == [.undo(10)])
        #expect(h.type([.character("u")]) == [.undo(9)])
        #expect(h.type([.character("u")]) == [.undo(8)])
        #expect(h.type([.character("u")]) == [.undo(7)])
        #expect(h.type([.character("u")]).isEmpty)
        #expect(h.lines[23] == "Nothing to undo")
    }

    static let rumours = MemoryCollection(sections: [
        ("Rock", [
            Sample.item(1, "0075992731325", artist: "Fleetwood Mac", title: "Rumours", format: "Vinyl, LP, Album", year: 1977, country: "UK", catno: "K 56344"),
            Sample.item(2, "0075992731326", artist: "Fleetwood Mac", title: "Rumours", format: "Vinyl, LP, Album", year: 1977, country: "US", catno: "BSK 3010"),
        ]),
        ("Unknown", [Sample.item(3, "0074644022513", state: .pending)]),
    ])

    @Test("two pressings are told apart: catalogue number from 80 columns, country from 100")
    func pressingsToldApart() {
        let narrow = Harness(Self.rumours, width: 60, height: 12).lines
        #expect(narrow[2].hasSuffix("Vinyl, LP, … 1977"))
        let eighty = Harness(Self.rumours, width: 80, height: 12).lines
        #expect(eighty[2].hasSuffix("Vinyl, LP… 1977 K 56344"))
        #expect(eighty[3].hasSuffix("Vinyl, LP… 1977 BSK 3010"))
        #expect(eighty[2].hasPrefix("  Fleetwood Mac — Rumours "))
        let wide = Harness(Self.rumours, width: 110, height: 12).lines
        #expect(wide[2].hasSuffix("Vinyl, LP, Album 1977 UK         K 56344"))
        #expect(wide[3].hasSuffix("Vinyl, LP, Album 1977 US         BSK 3010"))
    }

    @Test("a UPC-A shows as its sleeve prints it, in the list and the details")
    func upcAAsPrinted() {
        var h = Harness(Self.rumours, width: 80, height: 12)
        #expect(h.lines[5] == "  0 74644 02251 3  waits for Discogs")
        h.type([.character("G"), .enter])
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let record = CollectionRecord(
            id: 3, gtin: Fixtures.gtin("0074644022513"), addedAt: date, addMethod: .wedge, lookupState: .pending, updatedAt: date)
        h.send(.details(RecordDetails(record: record, release: nil, history: [])))
        #expect(h.lines[1] == " 0 74644 02251 3")
        #expect(h.lines.contains { $0.contains("Barcode      0 74644 02251 3 (UPC-A") })
    }

    @Test("the details view wraps a long title instead of cutting it")
    func detailsWrap() {
        var h = Harness(width: 60, height: 20)
        h.type([.enter])
        let release = Release(
            id: 7, artist: "The Kilimanjaro Darkjazz Ensemble",
            title: "Here Be Dragons: Live Recordings From The Old Cinema, Amsterdam, Autumn Of Two Thousand And Nine",
            genres: ["Jazz"], styles: [], formats: ["Vinyl, LP"], year: 2009, country: "Netherlands", labels: [],
            url: nil, thumbURL: nil, rawJSON: "{}")
        h.send(.details(AppStateTests.details(id: 1, state: .matched, release: release)))
        let screen = h.lines
        #expect(!screen.contains { $0.contains("…") })
        let title = screen.drop { !$0.hasPrefix(" Title") }.prefix(3)
        #expect(title.first == " Title        Here Be Dragons: Live Recordings From The Old")
        #expect(Array(title.dropFirst()) == ["              Cinema, Amsterdam, Autumn Of Two Thousand And", "              Nine"])
    }
}

/// `R` turns the order round and `F` lays the list out flat: the title bar says so, the store
/// is asked for it, the selection stays on its record, and neither is written to the
/// configuration (they last the session).
@Suite struct ListArrangementStateTests {
    @Test("R reverses the rows of each section and says so in the title bar")
    func rReverses() {
        var h = Harness()
        h.type([.down])
        #expect(h.state.selectedRecord == 2)
        #expect(h.lines[2].contains("Björk") && h.lines[3].contains("Massive Attack"))
        let commands = h.type([.character("R")])
        #expect(commands.isEmpty, "nothing remembered: \(commands)")
        #expect(h.state.descending && h.state.list.descending)
        #expect(h.lines[0].hasPrefix(" crates · by artist ↓ "))
        // The sections stay in their order; the rows in each turn round.
        #expect(h.lines[1].hasPrefix(" Electronic"))
        #expect(h.lines[2].contains("Massive Attack") && h.lines[3].contains("Björk"))
        #expect(h.state.selectedRecord == 2)
        #expect(h.state.selectedItem?.recordID == 2, "the selection followed its record")
        #expect(h.lines[23].hasPrefix("Sorted by artist ↓ (R again: ascending)"))
        // The order changed too: still round; and R again puts it back.
        h.type([.character("O")])
        #expect(h.lines[0].hasPrefix(" crates · by title ↓ "))
        h.type([.character("R")])
        #expect(h.lines[0].hasPrefix(" crates · by title "))
        #expect(!h.state.list.descending)
        #expect(h.lines[2].contains("Björk"))
    }

    @Test("F shows one list without genre sections; section keys say there are none")
    func fFlattens() {
        var h = Harness()
        h.type([.character("G")])
        let last = h.state.selectedRecord
        #expect(h.type([.character("F")]).isEmpty)
        #expect(h.state.flat && h.state.list.flat)
        #expect(h.lines[0].hasPrefix(" crates · by artist, flat "))
        #expect(h.lines[1] == " \(CollectionOutline.flatName) (6)")
        #expect(!h.lines.contains { $0.hasPrefix(" Electronic") || $0.hasPrefix(" Unknown") })
        #expect(h.state.list.sections.count == 1 && h.state.list.rowCount == 6)
        #expect(h.state.selectedRecord == last)
        h.type([.character("]")])
        #expect(h.state.selectedRecord == last)
        #expect(h.lines[23].hasPrefix("No genre sections in a flat list"))
        // Both at once, and through the filter: the store is asked for each.
        h.type([.character("R")])
        #expect(h.lines[0].hasPrefix(" crates · by artist ↓, flat "))
        h.type("/mezz")
        h.type([.enter])
        #expect(h.state.list.filter == "mezz" && h.state.list.flat && h.state.list.descending)
        #expect(h.lines[0].hasPrefix(" crates · by artist ↓, flat · filter \"mezz\": 1 found"))
        h.type([.escape])
        h.type([.character("F")])
        #expect(h.lines[1].hasPrefix(" Electronic"))
        #expect(h.lines[23].hasPrefix("In genre sections, by artist ↓"))
    }

    @Test("reversed and flat, 500 records: G reaches the last, a scan is selected where it lands")
    func largeListReversedAndFlat() throws {
        var h = Harness(Sample.large(500, perSection: 50))
        h.type([.character("R"), .character("F")])
        #expect(h.state.list.sections.count == 1 && h.state.list.rowCount == 500)
        h.type([.character("G")])
        let last = try #require(h.store.sections.last?.items.first?.recordID)
        #expect(h.state.selectedItem?.recordID == last, "the last section's first record, turned round")
        h.type([.pageUp, .pageUp, .character("g")])
        #expect(h.state.selectedItem?.recordID == h.store.sections.first?.items.last?.recordID)
        h.store.sections[h.store.sections.count - 1].items.append(Sample.item(501, "5029141777638", artist: "Zed", title: "Last"))
        h.send(.added(recordID: 501))
        #expect(h.state.selectedItem?.recordID == 501)
        #expect(h.state.selectedLine == 1 + 450, "below the one heading, first of its section turned round")
    }

    @Test("the help lists R and F")
    func helpListsThem() {
        let lines = HelpText.lines(width: 100).map(\.text).joined(separator: "\n")
        #expect(lines.contains("reverse the order"))
        #expect(lines.contains("flat: one list in the order"))
    }
}
