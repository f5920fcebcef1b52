import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

@Suite struct RecordsTests {
    @Test(arguments: StoreKind.allCases)
    func addReturnsTheStoredRow(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let addedAt = Date(timeIntervalSince1970: 1_700_000_000.123_456)
        let record = try await store.add(
            NewRecord(gtin: Fixtures.gtin(42), addedAt: addedAt, addMethod: .camera, note: "signed", location: "crate 3"))
        #expect(record.gtin == Fixtures.gtin(42))
        #expect(record.addedAt == addedAt)
        #expect(record.addMethod == .camera)
        #expect(record.note == "signed")
        #expect(record.location?.pathText == "crate 3")
        #expect(record.lookupState == .pending)
        #expect(record.releaseID == nil)
        #expect(record.lookupAttempts == 0)
        #expect(try await store.record(record.id) == record)

        let matched = try await store.add(NewRecord(gtin: Fixtures.gtin(43), addMethod: .releaseID, release: release(249_504)))
        #expect(matched.lookupState == .matched)
        #expect(matched.releaseID == 249_504)
        #expect(try await store.details(matched.id)?.release == release(249_504))
        #expect(try await store.waitingCount() == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func duplicatesStayTwoRows(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let first = try await store.add(NewRecord(gtin: Fixtures.gtin(7), addMethod: .wedge))
        let second = try await store.add(NewRecord(gtin: Fixtures.gtin(7), addMethod: .wedge))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(8), addMethod: .wedge))
        #expect(first.id != second.id)
        #expect(try await store.copies(of: Fixtures.gtin(7)) == 2)
        #expect(try await store.copies(of: Fixtures.gtin(8)) == 1)
        #expect(try await store.copies(of: Fixtures.gtin(9)) == 0)
        #expect(try await store.sections().flatMap(\.rows).map(\.recordID).filter { [first.id, second.id].contains($0) }.count == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func bulkAddCommitsInBatchesAndReturnsIdsInOrder(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let news = (0..<2_345).map { NewRecord(gtin: Fixtures.gtin($0 % 1_000), addMethod: .import) }
        let progress = LockBox<[Int]>()
        let ids = try await store.addAll(news, batchSize: 1_000) { progress.append($0) }
        #expect(ids.count == 2_345)
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        #expect(progress.all == [1_000, 2_000, 2_345])
        #expect(try await store.outline().rowCount == 2_345)
        #expect(try await store.copies(of: Fixtures.gtin(5)) == 3)
        #expect(try await store.record(ids[1_234])?.gtin == Fixtures.gtin(234))
        #expect(try await store.addAll([]).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func deleteThenUndoRestoresIdenticalRows(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let matched = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addMethod: .wedge, note: "first pressing"))
        let failed = try await store.add(NewRecord(gtin: Fixtures.gtin(3), addMethod: .camera, location: "shelf"))
        let ambiguous = try await store.add(NewRecord(gtin: Fixtures.gtin(4), addMethod: .import))
        // Give them history and varied lookup states.
        let now = Date()
        for (record, outcome) in [
            (matched, LookupOutcome.matched(release(10, artist: "Björk", title: "Homogenic"))),
            (failed, .failed(message: "HTTP 503", retryAt: now.addingTimeInterval(300))),
            (ambiguous, .ambiguous([
                ReleaseCandidate(releaseID: 1, artist: "Björk", title: "Post", country: "UK", year: 1995, formats: ["CD"]),
                ReleaseCandidate(releaseID: 2, artist: "Björk", title: "Post", country: "US"),
            ])),
        ] {
            let job = try #require(try await store.claimNext(now: now, lease: 60))
            #expect(job.recordID == record.id)
            try await store.complete(job, with: outcome)
        }
        let keep = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        let ids = [matched.id, failed.id, ambiguous.id]
        let before = try await ids.asyncMap { try #require(try await store.details($0)) }
        let sectionsBefore = try await store.sections()

        let deleted = try await store.delete(ids + [9_999])
        #expect(deleted.map(\.record) == before.map(\.record))
        #expect(deleted.map(\.history) == before.map(\.history))
        #expect(deleted.allSatisfy { !$0.history.isEmpty })
        #expect(try await store.record(matched.id) == nil)
        #expect(try await store.outline().rowCount == 1)

        // A record added meanwhile does not take a deleted id.
        let added = try await store.add(NewRecord(gtin: Fixtures.gtin(5), addMethod: .typed))
        #expect(!ids.contains(added.id))
        try await store.delete([added.id])

        try await expectOutlineMatchesSections(store)
        try await store.restore(deleted)
        try await expectOutlineMatchesSections(store)
        let after = try await ids.asyncMap { try #require(try await store.details($0)) }
        #expect(after == before)
        #expect(try await store.sections() == sectionsBefore)
        // Undoing twice changes nothing.
        try await store.restore(deleted)
        #expect(try await ids.asyncMap { try await store.details($0) } == before)
        #expect(try await store.record(keep.id) == keep)
    }

    @Test func detailsOfAMissingRecordIsNil() async throws {
        let store = try CollectionStore.inMemory()
        #expect(try await store.details(1) == nil)
        #expect(try await store.delete([1]).isEmpty)
        await #expect(throws: StoreError.recordNotFound(1)) { try await store.choose(release(1), for: 1) }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
