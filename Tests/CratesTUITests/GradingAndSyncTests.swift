import CratesCore
import CratesTestSupport
import Foundation
import Testing
@testable import CratesTUI

/// `S` (sync, with its progress on the status line and its question after), and the details
/// view's `M`, `V` and `*` pickers.
@Suite("TUI: sync and grading keys")
struct GradingAndSyncTests {
    static let homogenic = Release(id: 7, artist: "Björk", title: "Homogenic", genres: ["Electronic"])

    static func details(grading: CopyGrading = .none, link: DiscogsCopyLink? = nil, copies: Int = 0) -> RecordDetails {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let record = CollectionRecord(
            id: 1, gtin: Fixtures.gtin("5099750442227"), addedAt: date, addMethod: .wedge, releaseID: 7, lookupState: .matched,
            updatedAt: date, grading: grading)
        return RecordDetails(record: record, release: homogenic, history: [], discogs: link, discogsCopies: copies)
    }

    /// The harness in the details of record 1, its details loaded.
    static func inDetails(_ details: RecordDetails = details()) -> Harness {
        var h = Harness()
        h.type([.enter])
        h.send(.details(details))
        return h
    }

    @Test("offline, the details of a copy matched from its search result say when the rest comes, not that it is on its way")
    func detailsOffline() {
        var details = Self.details()
        details.release = Release(id: 7, artist: "Björk", title: "Homogenic", genres: ["Electronic"], hasFullDetails: false)
        var h = Self.inDetails(details)
        // The value wraps: its lines read as one text.
        func detailsLine() -> String {
            h.lines.drop { !$0.hasPrefix(" Details") }.prefix(3).joined(separator: " ").split(separator: " ").joined(separator: " ")
        }
        h.send(.discogs(.signedIn(username: "ada")))
        #expect(detailsLine().contains("is on its way from Discogs"), "\(h.lines)")
        h.send(.discogs(.offline))
        #expect(!detailsLine().contains("on its way"), "\(h.lines)")
        #expect(detailsLine().contains("comes from Discogs once it can be reached"), "\(h.lines)")
        h.send(.discogs(.notSignedIn))
        #expect(detailsLine().contains("comes from Discogs once you sign in"), "\(h.lines)")
    }

    @Test("S asks the session to sync; the status line follows the progress; the question after is y/N")
    func sync() {
        var h = Harness()
        #expect(h.type("S") == [.session(.sync)])
        #expect(h.lines[23] == "Syncing with Discogs…")
        h.send(.sync(.reading(done: 300, total: 5_000)))
        #expect(h.lines[22].contains("sync: reading 300/5,000"))
        h.send(.sync(.pushing(done: 1, total: 3)))
        #expect(h.lines[22].contains("sync: pushing 1/3"))
        h.send(.sync(.idle))
        #expect(!h.lines[22].contains("sync"))

        let question = SyncQuestion(
            text: "2 copies deleted here are still on Discogs: remove them there too?",
            yes: .removeFromDiscogs(instanceIDs: [5_000_000_001, 5_000_000_002]), declined: "Kept on Discogs: 2 copies")
        h.send(.syncQuestion(question))
        #expect(h.lines[23] == "2 copies deleted here are still on Discogs: remove them there too? (y/N)")
        #expect(h.type("y") == [.session(.removeFromDiscogs(instanceIDs: [5_000_000_001, 5_000_000_002]))])
        h.send(.message("Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed.", isError: false))
        h.send(.syncQuestion(question))
        #expect(h.lines[22] == "Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed.", "the summary stays above the question")
        #expect(h.type("n").isEmpty)
        #expect(h.lines[23] == "Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed. Kept on Discogs: 2 copies", "the no adds to the summary")
        #expect(h.state.syncQuestion == nil)
    }

