import CratesCore
import Testing

/// The three-way merge of one copy's values against the last sync's.
@Suite("CopyMerge: crates, Discogs and the last sync")
struct CopyMergeTests {
    static let base = SyncedValues(rating: Rating(clamping: 3), media: .veryGood, sleeve: .good, notes: "first press")

    @Test("changed only in crates: pushed; the base waits for Discogs to take it")
    func cratesOnly() {
        let crates = Self.base.with(.rating, from: SyncedValues(rating: Rating(clamping: 5)))
        let merge = CopyMerge(base: Self.base, crates: crates, discogs: Self.base)
        #expect(merge.push == [.rating] && merge.take.isEmpty && merge.conflicts.isEmpty)
        #expect(merge.newBase == Self.base && !merge.baseChanged)
    }

    @Test("changed only on Discogs: taken, and the base moves")
    func discogsOnly() {
        var discogs = Self.base
        discogs.media = .nearMint
        discogs.notes = nil
        let merge = CopyMerge(base: Self.base, crates: Self.base, discogs: discogs)
        #expect(merge.take == [.media, .notes] && merge.push.isEmpty)
        #expect(merge.newBase == discogs && merge.baseChanged)
    }

    @Test("changed on both sides differently: a conflict, left alone until --prefer")
    func both() {
        var crates = Self.base
        crates.sleeve = .noCover
        var discogs = Self.base
        discogs.sleeve = .generic
        let merge = CopyMerge(base: Self.base, crates: crates, discogs: discogs)
        #expect(merge.conflicts == [.sleeve] && merge.push.isEmpty && merge.take.isEmpty && merge.newBase == Self.base)
        #expect(CopyMerge(base: Self.base, crates: crates, discogs: discogs, prefer: .crates).push == [.sleeve])
        let discogsWins = CopyMerge(base: Self.base, crates: crates, discogs: discogs, prefer: .discogs)
        #expect(discogsWins.take == [.sleeve] && discogsWins.newBase.sleeve == .generic)
    }

    @Test("changed on both sides to the same value: nothing to send, the base moves")
    func sameChange() {
        var both = Self.base
        both.rating = Rating(clamping: 1)
        let merge = CopyMerge(base: Self.base, crates: both, discogs: both)
        #expect(merge.isQuiet && merge.newBase == both && merge.baseChanged)
    }

    @Test("a copy never synced: what one side has goes to the other; two different values conflict")
    func firstLink() {
        let crates = SyncedValues(rating: Rating(clamping: 4), media: .mint)
        let discogs = SyncedValues(media: .poor, notes: "from a fair")
        let merge = CopyMerge(base: .empty, crates: crates, discogs: discogs)
        #expect(merge.push == [.rating] && merge.take == [.notes] && merge.conflicts == [.media])
    }

    @Test("notes compare as Discogs keeps them: CRLF, tabs and blank notes are not changes")
    func notesNormalised() {
        #expect(SyncedValues(notes: "a\r\nb\tc") == SyncedValues(notes: "a\nb c"))
        #expect(SyncedValues(notes: "  \n") == SyncedValues(notes: nil))
        #expect(SyncedValues(grading: CopyGrading(rating: Rating(clamping: 2)), note: "x").text(.rating) == "2")
        #expect(SyncedValues().text(.rating) == nil, "not rated is no value")
    }
}

@Suite("Grading per copy")
struct CopyGradingTests {
    @Test("a change sets, clears or keeps each value; typed grades in full or short, a blank one clears")
    func change() throws {
        let graded = CopyGrading(media: .veryGoodPlus, sleeve: .generic, rating: try Rating(4))
        let change = CopyGradingChange(media: .clear, rating: try Rating(2))
        #expect(change.applied(to: graded) == CopyGrading(sleeve: .generic, rating: try Rating(2)))
        #expect(CopyGradingChange().applied(to: graded) == graded)
        #expect(CopyGradingChange().isEmpty && !change.isEmpty)
        #expect(graded.summary == "VG+/Generic ★★★★☆")
        #expect(CopyGrading.none.summary.isEmpty && CopyGrading.none.isEmpty)
        #expect(try CopyGradingChange.checked(media: "vg+", sleeve: " ", rating: "3")
            == CopyGradingChange(media: .set(.veryGoodPlus), sleeve: .clear, rating: try Rating(3)))
        #expect(try CopyGradingChange.checked(media: nil, sleeve: nil, rating: nil).isEmpty)
        #expect(throws: RecordFieldError.self) { try CopyGradingChange.checked(media: "shiny", sleeve: nil, rating: nil) }
        #expect(throws: RecordFieldError.self) { try CopyGradingChange.checked(media: nil, sleeve: nil, rating: "7") }
    }

    @Test("an edit carries grades beside the collector's values and the note, and says what it does")
    func edit() throws {
        let edit = try RecordEdit.checked(values: [.year: "1974"], note: "signed", media: "NM", rating: "0")
        #expect(edit.grading == CopyGradingChange(media: .set(.nearMint), rating: .unrated))
        #expect(edit.summary == "year \"1974\", note \"signed\", media \"Near Mint (NM or M-)\", rating removed")
        #expect(!RecordEdit(grading: CopyGradingChange(sleeve: .clear)).isEmpty && RecordEdit().isEmpty)
    }
}
