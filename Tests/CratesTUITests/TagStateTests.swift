import CratesCore
import Foundation
import Testing
@testable import CratesTUI

/// Tags in the list, as a value: `t` tags and untags, `T` asks for every record shown, `U`
/// clears, the title bar counts them; the list's actions take every tagged record (else the
/// selected one); tag by scan makes a copy label tag its copy.
@Suite("Collection UI: tags")
struct TagStateTests {
    static let tree = LocationTree([
        .init(id: 1, name: "Living Room", parentID: nil),
        .init(id: 5, name: "Crate A3", parentID: 1, count: 2),
    ])

    @Test("t tags the selected record and selects the next; t again untags; the title bar counts; U clears")
    func tagAndUntag() {
        var h = Harness(width: 100)
        #expect(h.state.selectedItem?.recordID == 1)
        #expect(h.send(.key(.character("t"), at: 100)).isEmpty)
        #expect(h.state.tags == [1])
        #expect(h.state.selectedItem?.recordID == 2, "the next record is selected, to tag a run with t t t")
        h.send(.key(.character("t"), at: 101))
        #expect(h.state.tags == [1, 2])
        #expect(h.lines[0].contains(" 2 tagged "), "\(h.lines[0])")
        // Tagged rows are marked in the first column.
        let marked = h.lines.filter { $0.hasPrefix("*") }
        #expect(marked.count == 2 && marked[0].contains("Homogenic") && marked[1].contains("Mezzanine"), "\(h.lines)")
        // Untag: back on record 2.
        h.send(.key(.character("k"), at: 102))
        h.send(.key(.character("t"), at: 103))
        #expect(h.state.tags == [1])
        #expect(h.send(.key(.character("U"), at: 104)).isEmpty)
        #expect(h.state.tags.isEmpty)
        #expect(h.lines[23] == "Untagged 1 record")
        #expect(!h.lines[0].contains("tagged"))
    }

    @Test("T asks for every record the list shows (its filter and place); the answer is added to the tags")
    func tagShown() {
        var h = Harness(width: 100)
        h.send(.key(.character("/"), at: 100))
        h.type("cd", from: 101)
        h.send(.key(.enter, at: 102))
        let commands = h.send(.key(.character("T"), at: 103))
        #expect(commands == [.session(.tagShown(CollectionQuery(filter: "cd", window: RowWindow(offset: 0, limit: 0))))])
        h.send(.tagged([1, 3], title: nil))
        h.send(.tagged([3, 4], title: nil))
        #expect(h.state.tags == [1, 3, 4])
        #expect(h.lines[23] == "Tagged 2 records shown (3 tagged)")
        #expect(h.lines[0].contains(" 3 tagged "), "\(h.lines[0])")
    }

    @Test("with tags, d asks once for all of them, r looks them all up, E exports them; the deleted are untagged")
    func taggedDeleteRefreshExport() {
        var h = Harness(width: 100)
        h.type("tjt", from: 100)  // records 1 and 3
        #expect(h.state.tags == [1, 3])
        h.send(.key(.character("d"), at: 110))
        #expect(h.lines[23] == "Delete 2 tagged records? (y/N)")
        #expect(h.send(.key(.character("y"), at: 111)) == [.session(.delete([1, 3]))])
        #expect(h.state.tags.isEmpty)
        h.send(.deleted(count: 2, undo: 9))
        #expect(h.send(.key(.character("u"), at: 112)) == [.session(.undo(9))], "one undo puts all of them back")

        h.type("tt", from: 120)
        let tagged = h.state.tags.sorted()
        #expect(tagged.count == 2)
        #expect(h.send(.key(.character("r"), at: 130)) == [.session(.refresh(tagged))])
        #expect(h.lines[23] == "2 tagged records are queued again: Discogs looks them up once you sign in (A)", "\(h.lines[23])")
        #expect(h.send(.key(.character("E"), at: 131)) == [.session(.exportRecords(tagged))])
        #expect(h.lines[23] == "Exporting 2 records…")
    }

    @Test("p opens the place picker for the tagged records, or the selected one; Enter moves them there")
    func moveToPlace() {
        var h = Harness(width: 100)
        // No tags: the selected record.
        #expect(h.send(.key(.character("p"), at: 100)) == [.session(.loadLocations)])
        #expect(h.lines[0].hasPrefix(" crates · move 1 record to: choose a place (Enter)"), "\(h.lines[0])")
        h.send(.locations(Self.tree))
        h.send(.key(.character("j"), at: 101))
        #expect(h.send(.key(.enter, at: 102)) == [.session(.move([1], to: 5))])
        #expect(h.state.mode == .list)
        #expect(h.state.location == nil, "moving does not change the current place")
        // Tagged: every one of them; Esc leaves the picker without a move.
        h.type("tt", from: 110)
        h.send(.key(.character("p"), at: 120))
        h.send(.locations(Self.tree))
        #expect(h.send(.key(.escape, at: 121)).isEmpty)
        #expect(h.state.mode == .list)
        h.send(.key(.character("p"), at: 122))
        h.send(.locations(Self.tree))
        #expect(h.send(.key(.enter, at: 123)) == [.session(.move([1, 2], to: 1))])
        h.send(.moved(count: 2, to: Location(id: 1, name: "Living Room", parentID: nil, ancestors: []), undo: 4))
        #expect(h.lines[23] == "Moved 2 records to Living Room: u to undo")
        #expect(h.send(.key(.character("u"), at: 124)) == [.session(.undo(4))])
    }