    @Test("the first sync's plan asks y/N: y runs it as planned, anything else cancels with nothing sent")
    func firstSyncPlan() {
        var h = Harness()
        #expect(h.type("S") == [.session(.sync)])
        let plan = SyncPlan(push: 121, folder: "Uncategorized", pull: 13, conflicts: 1)
        h.send(.syncPlan(plan))
        #expect(h.lines[23] == "First sync: push 121 copies to Uncategorized, pull 13, 1 conflict: go? (y/N)")
        #expect(!h.lines[22].contains("Syncing"), "the question stands alone: \(h.lines)")
        #expect(h.type("y") == [.session(.syncAsPlanned)])
        #expect(h.state.syncQuestion == nil)

        h.send(.syncPlan(plan))
        #expect(h.type("n").isEmpty)
        #expect(h.lines[23] == "Not synced: nothing sent to Discogs, nothing changed here")
        h.send(.syncPlan(SyncPlan(push: 1, folder: "Uncategorized", pull: 0, conflicts: 0)))
        #expect(h.lines[23] == "First sync: push 1 copy to Uncategorized, pull 0, 0 conflicts: go? (y/N)")
        #expect(h.type("S").isEmpty, "any other key cancels; it is not taken as a command")
        #expect(h.state.syncQuestion == nil)
    }

    @Test("not signed in: the UI names its own way in (A), after what asked")
    func notSignedInNamesA() {
        var h = Harness()
        h.send(.notSignedIn(need: "Sync needs Discogs"))
        #expect(h.state.message?.text == "Sync needs Discogs: not signed in to Discogs: A in the list signs in (a token, or OAuth)")
        #expect(h.state.message?.isError == true)
        h.send(.notSignedIn(need: nil))
        #expect(h.state.message?.text == "not signed in to Discogs: A in the list signs in (a token, or OAuth)")
    }

    @Test("while a sync runs, the status line shows the time it has left at Discogs' rate")
    func syncTimeLeft() {
        var h = Harness()
        h.send(.sync(.pushing(done: 53, total: 199)))
        h.send(.syncTimeLeft(150))
        #expect(h.lines[22].contains("sync: pushing 53/199 · 3 min left"), "\(h.lines)")
        h.send(.sync(.pushing(done: 54, total: 199)))
        #expect(h.lines[22].contains("sync: pushing 54/199 · 3 min left"), "\(h.lines)")
        h.send(.sync(.idle))
        #expect(!h.lines[22].contains("left"))
        h.send(.sync(.reading(done: 100, total: 5_000)))
        #expect(h.lines[22].contains("sync: reading 100/5,000") && !h.lines[22].contains("left"), "a new sync starts without the old figure")
    }

    @Test("a narrow status line keeps the sync as its short form")
    func narrowStatus() {
        var h = Harness(width: 40, height: 10)
        h.send(.sync(.reading(done: 1_200, total: 5_000)))
        #expect(h.lines[8].contains("syncing") || h.lines[8].contains("sync: reading"))
    }

    @Test("the details show the grades, the rating and where the copy stands on Discogs")
    func detailsLines() {
        let graded = CopyGrading(media: .veryGoodPlus, sleeve: .generic, rating: Rating(clamping: 4))
        let h = Self.inDetails(Self.details(
            grading: graded, link: DiscogsCopyLink(instanceID: 5_000_000_001, releaseID: 7, folderID: 7, folderName: "Vinyl"), copies: 2))
        let text = h.lines.joined(separator: "\n")
        #expect(text.contains("Media        Very Good Plus (VG+)  · M to change"))
        #expect(text.contains("Sleeve       Generic  · V to change"))
        #expect(text.contains("Rating       ★★★★☆  · * to change"))
        #expect(text.contains("Collection   on Discogs, in \"Vinyl\" · 2 copies of this release on Discogs"))
        let removed = Self.inDetails(Self.details(link: DiscogsCopyLink(instanceID: 1, releaseID: 7, folderID: 1, removedOnDiscogs: true)))
        #expect(removed.lines.contains { $0.contains("Collection   removed on Discogs") })
        #expect(Self.inDetails().lines.contains { $0.contains("Collection   not on Discogs yet (S syncs)") })
    }

