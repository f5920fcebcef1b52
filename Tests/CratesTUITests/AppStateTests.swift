import CratesCore
import Testing
@testable import CratesTUI

@Suite struct AppStateTests {
    static let burst = [
        "5029141777638", "5017066907438", "5091500080635", "5060837783533", "5037406812413",
        "5058683449789", "5069073662589", "5051781286577", "5007049996221", "5083038836853",
        "5095748906825", "5088360759832", "5086756508897", "5095790328927", "5018401107049",
        "5034192541220", "5048244757712", "5004656341482", "5039603062028", "5078683873803",
    ]

    @Test func selectionStartsOnTheFirstRecordAndSkipsHeaders() {
        var state = Sample.state()
        #expect(state.selectedItem?.recordID == 1)
        _ = state.type([.down, .down])
        #expect(state.selectedItem?.recordID == 3, "the Folk header is skipped")
        _ = state.type([.up])
        #expect(state.selectedItem?.recordID == 2)
        _ = state.type([.character("G")])
        #expect(state.selectedItem?.recordID == 6)
        _ = state.type([.character("g")])
        #expect(state.selectedItem?.recordID == 1)
    }

    @Test func sectionJumps() {
        var state = Sample.state()
        _ = state.type([.character("]")])
        #expect(state.selectedItem?.recordID == 3)
        _ = state.type([.character("]")])
        #expect(state.selectedItem?.recordID == 4)
        _ = state.type([.character("]")])
        #expect(state.selectedItem?.recordID == 4, "no section after the last")
        _ = state.type([.down, .character("[")])
        #expect(state.selectedItem?.recordID == 4, "back to the start of this section first")
        _ = state.type([.character("[")])
        #expect(state.selectedItem?.recordID == 3)
    }

    @Test func aWedgeBurstOfTwentyBarcodesAddsAllTwenty() {
        var state = Sample.state()
        var commands: [AppCommand] = []
        var t = 100.0
        for code in Self.burst {
            for c in code {
                commands += state.handle(.key(.character(c), at: t))
                t += 0.008
            }
            commands += state.handle(.key(.enter, at: t))
            t += 0.008
        }
        let added = commands.compactMap { command -> (String, AddMethod)? in
            if case .add(let gtin, let method) = command { return (gtin.canonical, method) }
            return nil
        }
        #expect(added.map(\.0) == Self.burst)
        #expect(added.allSatisfy { $0.1 == .wedge })
        #expect(state.prompt == nil)
        #expect(state.mode == .list)
    }

    @Test func lettersInABurstAreNotTakenAsCommands() {
        // "d" after a digit belongs to the prompt, not to delete.
        var state = Sample.state()
        _ = state.type("5d", interval: 0.01)
        #expect(state.confirmDelete == nil)
        #expect(state.prompt?.text == "5d")
    }

    @Test func typedEntryIsTypedNotWedge() {
        var state = Sample.state()
        let commands = state.type([.character("a")] + "5029141777638".map { Key.character($0) } + [.enter], interval: 0.2)
        #expect(commands == [.add(try! GTIN(parsing: "5029141777638"), method: .typed)])
    }

    @Test func invalidInputIsRefusedInThePrompt() {
        var state = Sample.state()
        let commands = state.type("5029141777639".map { Key.character($0) } + [.enter], interval: 0.01)
        #expect(commands.isEmpty)
        #expect(state.prompt?.error?.contains("check digit should be 8") == true)
        // The next scan replaces the refused text.
        let next = state.type("5017066907438".map { Key.character($0) } + [.enter], from: 200, interval: 0.01)
        #expect(next == [.add(try! GTIN(parsing: "5017066907438"), method: .wedge)])
    }

    @Test func aDuplicateAsksWithoutBlockingTheScansThatFollow() {
        var state = Sample.state()
        var commands = state.type("5099750442227".map { Key.character($0) } + [.enter], interval: 0.01)
        #expect(commands.isEmpty)
        #expect(state.duplicates.count == 1)
        #expect(state.render().line(23).contains("already have 1 copy: add another? (y/N)"))
        commands = state.type("5029141777638".map { Key.character($0) } + [.enter], from: 200, interval: 0.01)
        #expect(commands == [.add(try! GTIN(parsing: "5029141777638"), method: .wedge)])
        commands = state.type([.character("y")], from: 300)
        #expect(commands == [.add(try! GTIN(parsing: "5099750442227"), method: .wedge)])
        #expect(state.duplicates.isEmpty)
    }

    @Test func deleteAsksThenUndoes() {
        var state = Sample.state()
        var commands = state.type([.character("d")])
        #expect(commands.isEmpty)
        #expect(state.render().line(23).hasPrefix("Delete Björk — Homogenic? (y/N)"))
        commands = state.type([.character("n")])
        #expect(commands.isEmpty)
        commands = state.type([.character("d"), .character("y")])
        #expect(commands == [.delete([1])])
        _ = state.handle(.deleted(count: 1, undo: 7))
        commands = state.type([.character("u")])
        #expect(commands == [.undo(7)])
        commands = state.type([.character("u")])
        #expect(commands.isEmpty)
    }

