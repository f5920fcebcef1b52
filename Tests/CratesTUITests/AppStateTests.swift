import CratesCore
import CratesTestSupport
import Foundation
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
        var h = Harness()
        #expect(h.state.selectedItem?.recordID == 1)
        h.type([.down, .down])
        #expect(h.state.selectedItem?.recordID == 3, "the Folk header is skipped")
        h.type([.up])
        #expect(h.state.selectedItem?.recordID == 2)
        h.type([.character("G")])
        #expect(h.state.selectedItem?.recordID == 6)
        h.type([.character("g")])
        #expect(h.state.selectedItem?.recordID == 1)
        h.type([.up])
        #expect(h.state.selectedItem?.recordID == 1, "the header above the first record is not selectable")
    }

    @Test func sectionJumps() {
        var h = Harness()
        h.type([.character("]")])
        #expect(h.state.selectedItem?.recordID == 3)
        h.type([.character("]")])
        #expect(h.state.selectedItem?.recordID == 4)
        h.type([.character("]")])
        #expect(h.state.selectedItem?.recordID == 4, "no section after the last")
        h.type([.down, .character("[")])
        #expect(h.state.selectedItem?.recordID == 4, "back to the start of this section first")
        h.type([.character("[")])
        #expect(h.state.selectedItem?.recordID == 3)
        h.type([.character("["), .character("[")])
        #expect(h.state.selectedItem?.recordID == 1)
    }

    @Test(.offThePool) func aLargeCollectionIsFetchedAWindowAtATime() {
        var h = Harness(Sample.large(100_000, perSection: 7_000))
        #expect(h.state.list.rows.count < 200, "only a window is held")
        #expect(h.state.list.rowCount == 100_000)
        h.type([.character("G")])
        #expect(h.state.selectedItem?.recordID == 100_000)
        #expect(h.lines[22] == " 100,000 records · Discogs: not signed in (A or `crates auth`)")
        h.type(Array(repeating: Key.pageUp, count: 3))
        #expect(h.state.selectedItem != nil, "the rows paged to are fetched")
        h.type([.character("g"), .character("]"), .character("]")])
        #expect(h.state.selectedItem?.recordID == 14_001)
    }

    @Test(.offThePool) func rowsNotYetFetchedShowAPlaceholderAndTheirQueryIsSentOnce() {
        var state = AppState(width: 80, height: 24)
        let store = Sample.large(10_000, perSection: 10_000)
        var commands = state.handle(.resize(width: 80, height: 24))
        guard let first = commands.first?.query else {
            Issue.record("the first thing asked is the list: \(commands)")
            return
        }
        _ = state.handle(.session(.window(store.answer(first))))
        commands = state.handle(.key(.character("G"), at: 1))
        let queries = commands.filter { $0.query != nil }
        #expect(queries.count == 1)
        #expect(state.render().line(21).hasPrefix("  …"))
        // More keys before the answer do not ask again.
        commands = state.handle(.key(.up, at: 2))
        #expect(!commands.contains { $0.query != nil })
    }

    @Test func aWedgeBurstOfTwentyBarcodesAddsAllTwenty() {
        var h = Harness()
        var t = 100.0
        for code in Self.burst {
            for c in code {
                h.send(.key(.character(c), at: t))
                t += 0.008
            }
            h.send(.key(.enter, at: t))
            t += 0.008
        }
        let added = h.commands.compactMap { command -> (String, AddMethod)? in
            command.addedBarcode.map { ($0.0.canonical, $0.1) }
        }
        #expect(added.map(\.0) == Self.burst)
        #expect(added.allSatisfy { $0.1 == .wedge })
        #expect(h.state.prompt == nil)
        #expect(h.state.mode == .list)
    }

    @Test func lettersInABurstAreNotTakenAsCommands() {
        var h = Harness()
        h.type("5d", interval: 0.01)
        #expect(h.state.confirmDelete == nil)
        #expect(h.state.prompt?.text == "5d")
    }

    @Test func typedEntryIsTypedNotWedge() {
        var h = Harness()
        let commands = h.type([.character("a")] + "5029141777638".map { Key.character($0) } + [.enter], interval: 0.2)
        #expect(commands == [.add(Fixtures.gtin("5029141777638"), method: .typed)])
    }

    @Test func invalidInputIsRefusedInThePrompt() {
        var h = Harness()
        let commands = h.type("5029141777639".map { Key.character($0) } + [.enter], interval: 0.01)
        #expect(commands == [.bell])
        #expect(h.state.prompt?.error?.contains("check digit should be 8") == true)
        // The next scan replaces the refused text.
        let next = h.type("5017066907438".map { Key.character($0) } + [.enter], from: 200, interval: 0.01)
        #expect(next == [.add(Fixtures.gtin("5017066907438"), method: .wedge)])
    }

    @Test func aDuplicateAsksWithoutBlockingTheScansThatFollow() {
        var h = Harness()
        h.send(.duplicate(Fixtures.gtin("5099750442227"), method: .wedge, copies: 1))
        #expect(h.lines[23].contains("already have 1 copy: add another? (y/N)"))
        let commands = h.type("5029141777638".map { Key.character($0) } + [.enter], from: 200, interval: 0.01)
        #expect(commands == [.add(Fixtures.gtin("5029141777638"), method: .wedge)])
        #expect(h.type([.character("y")], from: 300) == [.addCopy(Fixtures.gtin("5099750442227"), method: .wedge)])
        #expect(h.state.questions.isEmpty)
        h.send(.duplicate(Fixtures.gtin("5099750442227"), method: .wedge, copies: 2))
        #expect(h.type([.character("n")], from: 400).isEmpty)
        #expect(h.lines[23] == "Not added: 5099750442227")
    }

    @Test("a scan says it is being added; that it was added is the session's word, and a duplicate is asked instead")
    func addedIsTheSessionsWord() {
        var h = Harness()
        let code = Fixtures.gtin("5099750442227")
        #expect(h.type("5099750442227".map { Key.character($0) } + [.enter], interval: 0.01) == [.add(code, method: .wedge)])
        #expect(h.lines[23] == "Adding 5099750442227")
        // The collection has it: the session asks; nothing said it was added.
        h.send(.duplicate(code, method: .wedge, copies: 1))
        #expect(h.lines[23].contains("already have 1 copy: add another? (y/N)"))
        #expect(h.type([.character("y")], from: 300) == [.addCopy(code, method: .wedge)])
        #expect(h.lines[23] == "Adding 5099750442227")
        h.send(.session(.message("Added 5099750442227", isError: false)))
        #expect(h.lines[23] == "Added 5099750442227")
    }

    @Test("a book asks before it is added; yes sends it again allowed, and a duplicate book asks twice")
    func aBookAsksFirst() {
        var h = Harness()
        let isbn = Fixtures.gtin("9781617292156")
        // Typed or scanned, the application decides: the UI sends it as any barcode.
        #expect(h.type("9781617292156".map { Key.character($0) } + [.enter], interval: 0.01) == [.add(isbn, method: .wedge)])
        #expect(h.state.message?.text.hasPrefix("Added") != true, "not said to be added before the answer")
        guard case .confirm(let code) = isbn.admission else {
            Issue.record("an ISBN is confirmed, not admitted")
            return
        }
        h.send(.ask(AddQuestion(entry: .barcode(isbn), gtin: isbn, method: .wedge, kind: .notARecord(code), allowing: [])))
        #expect(h.lines[23] == "This is a book (ISBN 9781617292156): add it anyway? (y/N)")
        #expect(h.type([.character("y")], from: 300) == [.add(isbn, method: .wedge, allowing: .notARecord)])
        // The collection had it already: asked again, with the book already allowed.
        h.send(.ask(AddQuestion(entry: .barcode(isbn), gtin: isbn, method: .wedge, kind: .anotherCopy(copies: 1), allowing: .notARecord)))
        #expect(h.type([.character("y")], from: 400) == [.add(isbn, method: .wedge, allowing: [.notARecord, .anotherCopy])])
        h.send(.ask(AddQuestion(entry: .barcode(isbn), gtin: isbn, method: .wedge, kind: .notARecord(code), allowing: [])))
        #expect(h.type([.character("n")], from: 500).isEmpty)
        #expect(h.lines[23] == "Not added: 9781617292156")
    }

    @Test("a shop's price label is refused in the prompt, and from the camera, without a round trip")
    func aPriceLabelIsRefused() {
        var h = Harness()
        #expect(h.type("2012345678903".map { Key.character($0) } + [.enter], interval: 0.01) == [.bell])
        #expect(h.state.prompt?.error?.contains("restricted-circulation") == true)
        h.type([.escape], from: 200)
        #expect(h.send(.scan("2012345678903", method: .camera)) == [.bell])
        #expect(h.state.message?.isError == true && h.state.message?.text.contains("restricted-circulation") == true)
    }

    @Test func deleteAsksThenUndoes() {
        var h = Harness()
        #expect(h.type([.character("d")]).isEmpty)
        #expect(h.lines[23].hasPrefix("Delete Björk — Homogenic? (y/N)"))
        #expect(h.type([.character("n")]).isEmpty)
        #expect(h.type([.character("d"), .character("y")]) == [.delete([1])])
        h.send(.deleted(count: 1, undo: 7))
        #expect(h.type([.character("u")]) == [.undo(7)])
        #expect(h.type([.character("u")]).isEmpty)
    }

    @Test func selectionFollowsARecordThatMovesSection() {
        var h = Harness()
        h.type([.character("G"), .up, .up])
        #expect(h.state.selectedItem?.recordID == 4)
        // Record 4 is matched and moves to a new section, Rock.
        h.storeChanged { store in
            store.sections[2].items.removeFirst()
            store.sections.append(("Rock", [Sample.item(4, "0077774620024", artist: "The Beatles", title: "Abbey Road")]))
        }
        #expect(h.state.selectedItem?.recordID == 4)
        #expect(h.state.selectedItem?.displayTitle == "The Beatles — Abbey Road")
    }

    @Test func aDeletedRecordLeavesTheSelectionInPlace() {
        var h = Harness()
        h.type([.down])
        h.storeChanged { $0.sections[0].items.removeLast() }
        #expect(h.state.selectedItem?.recordID == 3)
    }

    @Test func addedRecordIsSelectedWhenItAppears() {
        var h = Harness()
        h.store.sections[2].items.append(Sample.item(42, "5029141777638", state: .pending))
        h.send(.added(recordID: 42))
        #expect(h.state.selectedItem?.recordID == 42)
    }

    @Test("a filter that is no query says why in place of the rows, wrapped, until it reads again")
    func filterRefusalIsSaid() {
        var h = Harness(width: 40)
        h.type([.character("/")] + "year:1979..1970".map { Key.character($0) })
        #expect(h.lines[2] == "  year:1979..1970: the range runs the", "\(h.lines)")
        #expect(h.lines[3] == "  wrong way round (its first end comes", "\(h.lines)")
        #expect(h.lines.contains("  Esc clears the filter."))
        h.type(Array(repeating: .backspace, count: 6))
        #expect(h.state.filter == "year:1979")
        #expect(h.state.list.filterError == nil)
    }

    @Test func filterMatchesEveryWordAndEscClears() {
        var h = Harness()
        h.type([.character("/")] + "mezz".map { Key.character($0) })
        #expect(h.state.list.rowCount == 1)
        #expect(h.state.selectedItem?.recordID == 2)
        #expect(h.lines[0].hasPrefix(" crates · by artist · filter \"mezz\": 1 found"))
        h.type([.enter])
        #expect(!h.state.filterEditing)
        h.type([.escape])
        #expect(h.state.filter.isEmpty)
        #expect(h.state.list.lineCount == 9)
        #expect(h.state.selectedItem?.recordID == 2, "the selection stays on the record")
        h.type([.character("/")] + "4006381".map { Key.character($0) })
        #expect(h.state.selectedItem?.recordID == 6, "the filter searches barcodes")
        h.type([.character("/")] + "zzz".map { Key.character($0) })
        #expect(h.lines[2] == "  Nothing matches \"4006381/zzz\".")
    }

    @Test("the filter finds labels and catalogue numbers, whatever the case and accents")
    func filterFoldsAndSearchesLabels() {
        for (typed, found) in [("bjork", 1), ("HOMOGENIC", 1), ("wbrlp", 2), ("one little", 1), ("circa 4", 2)] {
            var h = Harness()
            h.type([.character("/")] + typed.map { Key.character($0) })
            #expect(h.state.list.rowCount == 1, "\(typed)")
            #expect(h.state.selectedItem?.recordID == Int64(found), "\(typed)")
        }
    }

    @Test func ambiguousRecordOpensThePickerAndChoosing() {
        var h = Harness()
        h.type([.character("G"), .up])
        #expect(h.state.selectedItem?.recordID == 5)
        #expect(h.type([.enter]) == [.loadDetails(5)])
        let candidates = [
            ReleaseCandidate(releaseID: 11, artist: "A", title: "T", country: "UK", year: 1990, formats: ["CD"], label: "L", catno: "C1"),
            ReleaseCandidate(releaseID: 12, artist: "A", title: "T", country: "US", year: 1991, formats: ["CD"], label: "L", catno: "C2"),
        ]
        h.send(.details(Self.details(id: 5, state: .ambiguous, candidates: candidates)))
        #expect(h.type([.down, .enter]) == [.choose(recordID: 5, releaseID: 12)])
        #expect(h.state.mode == .list)
    }

    @Test func cameraScansWaitForAnOpenDialog() {
        var h = Harness()
        h.type([.character("d")])
        #expect(h.send(.scan("5029141777638", method: .camera)).isEmpty)
        #expect(h.type([.character("n")]) == [.add(Fixtures.gtin("5029141777638"), method: .camera)])
        // A QR code that is not a release is shown, not added.
        #expect(h.send(.scan("https://example.com/x", method: .camera)) == [.bell], "refused: the bell, nothing added")
        #expect(h.state.message?.isError == true)
    }

    @Test func cameraScansAddBarcodesAndReleaseURLsAndShowTheRest() {
        var h = Harness()
        let at = Date(timeIntervalSince1970: 0)
        #expect(h.send(.cameraScan(ScanEvent(symbology: .ean13, data: "5029141777638", at: at)))
            == [.add(Fixtures.gtin("5029141777638"), method: .camera)])
        #expect(h.send(.cameraScan(ScanEvent(symbology: .qrCode, data: "https://www.discogs.com/release/249504-x", at: at)))
            == [.addRelease(id: 249504, method: .camera)])
        // Digits in a QR code or a CODE-128 label are not a record's barcode.
        #expect(h.send(.cameraScan(ScanEvent(symbology: .qrCode, data: "5029141777638", at: at))).isEmpty)
        #expect(h.state.message?.text == "ignored QR-Code: 5029141777638")
        #expect(h.send(.cameraScan(ScanEvent(symbology: .code128, data: "https://example.com/\u{1B}[2J", at: at))).isEmpty)
        #expect(h.state.message?.text.contains("\u{1B}") == false)
        // While a dialog is open, camera scans wait and are applied in order afterwards.
        h.type([.character("d")])
        #expect(h.send(.cameraScan(ScanEvent(symbology: .upcA, data: "727361626525", at: at))).isEmpty)
        #expect(h.send(.cameraScan(ScanEvent(symbology: .ean8, data: "96385074", at: at))).isEmpty)
        #expect(h.type([.character("n")]) == [
            .add(Fixtures.gtin("727361626525"), method: .camera), .add(Fixtures.gtin("96385074"), method: .camera),
        ])
    }

    @Test func releaseURLsAndIDsAreAccepted() {
        var h = Harness()
        #expect(h.type([.character("a")] + "https://www.discogs.com/release/249504-Rick-Astley".map { Key.character($0) } + [.enter])
            == [.addRelease(id: 249504, method: .releaseID)])
        #expect(h.type([.character("a")] + "r1".map { Key.character($0) } + [.enter]) == [.addRelease(id: 1, method: .releaseID)])
    }

    @Test func quitAndCtrlC() {
        var h = Harness()
        #expect(h.type([.character("q")]) == [.quit])
        #expect(h.state.hasQuit)
        var other = Harness()
        #expect(other.type([.control("c")]) == [.quit])
    }

    @Test func resizeKeepsTheSelection() {
        var h = Harness()
        h.type([.character("G")])
        h.send(.resize(width: 40, height: 6))
        #expect(h.state.selectedItem?.recordID == 6)
        #expect(h.state.render().text.contains("4006381333931"))
    }

    static func details(id: Int64, state: LookupState, candidates: [ReleaseCandidate] = [], release: Release? = nil) -> RecordDetails {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let record = CollectionRecord(
            id: id, gtin: Fixtures.gtin("5012345678900"), addedAt: date, addMethod: .wedge,
            releaseID: release?.id, lookupState: state, candidates: candidates, updatedAt: date)
        return RecordDetails(record: record, release: release, history: [])
    }
}
