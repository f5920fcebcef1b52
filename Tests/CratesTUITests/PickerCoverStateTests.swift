import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesTUI

/// Covers in the pressing picker, beside each pressing, as the UI core asks for and draws them
/// (the session's answers given by hand): the page's only, the highlighted one last (the
/// session fetches the latest asked first), none when off or without room.
@Suite struct PickerCoverStateTests {
    private func harness(width: Int = 100, height: Int = 40, covers: Bool = true) -> Harness {
        Harness.withCovers(width: width, height: height, covers: covers)
    }

    /// Twelve pressings of one barcode, each with its cover's address from the search.
    private static let pressings = (1...12).map { n in
        ReleaseCandidate(
            releaseID: 100 + n, artist: "Fleetwood Mac", title: "Rumours", country: n % 2 == 0 ? "US" : "UK", year: 1976 + n,
            formats: ["Vinyl"], label: "Warner", catno: "K \(56_340 + n)", coverURL: "https://i.discogs.com/R-\(100 + n).jpeg")
    }

    private static func details(_ candidates: [ReleaseCandidate]) -> RecordDetails {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let record = CollectionRecord(
            id: 5, gtin: Fixtures.gtin("5012345678900"), addedAt: date, addMethod: .wedge, lookupState: .ambiguous,
            candidates: candidates, updatedAt: date)
        return RecordDetails(record: record, release: nil, history: [])
    }

    private static func subject(_ n: Int) -> CoverRequest.Subject {
        .release(pressings[n].releaseID, url: pressings[n].coverURL)
    }

    private func asked(_ commands: [AppCommand]) -> [CoverRequest] {
        commands.compactMap { command in
            if case .session(.cover(let request)) = command { return request }
            return nil
        }
    }

    /// Opens record 5's picker (ambiguous: its candidates come from the store) and returns the
    /// commands its candidates' arrival gave.
    private func openPicker(_ h: inout Harness, _ candidates: [ReleaseCandidate] = pressings) -> [AppCommand] {
        h.type([.character("G"), .up])
        #expect(h.state.selectedItem?.recordID == 5)
        let opening = h.type([.enter])
        #expect(asked(opening).isEmpty, "nothing to show yet: no cover asked")
        return h.send(.details(Self.details(candidates)))
    }

    private static let colours: [CoverArt.RGB] = [
        CoverArt.RGB(red: 255, green: 0, blue: 0), CoverArt.RGB(red: 0, green: 0, blue: 255), CoverArt.RGB(red: 0, green: 255, blue: 0),
    ]

    private static func art(_ colour: CoverArt.RGB, columns: Int, rows: Int) -> CoverArt {
        CoverArt(rows: Array(repeating: Array(repeating: CoverArt.Cell(symbol: "█", foreground: colour, background: colour), count: columns), count: rows))
    }

    @Test("the picker opens at once and asks for the covers of its page only, the highlighted one last")
    func asksForThePageHighlightedLast() throws {
        var h = harness()
        let commands = openPicker(&h)
        let layout = h.state.pickerLayout
        #expect(layout.thumbnails && layout.perPage >= 3 && layout.perPage < Self.pressings.count)
        let requests = asked(commands)
        #expect(requests.count == layout.perPage)
        #expect(requests.last?.subject == Self.subject(0), "the highlighted pressing is asked last, so fetched first")
        #expect(Set(requests.map(\.subject)) == Set((0..<layout.perPage).map(Self.subject)))
        #expect(requests.allSatisfy { $0.columns == AppState.pickerThumbColumns && $0.rows == AppState.pickerThumbRows && $0.colours == .palette256 })
        // The candidates are on the screen at once, "…" where their covers will be.
        #expect(h.lines[3].contains("1. Fleetwood Mac — Rumours") && h.lines[5].contains("…"))
        // Another event asks nothing again.
        #expect(asked(h.send(.waiting(2))).isEmpty)
    }

