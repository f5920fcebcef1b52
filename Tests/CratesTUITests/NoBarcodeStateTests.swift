import CratesCore
import Foundation
import Testing

@testable import CratesTUI

/// The UI's side of issue 14, as a value: the search form, the narrowing picker, the entry by
/// hand, the edit, and the walk through what needs a person.
@Suite struct NoBarcodeStateTests {
    static let pressings: [ReleaseCandidate] = (0..<60).map { i in
        ReleaseCandidate(
            releaseID: 20_000_001 + i, artist: "Pink Floyd", title: "The Dark Side Of The Moon",
            country: i == 23 ? "Europe" : i == 24 ? "US" : "Country \(i)", year: 1973 + i % 12, formats: ["Vinyl"],
            label: i < 20 ? "Harvest" : "EMI", catno: i == 23 || i == 24 ? "CDP 7 46001 2" : "SHVL \(800 + i)")
    }

    /// The session's search request, if `commands` hold one.
    static func searched(_ commands: [AppCommand]) -> (ReleaseSearchQuery, Int64?)? {
        for command in commands { if case .session(.search(let query, let id)) = command { return (query, id) } }
        return nil
    }

    @Test func sOpensTheSearchFormTabMovesEnterSearchesAndTheChoiceAdds() throws {
        var h = Harness()
        #expect(h.type([.character("s")]).isEmpty)
        guard case .form(let form) = h.state.mode else {
            Issue.record("no form: \(h.state.mode)")
            return
        }
        #expect(form.purpose == .search(recordID: nil))
        #expect(form.fields.map(\.key) == [.artist, .title, .catno, .label, .year, .country, .format])
        // Digits are typed into a field, not taken as a barcode scan.
        h.type("pink floyd")
        h.type([.tab])
        h.type("dark side")
        h.type([.tab])
        h.type("46001")
        let sent = h.type([.enter])
        let (query, recordID) = try #require(Self.searched(sent))
        #expect(query.artist == "pink floyd" && query.title == "dark side" && query.catno == "46001" && recordID == nil)
        #expect(h.lines[1].hasPrefix(" Searching Discogs for artist pink floyd, title dark side, catalogue number"))
        h.send(.found(ReleaseSearchAnswer(recordID: nil, query: query, candidates: Self.pressings, requests: 2)))
        #expect(h.lines[1].hasPrefix(" 60 found for artist pink floyd"))
        // Typing narrows: the catalogue number read off the spine.
        h.type("46001")
        guard case .picker(let picker) = h.state.mode else {
            Issue.record("no picker")
            return
        }
        #expect(picker.shown.map(\.releaseID) == [20_000_024, 20_000_025])
        #expect(h.lines[2].contains("Narrow: 46001  2 of 60"))
        h.type([.down])
        #expect(h.type([.enter]) == [.session(.add(.release(20_000_025), method: .search))])
        #expect(h.state.mode == .list)
    }

    @Test func narrowingByCountryYearOrLabelAndBack() {
        var h = Harness()
        h.send(.window(MemoryCollection(sections: []).answer(CollectionQuery(window: RowWindow(offset: 0, limit: 10)))))
        h.state.mode = .picker(AppState.PickerState(recordID: 5, subject: "5012345678900", candidates: Self.pressings, loading: false))
        h.type("emi 1984")
        guard case .picker(let picker) = h.state.mode else { return }
        #expect(picker.shown.allSatisfy { $0.label == "EMI" && $0.year == 1984 } && !picker.shown.isEmpty)
        h.type("zzz")
        #expect(h.lines[3].contains("No pressing matches"))
        #expect(h.type([.enter]).isEmpty, "nothing to choose")
        h.type([.escape])
        guard case .picker(let cleared) = h.state.mode else {
            Issue.record("Esc clears the narrowing first")
            return
        }
        #expect(cleared.filter.isEmpty && cleared.shown.count == 60)
        h.type([.escape])
        #expect(h.state.mode == .list)
    }