    @Test("M, V and * in the list: a picker over it; the choice goes to every tagged record, or the selected one")
    func grading() {
        var h = Harness(width: 100)
        h.send(.key(.character("M"), at: 100))
        #expect(h.lines.contains { $0.contains("Media condition: Enter sets it") }, "\(h.lines)")
        h.type("jj", from: 101)
        let one = h.send(.key(.enter, at: 103))
        #expect(one == [.session(.grade(recordID: 1, CopyGradingChange(media: .set(MediaCondition.allCases[1]))))])
        #expect(h.state.listGrading == nil)
        h.type("tt", from: 110)
        h.send(.key(.character("*"), at: 120))
        #expect(h.send(.key(.character("4"), at: 121)) == [.session(.gradeRecords([1, 2], CopyGradingChange(rating: Rating(clamping: 4))))],
                "a digit in the rating picker is the stars, not a scan")
        h.send(.key(.character("V"), at: 122))
        #expect(h.send(.key(.escape, at: 123)).isEmpty)
        #expect(h.state.listGrading == nil && h.state.tags == [1, 2])
        h.send(.key(.character("V"), at: 124))
        #expect(h.send(.key(.enter, at: 125)) == [.session(.gradeRecords([1, 2], CopyGradingChange(sleeve: .clear)))])
    }

    @Test("tag by scan: b toggles it, the title bar says so; a copy label then tags its copy, a place's label still enters the place")
    func tagByScan() throws {
        var h = Harness(width: 100)
        let copy = try #require(LabelCode(kind: .copy, id: 2))
        let place = try #require(LabelCode(kind: .location, id: 5))
        #expect(h.type("2910000000024".map { Key.character($0) } + [.enter], interval: 0.01) == [.session(.add(.label(copy), method: .wedge))])
        h.send(.key(.character("b"), at: 200))
        #expect(h.state.tagByScan)
        #expect(h.lines[0].contains("tag by scan"), "\(h.lines[0])")
        #expect(h.type("2910000000024".map { Key.character($0) } + [.enter], from: 300, interval: 0.01) == [.session(.tagCopy(copy))])
        #expect(h.type("2900000000056".map { Key.character($0) } + [.enter], from: 400, interval: 0.01) == [.session(.add(.label(place), method: .wedge))])
        // A camera scan too.
        let camera = h.send(.cameraScan(ScanEvent(symbology: .qrCode, data: "2910000000024", at: Date(timeIntervalSince1970: 0))))
        #expect(camera == [.session(.tagCopy(copy))])
        h.send(.tagged([2], title: "Massive Attack — Mezzanine"))
        #expect(h.state.tags == [2])
        #expect(h.state.selectedItem?.recordID == 2)
        #expect(h.lines[23] == "Tagged Massive Attack — Mezzanine (1 tagged)")
        #expect(h.lines[0].contains(" 1 tagged · tag by scan "), "\(h.lines[0])")
        h.send(.key(.character("b"), at: 500))
        #expect(!h.state.tagByScan)
    }

    @Test("the wantlist's tags: t, T, U; + rates every tagged release; x asks once, then takes them all off")
    func wantlist() {
        var h = Harness(width: 100, height: 30)
        h.type([.character("w")])
        let wants = (1...3).map { WantEntry(releaseID: $0, artist: "A\($0)", title: "T", rating: Rating(clamping: $0), addedAt: Date()) }
        h.send(.wantlist(wants.map { WantListing(want: $0, price: nil) }))
        h.type("tjt")  // releases 1 and 3
        #expect(h.lines[0].contains(" 2 tagged "), "\(h.lines[0])")
        #expect(h.lines.filter { $0.hasPrefix("*") }.count == 2, "\(h.lines)")
        #expect(h.type([.character("+")]) == [
            .session(.want(.rate(releaseID: 1, Rating(clamping: 2)), recheck: nil)),
            .session(.want(.rate(releaseID: 3, Rating(clamping: 4)), recheck: nil)),
        ])
        #expect(h.type([.character("x")]).isEmpty, "asked first")
        #expect(h.lines[29] == "Take 2 tagged releases off the wantlist? (y/N)", "\(h.lines[29])")
        #expect(h.type([.character("y")]) == [.session(.want(.removeTagged(releaseIDs: [1, 3]), recheck: nil))])
        h.send(.wantlist([WantListing(want: wants[1], price: nil)]))
        #expect(!h.lines[0].contains("tagged"), "the releases taken off are untagged: \(h.lines[0])")
        h.send(.wantlist(wants.map { WantListing(want: $0, price: nil) }))
        h.type([.character("T")])
        #expect(h.lines[0].contains(" 3 tagged "), "\(h.lines[0])")
        h.type([.character("U")])
        #expect(!h.lines[0].contains("tagged"), "\(h.lines[0])")
        // The list's tags are its own.
        h.type([.escape])
        #expect(h.state.tags.isEmpty)
    }

    @Test("the help names the tag keys")
    func help() {
        let help = HelpText.lines(width: 100).map(\.text).joined(separator: "\n")
        for text in ["tag or untag it; d r p M V * E then take all tagged", "tag every record the list shows", "untag every record",
                     "tag by scan: a copy label scanned tags its copy", "move the tagged records (or this one) to a place",
                     "export the tagged records"] {
            #expect(help.contains(text), "\(text)")
        }
    }
}
