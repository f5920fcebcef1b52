import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Grading per copy (issue 16), and what the sync's tables show of a copy.
@Suite("Grading and Discogs links in the store")
struct GradingTests {
    @Test("grading is kept per copy, read back, and survives a delete and its undo", arguments: StoreKind.allCases)
    func gradingRoundTrip(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        _ = directory
        let first = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, release: release(7)))
        let second = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, release: release(7)))
        #expect(first.grading == .none)
        let change = RecordEdit(
            note: .set("seam split"), grading: CopyGradingChange(media: .set(.veryGoodPlus), sleeve: .set(.notGraded), rating: try Rating(4)))
        let graded = try await store.edit(first.id, change)
        #expect(graded.grading == CopyGrading(media: .veryGoodPlus, sleeve: .notGraded, rating: try Rating(4)))
        #expect(graded.note == "seam split")
        #expect(try await store.record(second.id)?.grading == CopyGrading.none, "copies are graded apart")
        let deleted = try await store.delete([first.id])
        try await store.restore(deleted)
        #expect(try await store.record(first.id)?.grading == graded.grading)
        let cleared = try await store.edit(first.id, RecordEdit(note: .clear, grading: CopyGradingChange(media: .clear)))
        #expect(cleared.grading.media == nil && cleared.note == nil && cleared.grading.rating.value == 4)
        #expect(try await store.details(first.id)?.history.contains { $0.message.hasPrefix("edited: note \"seam split\", media \"Very Good Plus (VG+)\"") } == true)
        await #expect(throws: StoreError.recordNotFound(99)) { try await store.edit(99, change) }
    }

    @Test("an imported Discogs export row keeps its grading")
    func importedGrading() async throws {
        let store = try CollectionStore.inMemory()
        let entry = try #require(ImportEntry(
            line: 2, gtin: Fixtures.gtin(3), grading: CopyGrading(media: .good, sleeve: .generic, rating: try Rating(2))))
        let ids = try await store.importEntries([entry])
        #expect(try await store.record(ids[0])?.grading == entry.grading)
    }

    @Test("a sync's page: a pulled copy is matched, without a barcode, a copy of its release; links and counts show in the details")
    func pulledCopy() async throws {
        let store = try CollectionStore.inMemory()
        var changes = CollectionStore.SyncPageChanges()
        let key = DiscogsInstanceKey(folderID: 1, releaseID: 7, instanceID: 5_000_000_123)
        changes.pulled.append(.init(
            key: key, release: release(7, artist: "Björk", title: "Homogenic"), addedAt: Date(timeIntervalSince1970: 1_600_000_000),
            values: SyncedValues(rating: Rating(clamping: 3), media: .mint, notes: "from Discogs")))
        let ids = try await store.applySyncPage(changes)
        let details = try #require(try await store.details(ids[0]))
        #expect(details.record.lookupState == .matched && details.record.gtin == nil && details.record.addMethod == .discogs)
        // Keyed by its release: the duplicate rules count it among the release's copies.
        #expect(try await store.copies(of: [.release(7)]) == [.release(7): 1])
        #expect(details.record.grading == CopyGrading(media: .mint, rating: Rating(clamping: 3)))
        #expect(details.record.note == "from Discogs")
        // The link carries what Discogs holds, to show beside the copy's own values.
        #expect(details.discogs == DiscogsCopyLink(
            instanceID: key.instanceID, releaseID: 7, folderID: 1,
            discogsValues: SyncedValues(rating: Rating(clamping: 3), media: .mint, notes: "from Discogs")))
        #expect(details.discogsCopies == 1)
        #expect(try await store.sections().first?.name == "Rock")
        // The release already stored in full is never replaced by basic_information.
        var again = CollectionStore.SyncPageChanges()
        again.pulled.append(.init(
            key: DiscogsInstanceKey(folderID: 1, releaseID: 7, instanceID: 5_000_000_124), release: release(7, title: "less"),
            addedAt: Date(), values: .empty))
        try await store.applySyncPage(again)
        #expect(try await store.details(ids[0])?.release?.title == "Homogenic")
        #expect(try await store.discogsCopies(ofRelease: 7) == 2)
    }
}