    @Test("moving to a pressing whose cover still waits asks for it again (first in line); a new page asks for what it adds")
    func movingReordersAndPagesAsk() throws {
        var h = harness()
        let first = asked(openPicker(&h))
        let perPage = h.state.pickerLayout.perPage
        // Down: pressing 2's cover waits: asked again, alone, so that it comes next.
        #expect(asked(h.type([.down])).map(\.subject) == [Self.subject(1)])
        // Once here, it is not asked again; pressing 3's is.
        let third = try #require(first.first { $0.subject == Self.subject(2) })
        h.send(.cover(third, .art(Self.art(Self.colours[0], columns: third.columns, rows: third.rows))))
        #expect(asked(h.type([.down])).isEmpty, "pressing 3's cover came: nothing to ask")
        #expect(asked(h.type([.up])).map(\.subject) == [Self.subject(1)])
        // Down to the page's end and one further: the pressing the page adds, and nothing else.
        h.type(Array(repeating: Key.down, count: perPage - 2))
        let paged = asked(h.type([.down]))
        #expect(paged.map(\.subject) == [Self.subject(perPage)])
        // Never one off the screen.
        let everAsked = Set(asked(h.commands).map(\.subject))
        #expect(everAsked == Set((0...perPage).map(Self.subject)))
    }

    @Test("covers off, too narrow or too short: the plain list, nothing asked; I hides them in the picker too")
    func noneWhenOffOrWithoutRoom() throws {
        for (width, height, covers) in [(100, 40, false), (48, 40, true), (100, 16, true)] {
            var h = harness(width: width, height: height, covers: covers)
            #expect(asked(openPicker(&h)).isEmpty, "\(width)×\(height), covers \(covers)")
            #expect(!h.state.pickerLayout.thumbnails)
            // Two rows a pressing, from the left edge.
            #expect(h.lines[3].hasPrefix(" 1. Fleetwood Mac") && h.lines[5].hasPrefix(" 2. Fleetwood Mac"))
        }
        var h = harness()
        let requests = asked(openPicker(&h))
        for request in requests {
            h.send(.cover(request, .art(Self.art(Self.colours[1], columns: request.columns, rows: request.rows))))
        }
        #expect(h.screen.cellsHaveTint)
        // I in the list (in the picker a letter narrows the pressings): the picker has none then.
        h.type([.escape])
        #expect(h.state.mode == .list)
        h.type("I")
        #expect(!h.state.coversOn)
        #expect(asked(h.type([.enter])).isEmpty)
        #expect(asked(h.send(.details(Self.details(Self.pressings)))).isEmpty)
        #expect(!h.screen.cellsHaveTint && !h.state.pickerLayout.thumbnails)
        #expect(asked(h.type(Array(repeating: Key.down, count: 12))).isEmpty)
    }

    @Test("each cover is drawn beside its own pressing, the text to its right")
    func coversLandBesideTheirPressings() throws {
        var h = harness()
        let requests = asked(openPicker(&h))
        for n in 0..<3 {
            let request = try #require(requests.first { $0.subject == Self.subject(n) })
            h.send(.cover(request, .art(Self.art(Self.colours[n], columns: request.columns, rows: request.rows))))
        }
        let screen = h.screen
        let layout = h.state.pickerLayout
        let left = AppState.pickerTextLeft
        for n in 0..<3 {
            let top = 3 + n * layout.block
            #expect(h.lines[top].dropFirst(left).hasPrefix("\(n + 1). Fleetwood Mac — Rumours"), "pressing \(n + 1)'s text on its cover's first row")
            for row in top..<top + AppState.pickerThumbRows {
                for column in 1...AppState.pickerThumbColumns {
                    #expect(screen[row, column].tint?.foreground == Self.colours[n], "pressing \(n + 1) at \(row),\(column)")
                }
                #expect(screen[row, left - 1].tint == nil && screen[row, 0].tint == nil)
            }
            #expect((0..<h.state.width).allSatisfy { screen[top + AppState.pickerThumbRows, $0].tint == nil }, "a blank row between pressings")
        }
        // Pressing 4's cover has not come: "…" in its place, no colour.
        let fourth = 3 + 3 * layout.block
        #expect(screen[fourth + 2, 1 + AppState.pickerThumbColumns / 2].character == "…")
    }

    @Test("no cover: a dim mark in its place, and the highlighted pressing says why; a cover that fell out of line is asked again")
    func placeholdersAndRequeued() throws {
        var h = harness()
        let requests = asked(openPicker(&h))
        let highlighted = try #require(requests.last)
        h.send(.cover(highlighted, .placeholder("today's 1,000 covers fetched: more tomorrow")))
        #expect(h.lines[4].contains("no") && h.lines[5].contains("cover"))
        #expect(h.lines[5].contains("cover: today's 1,000 covers fetched: more tomorrow"))
        // The session did not fetch pressing 2's (other covers were asked since): asked again.
        let second = try #require(requests.first { $0.subject == Self.subject(1) })
        #expect(asked(h.send(.cover(second, .loading))) == [second])
    }
}
