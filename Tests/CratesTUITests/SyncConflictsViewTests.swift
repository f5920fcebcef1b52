import CratesCore
import Foundation
import Testing
@testable import CratesTUI

/// After `S`: the summary shown whole (wrapped, never cut at the edge), the conflicts view
/// (`C`) with both values side by side and a choice per copy or for all, and the details'
/// "Discogs: ★★ (yours ★★★★)".
@Suite("TUI: a sync's summary and its conflicts")
struct SyncConflictsViewTests {
    static let summary =
        "Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed, 0 linked, 0 updated, 1 conflict, 0 removed, 1 removed from Discogs; "
        + "4 requests used. C shows the conflict: keep crates' value or take Discogs'."

    static let conflicts = [
        SyncCopyConflict(
            recordID: 1, instanceID: 5_000_000_001, title: "The Persuader — Stockholm",
            fields: [.init(field: .rating, crates: "4", discogs: "2"), .init(field: .notes, crates: "mine", discogs: "theirs")]),
        SyncCopyConflict(
            recordID: 2, instanceID: 5_000_000_002, title: "HammerFall — Glory To The Brave",
            fields: [.init(field: .media, crates: "Mint (M)", discogs: "Very Good Plus (VG+)")]),
    ]

    @Test("a summary longer than the width wraps over the bottom lines, the list and the status line make room")
    func summaryWraps() {
        var h = Harness()
        h.send(.message(Self.summary, isError: false))
        // Three lines at 80 columns, under the status line.
        let bottom = Array(h.lines.suffix(4))
        #expect(bottom.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == Self.summary, "\(h.lines)")
        #expect(bottom[0].contains("records"), "the status line above it: \(bottom)")
        #expect(h.state.listHeight == 19)
        // A short message takes one line again.
        h.send(.message("Deleted 1 record: u to undo", isError: false))
        #expect(h.lines[23] == "Deleted 1 record: u to undo" && h.lines[22].contains("records"))
        #expect(h.state.listHeight == 21)
        // A message longer than a third of the screen is cut on its last line.
        var small = Harness(width: 40, height: 10)
        small.send(.message(Self.summary, isError: false))
        #expect(small.state.messageLines.count == 2 && small.lines[9].hasSuffix("…"))
    }

    @Test("C opens the conflicts; both values side by side; c and d choose for one copy, C and D for all after a y")
    func conflictsView() throws {
        var h = Harness()
        #expect(h.type("C") == [.session(.loadSyncConflicts)])
        #expect(h.lines[0].contains("conflicts with Discogs"))
        h.send(.syncConflicts(Self.conflicts))
        let text = h.lines.joined(separator: "\n")
        #expect(text.contains("3 conflicts (2 copies): changed on both sides since the last sync"), "\(text)")
        #expect(h.lines.contains { $0.contains("field") && $0.contains("crates") && $0.contains("Discogs") })
        let rating = try #require(h.lines.first { $0.contains("rating") && $0.contains("★★★★") })
        #expect(rating.split(separator: " ") == ["rating", "★★★★", "★★"], "field, crates' value, Discogs' value: \(rating)")
        #expect(h.lines.contains { $0.contains("notes") && $0.contains("mine") && $0.contains("theirs") })
        #expect(h.lines.contains { $0.contains("media condition") && $0.contains("Mint (M)") && $0.contains("Very Good Plus (VG+)") })

        #expect(h.type("c") == [.session(.settleConflicts(recordIDs: [1], toward: .crates))])
        h.send(.syncConflicts(Array(Self.conflicts.dropFirst())))
        #expect(h.type("d") == [.session(.settleConflicts(recordIDs: [2], toward: .discogs))])
        h.send(.syncConflicts(Self.conflicts))
        #expect(h.type("D").isEmpty)
        #expect(h.lines.contains { $0.contains("Take Discogs' values of every copy? (y/N)") })
        #expect(h.type("n").isEmpty)
        #expect(h.type("C").isEmpty)
        #expect(h.type("y") == [.session(.settleConflicts(recordIDs: [1, 2], toward: .crates))])
        h.send(.syncConflicts([]))
        #expect(h.lines.contains { $0.contains("No conflicts with Discogs.") })
        h.type([.escape])
        #expect(h.state.mode == .list)
    }

    @Test("the details show Discogs' value under the copy's: a conflict, or a change the next sync sends")
    func detailsLine() {
        let graded = CopyGrading(media: .nearMint, rating: Rating(clamping: 4))
        let link = DiscogsCopyLink(
            instanceID: 5_000_000_001, releaseID: 7, folderID: 1, folderName: "Uncategorized",
            discogsValues: SyncedValues(rating: Rating(clamping: 2), media: .veryGoodPlus), conflicts: [.rating])
        var h = GradingAndSyncTests.inDetails(GradingAndSyncTests.details(grading: graded, link: link))
        let text = h.lines.joined(separator: "\n")
        #expect(text.contains("Rating       ★★★★☆  · * to change\n              Discogs: ★★ (yours ★★★★) · a conflict: C chooses"), "\(text)")
        #expect(text.contains("Media        Near Mint (NM or M-)  · M to change\n              Discogs: Very Good Plus (VG+) (yours Near Mint (NM or M-)) · the\n              next sync (S) sends yours"), "\(text)")
        #expect(h.type("C") == [.session(.loadSyncConflicts)])
    }

    @Test("the help lists the conflicts view and its keys")
    func help() {
        let text = HelpText.lines(width: 80).map(\.text).joined(separator: "\n")
        #expect(text.contains("Conflicts with Discogs (C)"))
        #expect(text.contains("C                  conflicts with Discogs: choose crates' or Discogs' values"))
        #expect(text.contains("c                  keep crates' values of this copy (sent to Discogs)"))
        #expect(text.contains("d                  take Discogs' values of this copy"))
    }
}