    @Test("the details show the place and the grades together; M, e and the place's keys live side by side")
    func placeAndGrades() {
        var details = Self.details(grading: CopyGrading(media: .nearMint, rating: Rating(clamping: 2)))
        details.record.location = Location(id: 5, name: "Crate A3", parentID: 4, ancestors: ["Living Room", "Shelf 2"])
        var h = Self.inDetails(details)
        let text = h.lines.joined(separator: "\n")
        #expect(text.contains("Location     Crate A3 (Living Room › Shelf 2)"))
        #expect(text.contains("Media        Near Mint (NM or M-)  · M to change") && text.contains("Rating       ★★☆☆☆  · * to change"))
        #expect(KeyMap.action(for: .character("M"), in: .details) == .mediaGrade)
        #expect(KeyMap.action(for: .character("e"), in: .details) == .edit)
        #expect(KeyMap.action(for: .character("S"), in: .list) == .sync)
        #expect(KeyMap.action(for: .character("L"), in: .list) == .locations)
        h.type("M")
        #expect(h.type([.character("k"), .enter]) == [.session(.grade(recordID: 1, CopyGradingChange(media: .set(.mint))))])
    }

    @Test("M opens the media grades on the current one; Enter sets the one chosen; Esc leaves it")
    func mediaPicker() {
        var h = Self.inDetails(Self.details(grading: CopyGrading(media: .veryGood)))
        #expect(h.type("M").isEmpty)
        #expect(h.lines.contains { $0.contains("Media condition: Enter sets it, Esc leaves it") })
        #expect(h.lines.contains { $0.contains("▸ Very Good (VG)") })
        #expect(h.type([.up]).isEmpty)
        #expect(h.type([.enter]) == [.session(.grade(recordID: 1, CopyGradingChange(media: .set(.veryGoodPlus))))])
        guard case .details(let state) = h.state.mode else {
            Issue.record("still in the details")
            return
        }
        #expect(state.picker == nil)
        h.type("M")
        h.type([.character("g"), .enter])
        #expect(h.commands.last == .session(.grade(recordID: 1, CopyGradingChange(media: .clear))), "the first row: not graded")
        h.type("M")
        #expect(h.type([.down, .escape]).isEmpty)
        guard case .details(let after) = h.state.mode else {
            Issue.record("Esc closes the picker, not the details")
            return
        }
        #expect(after.picker == nil)
    }

    @Test("V offers the sleeve's own states; * the ratings; a digit starts barcode entry in a grade picker, sets the stars in the rating's")
    func sleeveAndRating() {
        var h = Self.inDetails()
        h.type("V")
        h.type([.character("G")])
        #expect(h.lines.contains { $0.contains("▸ Not Graded") })
        #expect(h.type([.enter]) == [.session(.grade(recordID: 1, CopyGradingChange(sleeve: .set(.notGraded))))])
        h.type("*")
        #expect(h.lines.contains { $0.contains("▸ 0  not rated") })
        h.type([.down, .down, .down])
        #expect(h.type([.enter]) == [.session(.grade(recordID: 1, CopyGradingChange(rating: Rating(clamping: 3))))])
        h.type("V")
        h.type("4")
        #expect(h.state.prompt?.text == "4", "a wedge scanner's digits are never a grade")
        h.type([.escape, .escape])
        h.type("*")
        #expect(h.type("4") == [.session(.grade(recordID: 1, CopyGradingChange(rating: Rating(clamping: 4))))])
        #expect(h.state.prompt == nil, "the rating picker's digits are its stars")
    }

    @Test("the help lists S, M, V and *")
    func help() {
        let text = HelpText.lines(width: 80).map(\.text).joined(separator: "\n")
        #expect(text.contains("S                  sync with your Discogs collection"))
        #expect(text.contains("M                  media condition"))
        #expect(text.contains("V                  sleeve condition"))
        #expect(text.contains("*                  rating, 0 to 5 stars"))
    }
}