    @Test func selectionFollowsARecordThatMovesSection() {
        var state = Sample.state()
        _ = state.type([.character("G"), .up, .up])
        #expect(state.selectedItem?.recordID == 4)
        // Record 4 is matched and moves to Rock.
        var sections = Sample.collection.sections
        sections[2].items.removeFirst()
        sections.append(ListSection(name: "Rock", items: [Sample.item(4, "0077774620024", artist: "The Beatles", title: "Abbey Road")]))
        _ = state.handle(.collection(CollectionView(sections: sections)))
        #expect(state.selectedItem?.recordID == 4)
        #expect(state.selectedItem?.displayTitle == "The Beatles — Abbey Road")
    }

    @Test func addedRecordIsSelectedWhenItAppears() {
        var state = Sample.state()
        _ = state.handle(.added(recordID: 42))
        var sections = Sample.collection.sections
        sections[2].items.append(Sample.item(42, "5029141777638", state: .pending))
        _ = state.handle(.collection(CollectionView(sections: sections)))
        #expect(state.selectedItem?.recordID == 42)
    }

    @Test func filterMatchesEveryWordAndEscClears() {
        var state = Sample.state()
        _ = state.type([.character("/")] + "mezz".map { Key.character($0) })
        #expect(state.lines == [.header(section: 0, count: 1), .item(section: 0, index: 1)])
        #expect(state.selectedItem?.recordID == 2)
        _ = state.type([.enter])
        #expect(!state.filterEditing)
        _ = state.type([.escape])
        #expect(state.filter.isEmpty)
        #expect(state.lines.count == 9)
        _ = state.type([.character("/")] + "4006381".map { Key.character($0) })
        #expect(state.selectedItem?.recordID == 6, "the filter searches barcodes")
    }

    @Test func ambiguousRecordOpensThePickerAndChoosing() {
        var state = Sample.state()
        _ = state.type([.character("G"), .up])
        #expect(state.selectedItem?.recordID == 5)
        var commands = state.type([.enter])
        #expect(commands == [.loadDetails(5)])
        let candidates = [
            ReleaseCandidate(releaseID: 11, artist: "A", title: "T", country: "UK", year: 1990, formats: ["CD"], label: "L", catno: "C1"),
            ReleaseCandidate(releaseID: 12, artist: "A", title: "T", country: "US", year: 1991, formats: ["CD"], label: "L", catno: "C2"),
        ]
        _ = state.handle(.details(Self.details(id: 5, state: .ambiguous, candidates: candidates)))
        commands = state.type([.down, .enter])
        #expect(commands == [.choose(recordID: 5, releaseID: 12)])
        #expect(state.mode == .list)
    }

    @Test func cameraScansWaitForAnOpenDialog() {
        var state = Sample.state()
        _ = state.type([.character("d")])
        var commands = state.handle(.scan("5029141777638", method: .camera))
        #expect(commands.isEmpty)
        commands = state.type([.character("n")])
        #expect(commands == [.add(try! GTIN(parsing: "5029141777638"), method: .camera)])
    }

    @Test func releaseURLsAndIDsAreAccepted() {
        var state = Sample.state()
        var commands = state.type([.character("a")] + "https://www.discogs.com/release/249504-Rick-Astley".map { Key.character($0) } + [.enter])
        #expect(commands == [.addRelease(id: 249504, method: .releaseID)])
        commands = state.type([.character("a")] + "r1".map { Key.character($0) } + [.enter])
        #expect(commands == [.addRelease(id: 1, method: .releaseID)])
    }

    @Test func quitAndCtrlC() {
        var state = Sample.state()
        #expect(state.type([.character("q")]) == [.quit])
        #expect(state.hasQuit)
        var other = Sample.state()
        #expect(other.type([.control("c")]) == [.quit])
    }

    @Test func resizeKeepsTheSelection() {
        var state = Sample.state()
        _ = state.type([.character("G")])
        _ = state.handle(.resize(width: 40, height: 6))
        #expect(state.selectedItem?.recordID == 6)
        #expect(state.render().text.contains("4006381333931"))
    }

    static func details(id: Int64, state: LookupState, candidates: [ReleaseCandidate] = [], release: Release? = nil) -> RecordDetails {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let record = CatalogueRecord(
            id: id, gtin: try! GTIN(parsing: "5012345678900"), addedAt: date, addMethod: .wedge,
            releaseID: release?.id, lookupState: state, candidates: candidates, updatedAt: date)
        return RecordDetails(record: record, release: release, history: [])
    }
}

import Foundation
