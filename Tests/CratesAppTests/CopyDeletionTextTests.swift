import Testing

@testable import CratesApp

/// What `crates delete` says of copies deleted here that Discogs still lists: the words of
/// the notice (no one to ask), the question at a terminal and the no, for one copy and
/// several (the question is asked only at a terminal, so the process tests see the notice
/// alone).
@Suite("CopyDeletion: what is said of copies still on Discogs")
struct CopyDeletionTextTests {
    @Test("one copy, then three: the notice, the question and the no")
    func words() {
        var one = CopyDeletion.Outcome()
        one.onDiscogs = [5_000_000_001]
        #expect(one.stillOnDiscogsNotice == "1 copy deleted here is still in your Discogs collection: `crates sync --delete` removes it there")
        #expect(one.stillOnDiscogsQuestion.fact == "1 copy deleted here is still in your Discogs collection.")
        #expect(one.stillOnDiscogsQuestion.question == "Remove it from Discogs too?")
        #expect(one.keptOnDiscogs == "Kept on Discogs: `crates sync --delete` removes it there later.")
        var three = CopyDeletion.Outcome()
        three.onDiscogs = [1, 2, 3]
        #expect(three.stillOnDiscogsNotice == "3 copies deleted here are still in your Discogs collection: `crates sync --delete` removes them there")
        #expect(three.stillOnDiscogsQuestion.fact == "3 copies deleted here are still in your Discogs collection.")
        #expect(three.stillOnDiscogsQuestion.question == "Remove them from Discogs too?")
        #expect(three.keptOnDiscogs == "Kept on Discogs: `crates sync --delete` removes them there later.")
    }
}
