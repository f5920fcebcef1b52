import CratesCore
import CratesTestSupport
import Foundation
import Testing
@testable import CratesTUI

/// The UI's hints about one record, as state: digits in the rating picker, `o` in the list,
/// the next step for a barcode Discogs does not know, a duplicate naming the record, and the
/// genres offered as a genre is typed by hand.
@Suite("TUI: a record's hints")
struct RecordHintsStateTests {
    @Test("in the rating picker a digit sets that many stars at once, 0 clears, 6 is refused; the media picker leaves digits to scans")
    func ratingDigits() {
        var h = GradingAndSyncTests.inDetails()
        h.type("*")
        #expect(h.lines.contains { $0.contains("3  ★★★☆☆") })
        #expect(h.type("3") == [.session(.grade(recordID: 1, CopyGradingChange(rating: Rating(clamping: 3))))])
        #expect(h.state.prompt == nil)
        guard case .details(let state) = h.state.mode else { Issue.record("left the details"); return }
        #expect(state.picker == nil)

        h.type("*")
        #expect(h.type("0") == [.session(.grade(recordID: 1, CopyGradingChange(rating: Rating(clamping: 0))))])
        h.type("*")
        #expect(h.type("6").isEmpty)
        #expect(h.lines[23].contains("A rating is 0 to 5 stars"))
        guard case .details(let still) = h.state.mode else { Issue.record("left the details"); return }
        #expect(still.picker?.kind == .rating)
        h.type([.escape])

        // The media picker has no digits: one starts barcode entry, as anywhere outside a field.
        h.type("M")
        h.type("5")
        #expect(h.state.prompt?.text == "5")
    }

    @Test("o in the list asks the session for the record's page and stays in the list")
    func openFromList() {
        var h = Harness()
        let id = h.state.selectedItem?.recordID ?? 0
        #expect(h.type("o") == [.session(.openPage(recordID: id))])
        guard case .list = h.state.mode else { Issue.record("not the list: \(h.state.mode)"); return }
    }

    @Test("the details of a barcode Discogs does not know say s and m; m there enters that record by hand")
    func notFoundNextStep() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let record = CollectionRecord(
            id: 1, gtin: Fixtures.gtin("5099750442227"), addedAt: date, addMethod: .wedge, lookupState: .notFound, updatedAt: date)
        var h = GradingAndSyncTests.inDetails(RecordDetails(record: record, release: nil, history: []))
        #expect(h.lines.contains { $0.contains("Next") && $0.contains("s: search Discogs") && $0.contains("m: enter it by hand") })
        #expect(h.type("m") == [.session(.loadGenres)])
        guard case .form(let form) = h.state.mode else { Issue.record("no form: \(h.state.mode)"); return }
        #expect(form.purpose == .handEntry(recordID: 1))

        // A matched record is described already: m says e edits it.
        var matched = GradingAndSyncTests.inDetails()
        #expect(matched.type("m").isEmpty)
        #expect(matched.lines[23].contains("e edits its values"))
        #expect(!GradingAndSyncTests.inDetails().lines.contains { $0.contains("m: enter it by hand") })
    }

    @Test("a duplicate scan's question names the record when its copy has a title, the barcode before")
    func duplicateNamed() {
        let gtin = Fixtures.gtin("5099750442227")
        var question = AddQuestion(entry: .barcode(gtin), gtin: gtin, method: .wedge, kind: .anotherCopy(copies: 1), allowing: [])
        #expect(question.text == "5099750442227: already have 1 copy: add another?")
        question.title = "The Beatles — Abbey Road"
        #expect(question.text == "The Beatles — Abbey Road: already have 1 copy: add another?")
        var h = Harness()
        h.send(.ask(question))
        #expect(h.lines[23] == "The Beatles — Abbey Road: already have 1 copy: add another? (y/N)")
    }

    @Test("the entry by hand offers the collection's genres under the genre field; Tab takes the first, then moves on")
    func genresOffered() {
        var h = Harness()
        #expect(h.type("m") == [.session(.loadGenres)])
        h.send(.genres(["Rock", "Folk, World, & Country"]))
        h.type([.tab, .tab])
        #expect(h.lines.contains { $0.hasPrefix(" Genres: Rock · Folk, World, & Country · Blues") }, "every genre before typing")
        h.type("folk")
        #expect(h.lines.contains { $0.contains("Genres: Folk, World, & Country (Tab)") }, "\(h.lines)")
        h.type([.tab])
        guard case .form(let form) = h.state.mode else { Issue.record("no form"); return }
        #expect(form.fields[form.focused].key == .genre && form.fields[form.focused].text == "Folk, World, & Country")
        h.type([.tab])
        guard case .form(let moved) = h.state.mode else { Issue.record("no form"); return }
        #expect(moved.fields[moved.focused].key == .year)

        // Something no genre begins is a new section, said so.
        h.type([.backTab, .control("u")])
        h.type("Shoegaze")
        #expect(h.lines.contains { $0.contains("“Shoegaze” makes a new section") })
        h.type([.tab])
        guard case .form(let next) = h.state.mode else { Issue.record("no form"); return }
        #expect(next.fields[next.focused].key == .year && next.fields[next.focused - 1].text == "Shoegaze")
    }

    @Test("genres offered: the collection's first, then Discogs'; begun by the text or a word of it; Tab's spelling is the section's")
    func genreMatching() {
        let known = ["Rock & Roll", "Rock", "Folk, World, & Country"]
        #expect(GenreSuggestions.matching("country", known: known) == ["Folk, World, & Country"])
        #expect(GenreSuggestions.matching("ROCK", known: known) == ["Rock", "Rock & Roll"])
        #expect(GenreSuggestions.matching("", known: known).prefix(4) == ["Rock & Roll", "Rock", "Folk, World, & Country", "Blues"])
        #expect(GenreSuggestions.matching("elec", known: []) == ["Electronic"])
        #expect(GenreSuggestions.completion(of: "rock", known: known) == "Rock")
        #expect(GenreSuggestions.completion(of: "Rock", known: known) == nil)
        #expect(GenreSuggestions.completion(of: "", known: known) == nil)
        #expect(GenreSuggestions.completion(of: "Shoegaze", known: known) == nil)
    }
}