    /// Two pressings of one title read alike: the message says which one was chosen, by its
    /// country, year and catalogue number, not "Matched X to X".
    @Test func choosingAPressingSaysWhichPressing() {
        var h = Harness()
        h.send(.window(MemoryCollection(sections: []).answer(CollectionQuery(window: RowWindow(offset: 0, limit: 10)))))
        let rumours = [
            ReleaseCandidate(releaseID: 1, artist: "Fleetwood Mac", title: "Rumours", country: "UK", year: 1977, formats: ["Vinyl"], catno: "K 56344"),
            ReleaseCandidate(releaseID: 2, artist: "Fleetwood Mac", title: "Rumours", country: "US", year: 1977, formats: ["Vinyl"], catno: "BSK 3010"),
        ]
        h.state.mode = .picker(AppState.PickerState(recordID: 5, subject: "Fleetwood Mac — Rumours", candidates: rumours, loading: false))
        h.type([.down])
        #expect(h.type([.enter]).contains(.session(.choose(recordID: 5, releaseID: 2))))
        #expect(h.state.message?.text == "Matched to Fleetwood Mac — Rumours (US, 1977, BSK 3010)")
        // Added from a search: the same words for the pressing.
        h.state.mode = .picker(AppState.PickerState(recordID: nil, subject: "Rumours", candidates: rumours, loading: false))
        h.type([.enter])
        #expect(h.state.message?.text == "Adding Fleetwood Mac — Rumours (UK, 1977, K 56344)")
        // Discogs gave nothing that tells it apart: its release number does.
        h.state.mode = .picker(AppState.PickerState(
            recordID: 6, subject: "T", candidates: [ReleaseCandidate(releaseID: 249_504, artist: "A", title: "T")], loading: false))
        h.type([.enter])
        #expect(h.state.message?.text == "Matched to A — T (release 249504)")
    }

    @Test("empty or absurd input: the form says why and sends nothing", arguments: [
        ([], "nothing to search for"),
        ([(1, String(repeating: "x", count: 5_000))], "the title is 5000 characters long; a search field takes at most 200"),
        ([(0, "a\u{1B}b")], "control character"),
        ([(1, "Homogenic"), (4, "99999")], "the year 99999 is out of range"),
    ] as [([(Int, String)], String)])
    func refusedSearches(_ typed: [(Int, String)], _ message: String) {
        var h = Harness()
        h.type([.character("s")])
        for (field, text) in typed {
            guard case .form(var form) = h.state.mode else { return }
            form.focused = field
            h.state.mode = .form(form)
            h.type(text)
        }
        #expect(h.type([.enter]).isEmpty, "no request")
        guard case .form(let form) = h.state.mode else {
            Issue.record("the form stays")
            return
        }
        #expect(form.error?.contains(message) == true, "\(form.error ?? "no error")")
        #expect(h.screen.text.contains(message))
    }

    @Test("a search that needs an account no one signed in to: the form comes back naming the UI's way in (A)")
    func notSignedInSearchNamesA() throws {
        var h = Harness()
        h.type([.character("G")])
        h.type([.character("s")])
        var details = AppStateTests.details(id: 6, state: .notFound)
        details.record.collector = RecordFields(artist: "Björk", catno: "TPLP 71")
        h.send(.details(details))
        let (query, _) = try #require(Self.searched(h.type([.enter])))
        h.send(.found(ReleaseSearchAnswer(recordID: 6, query: query, candidates: [], requests: 0, notSignedIn: true)))
        guard case .form(let again) = h.state.mode else {
            Issue.record("back to the form")
            return
        }
        #expect(again.error == "not signed in to Discogs: A in the list signs in (a token, or OAuth)")
    }

    @Test func sOnANotFoundRecordSearchesForItAndNothingFoundComesBackToTheForm() throws {
        var h = Harness()
        h.type([.character("G")])
        #expect(h.state.selectedItem?.recordID == 6)
        #expect(h.type([.character("s")]) == [.loadDetails(6)])
        var details = AppStateTests.details(id: 6, state: .notFound)
        details.record.collector = RecordFields(artist: "Björk", catno: "TPLP 71")
        h.send(.details(details))
        guard case .form(let form) = h.state.mode else {
            Issue.record("no form")
            return
        }
        #expect(form.purpose == .search(recordID: 6) && form.text(.artist) == "Björk" && form.text(.catno) == "TPLP 71")
        let (query, id) = try #require(Self.searched(h.type([.enter])))
        #expect(id == 6)
        h.send(.found(ReleaseSearchAnswer(recordID: 6, query: query, candidates: [], requests: 3)))
        guard case .form(let again) = h.state.mode else {
            Issue.record("back to the form")
            return
        }
        #expect(again.error == "Discogs found nothing for artist Björk, catalogue number TPLP 71 (3 requests): change the search, or m to enter it by hand")
        h.type([.enter])
        h.send(.found(ReleaseSearchAnswer(recordID: 6, query: query, candidates: Self.pressings.prefix(2).map { $0 }, requests: 1)))
        #expect(h.type([.enter]) == [.choose(recordID: 6, releaseID: 20_000_001)])
    }

