import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

@Suite struct LookupQueueTests {
    private let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    private func add(_ store: CollectionStore, _ n: Int) async throws -> CollectionRecord {
        try await store.add(NewRecord(gtin: Fixtures.gtin(n), addedAt: t0, addMethod: .wedge))
    }

    @Test(arguments: StoreKind.allCases)
    func claimsPendingFirstThenDueFailuresThenExpiredLeases(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let a = try await add(store, 1)
        let b = try await add(store, 2)
        let c = try await add(store, 3)
        #expect(try await store.waitingCount() == 3)

        // Oldest pending first.
        let jobA = try #require(try await store.claimNext(now: t0, lease: 30))
        #expect(jobA == LookupJob(recordID: a.id, gtin: Fixtures.gtin(1), attempts: 0))
        #expect(try await store.record(a.id)?.lookupState == .lookingUp)
        #expect(try await store.record(a.id)?.claimedUntil == t0.addingTimeInterval(30))
        // a fails, to be retried at t0 + 100.
        try await store.complete(jobA, with: .failed(message: "HTTP 503", retryAt: t0.addingTimeInterval(100)))
        let failedA = try #require(try await store.record(a.id))
        #expect(failedA.lookupState == .failed)
        #expect(failedA.lookupError == "HTTP 503")
        #expect(failedA.retryAt == t0.addingTimeInterval(100))
        #expect(failedA.lookupAttempts == 1)
        #expect(failedA.claimedUntil == nil)

        // b is claimed (lease 30 s) and its claimer dies.
        let jobB = try #require(try await store.claimNext(now: t0, lease: 30))
        #expect(jobB.recordID == b.id)
        let jobC = try #require(try await store.claimNext(now: t0, lease: 30))
        #expect(jobC.recordID == c.id)
        try await store.complete(jobC, with: .notFound)

        // Nothing due: a waits for t0 + 100, b's lease holds until t0 + 30.
        #expect(try await store.claimNext(now: t0.addingTimeInterval(10), lease: 30) == nil)
        // The lease expired, the failure not yet due: b again, attempts unchanged.
        let jobB2 = try #require(try await store.claimNext(now: t0.addingTimeInterval(31), lease: 30))
        #expect(jobB2 == jobB)
        // A new pending record comes before a due failure.
        let d = try await add(store, 4)
        let jobD = try #require(try await store.claimNext(now: t0.addingTimeInterval(200), lease: 30))
        #expect(jobD.recordID == d.id)
        let jobA2 = try #require(try await store.claimNext(now: t0.addingTimeInterval(200), lease: 30))
        #expect(jobA2 == LookupJob(recordID: a.id, gtin: Fixtures.gtin(1), attempts: 1))
        #expect(try await store.waitingCount() == 3)  // a, b, d looking up; c not found
    }

    @Test(arguments: StoreKind.allCases)
    func everyOutcomeSetsItsStateAndHistory(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let candidates = [
            ReleaseCandidate(releaseID: 1, artist: "Björk", title: "Post", country: "UK", year: 1995, formats: ["CD, Album"], label: "One Little Indian", catno: "TPLP 51 CD"),
            ReleaseCandidate(releaseID: 2, artist: "Björk", title: "Post", country: "US"),
        ]
        let homogenic = release(249_504, artist: "Björk", title: "Homogenic", genres: ["Electronic", "Pop"])
        let cases: [(LookupOutcome, LookupState, LookupEvent.Kind)] = [
            (.matched(homogenic), .matched, .matched),
            (.ambiguous(candidates), .ambiguous, .ambiguous),
            (.notFound, .notFound, .notFound),
            (.failed(message: "timed out", retryAt: t0.addingTimeInterval(60)), .failed, .failed),
            (.skipped(reason: "an ISBN: a book, not a record"), .skipped, .skipped),
        ]
        for (index, (outcome, state, kind)) in cases.enumerated() {
            let record = try await add(store, index)
            let job = try #require(try await store.claimNext(now: t0, lease: 60))
            #expect(job.recordID == record.id)
            try await store.complete(job, with: outcome)
            let details = try #require(try await store.details(record.id))
            #expect(details.record.lookupState == state)
            #expect(details.record.lookupAttempts == 1)
            #expect(details.record.claimedUntil == nil)
            #expect(details.history.map(\.kind) == [kind])
            switch outcome {
            case .matched:
                #expect(details.release == homogenic)
                #expect(details.record.releaseID == 249_504)
            case .ambiguous:
                #expect(details.record.candidates == candidates)
                #expect(details.release == nil)
            case .failed:
                #expect(details.record.lookupError == "timed out")
                #expect(details.record.retryAt == t0.addingTimeInterval(60))
                #expect(details.history.first?.message == "timed out")
            case .skipped:
                #expect(details.record.skipReason == "an ISBN: a book, not a record")
            case .notFound:
                #expect(details.record.releaseID == nil)
            }
        }
        #expect(try await store.waitingCount() == 1)  // the failed one
        try await expectOutlineMatchesSections(store)
        let rows = try await store.sections().flatMap(\.rows)
        #expect(rows.first { $0.lookupState == .ambiguous }?.candidateCount == 2)
    }