    @Test func mEntersARecordByHand() {
        var h = Harness()
        h.type([.character("m")])
        h.type("The Nice")
        h.type([.tab])
        h.type("Ars Longa Vita Brevis")
        h.type([.tab])
        h.type("Rock")
        h.type([.tab])
        h.type("1968")
        let sent = h.type([.enter])
        #expect(sent == [.session(.enterByHand(
            RecordFields(artist: "The Nice", title: "Ars Longa Vita Brevis", genre: "Rock", year: 1968), for: nil))])
        #expect(h.state.mode == .list)
        // Without a title: refused in the form.
        h.type([.character("m")])
        h.type("Somebody")
        #expect(h.type([.enter]).isEmpty)
        guard case .form(let form) = h.state.mode else { return }
        #expect(form.error == "a record entered by hand needs the title")
    }

    @Test func eEditsWhatChangedOnly() {
        var h = Harness()
        #expect(h.type([.character("e")]) == [.loadDetails(1), .session(.loadGenres)])
        var details = AppStateTests.details(id: 1, state: .matched, release: SnapshotTests.release)
        details.record.collector = RecordFields(country: "DE")
        details.record.note = "old note"
        h.send(.details(details))
        guard case .form(let form) = h.state.mode else {
            Issue.record("no form")
            return
        }
        #expect(form.text(.title) == "Never Gonna Give You Up" && form.text(.country) == "DE" && form.text(.note) == "old note")
        #expect(form.fields.first { $0.key == .country }?.isCollectors == true)
        #expect(h.screen.text.contains("Country      * DE"))
        // Year: 1987 → 1988; country emptied (it was the collector's: back to Discogs); note changed.
        h.type([.tab, .tab, .tab, .control("u")])
        h.type("1988")
        h.type([.tab, .tab, .tab, .tab, .control("u"), .tab, .control("u")])
        h.type("signed")
        let sent = h.type([.enter])
        #expect(sent == [.session(.edit(1, RecordEdit(values: RecordFields(year: 1988), clear: [.country], note: .set("signed"))))])
        #expect(h.state.mode == .list)
    }

    @Test func nWalksWhatNeedsAPerson() {
        var h = Harness()
        #expect(h.type([.character("N")]) == [.session(.loadNeedsPerson)])
        #expect(h.send(.needsPerson([5, 6])) == [.loadDetails(5)])
        h.send(.details(AppStateTests.details(id: 5, state: .ambiguous, candidates: SnapshotTests.candidates)))
        #expect(h.lines[1].hasPrefix(" Needs a person: 1 of 2 · Enter: choose · s: search · m: by hand · x: leave it"))
        // Enter chooses: the picker, then on to the next.
        h.type([.enter])
        h.type("553")
        let chose = h.type([.enter])
        #expect(chose == [.choose(recordID: 5, releaseID: 12), .session(.loadNeedsPerson)])
        #expect(h.state.mode == .needs)
        #expect(h.send(.needsPerson([6])) == [.loadDetails(6)])
        h.send(.details(AppStateTests.details(id: 6, state: .notFound)))
        // m enters it by hand.
        h.type([.character("m")])
        guard case .form(let form) = h.state.mode, form.purpose == .handEntry(recordID: 6) else {
            Issue.record("no entry by hand for record 6")
            return
        }
        h.type("A")
        h.type([.tab])
        h.type("T")
        #expect(h.type([.enter]) == [
            .session(.enterByHand(RecordFields(artist: "A", title: "T"), for: 6)), .session(.loadNeedsPerson),
        ])
        h.send(.needsPerson([]))
        #expect(h.lines[2].contains("Nothing more needs a person."))
        h.type([.escape])
        #expect(h.state.mode == .list && h.state.walk == nil)
    }

    @Test func xLeavesARecordAsItIs() {
        var h = Harness()
        h.type([.character("N")])
        h.send(.needsPerson([5, 6]))
        #expect(h.type([.character("x")]) == [.loadDetails(6)])
        #expect(h.type([.character("x")]).isEmpty)
        #expect(h.lines[2].contains("Nothing more needs a person (2 left as they were)."))
    }

    @Test func theHelpListsTheNewKeysAndContexts() {
        var h = Harness(width: 100, height: 110)
        h.type([.character("?")])
        let text = h.screen.text
        for context in [KeyContext.picker, .form, .needs] {
            #expect(text.contains(context.rawValue))
            if let note = context.note { #expect(text.contains(note)) }
        }
        #expect(text.contains("walk the records that need a person"))
    }
}