    @Test func choosingACandidateMatchesTheRecord() async throws {
        let store = try CollectionStore.inMemory()
        let record = try await add(store, 1)
        let job = try #require(try await store.claimNext(now: t0, lease: 60))
        try await store.complete(job, with: .ambiguous([
            ReleaseCandidate(releaseID: 1, artist: "Björk", title: "Post"),
            ReleaseCandidate(releaseID: 2, artist: "Björk", title: "Post"),
        ]))
        try await store.choose(release(2, artist: "Björk", title: "Post", genres: ["Electronic"]), for: record.id, now: t0)
        let details = try #require(try await store.details(record.id))
        #expect(details.record.lookupState == .matched)
        #expect(details.record.releaseID == 2)
        #expect(details.record.candidates.isEmpty)
        #expect(details.history.map(\.kind) == [.ambiguous, .chosen])
        #expect(try await store.sections().map(\.name) == ["Electronic"])
    }

    @Test func retryPutsAnyStateBackInTheQueue() async throws {
        let store = try CollectionStore.inMemory()
        let skipped = try await add(store, 1)
        let job = try #require(try await store.claimNext(now: t0, lease: 60))
        try await store.complete(job, with: .skipped(reason: "an ISBN"))
        let matched = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addMethod: .releaseID, release: release(5)))
        #expect(try await store.waitingCount() == 0)

        try await store.retry([skipped.id, matched.id, 12_345], now: t0)
        for id in [skipped.id, matched.id] {
            let record = try #require(try await store.record(id))
            #expect(record.lookupState == .pending)
            #expect(record.lookupAttempts == 0)
            #expect(record.skipReason == nil)
        }
        // What it resolved to stays shown until the new lookup ends.
        #expect(try await store.record(matched.id)?.releaseID == 5)
        #expect(try await store.waitingCount() == 2)
        #expect(try await store.details(skipped.id)?.history.map(\.kind) == [.skipped, .retryRequested])
    }

    @Test func releasePutsAClaimBackAsItWas() async throws {
        let store = try CollectionStore.inMemory()
        let a = try await add(store, 1)
        let job = try #require(try await store.claimNext(now: t0, lease: 60))
        try await store.release(job)
        #expect(try await store.record(a.id)?.lookupState == .pending)
        #expect(try await store.record(a.id)?.claimedUntil == nil)

        let again = try #require(try await store.claimNext(now: t0, lease: 60))
        try await store.complete(again, with: .failed(message: "HTTP 429", retryAt: t0.addingTimeInterval(60)))
        let third = try #require(try await store.claimNext(now: t0.addingTimeInterval(61), lease: 60))
        try await store.release(third)
        let record = try #require(try await store.record(a.id))
        #expect(record.lookupState == .failed)
        #expect(record.lookupError == "HTTP 429")
        #expect(record.lookupAttempts == 1)
        // Due again at once.
        #expect(try await store.claimNext(now: Date(), lease: 60)?.recordID == a.id)
    }

    @Test func anOutcomeForARecordNoLongerLookingUpIsDropped() async throws {
        let store = try CollectionStore.inMemory()
        let a = try await add(store, 1)
        let b = try await add(store, 2)
        let jobA = try #require(try await store.claimNext(now: t0, lease: 60))
        let jobB = try #require(try await store.claimNext(now: t0, lease: 60))
        // The user deletes a, and picks a release for b, while their lookups run.
        try await store.delete([a.id])
        try await store.choose(release(7, title: "Chosen"), for: b.id)
        try await store.complete(jobA, with: .notFound)
        try await store.complete(jobB, with: .matched(release(8, title: "Found")))
        #expect(try await store.record(a.id) == nil)
        #expect(try await store.record(b.id)?.releaseID == 7)
        #expect(try await store.details(b.id)?.history.map(\.kind) == [.chosen])
    }

    /// Two stores on one file are two connections, as two processes would be: the claim is
    /// one IMMEDIATE transaction, so no record is handed out twice.
    @Test func twoStoresClaimingAtOnceNeverGetTheSameRecord() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let first = try CollectionStore(path: path)
        let second = try CollectionStore(path: path)
        let ids = try await first.addAll((0..<300).map { NewRecord(gtin: Fixtures.gtin($0), addMethod: .import) }, batchSize: 100)
        let now = Date()

        @Sendable func drain(_ store: CollectionStore) async throws -> [Int64] {
            var claimed: [Int64] = []
            while let job = try await store.claimNext(now: now, lease: 600) { claimed.append(job.recordID) }
            return claimed
        }
        async let fromFirst = drain(first)
        async let fromSecond = drain(second)
        let (a, b) = try await (fromFirst, fromSecond)
        #expect(Set(a).isDisjoint(with: b))
        #expect(a.count + b.count == ids.count)
        #expect(Set(a + b) == Set(ids))
    }
}
