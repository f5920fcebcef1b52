import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// What `crates import` asks of the store: copies per key, batched import, pinned releases,
/// the read-only count of `--dry-run`, and the follow-up.
@Suite struct ImportTests {
    private func entry(_ line: Int, _ n: Int, release: Int? = nil, note: String? = nil, at: Date? = nil) -> ImportEntry? {
        ImportEntry(line: line, gtin: Fixtures.gtin(n), releaseID: release, note: note, addedAt: at, location: note.map { "crate \($0)" })
    }

    @Test(arguments: StoreKind.allCases)
    func copiesCountBarcodesAndReleases(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addMethod: .typed, release: release(77)))
        _ = try await store.importEntries([try #require(entry(1, 3, release: 88))])
        let keys: Set<ImportKey> = [.gtin(Fixtures.gtin(1)), .gtin(Fixtures.gtin(2)), .gtin(Fixtures.gtin(4)), .release(77), .release(88), .release(99)]
        let counts = try await store.copies(of: keys)
        #expect(counts == [.gtin(Fixtures.gtin(1)): 2, .gtin(Fixtures.gtin(2)): 1, .release(77): 1, .release(88): 1])

        // More barcodes than fit a bound list: the same answer from a whole-index scan.
        var many = Set((1000..<1700).map { ImportKey.gtin(Fixtures.gtin($0)) })
        many.insert(.gtin(Fixtures.gtin(1)))
        #expect(try await store.copies(of: many) == [.gtin(Fixtures.gtin(1)): 2])
    }

    @Test(arguments: StoreKind.allCases)
    func importedRecordsArePendingWithTheirDatesNotesAndPins(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let added = Date(timeIntervalSince1970: 1_600_000_000)
        let entries = [
            try #require(entry(1, 1, note: "signed", at: added)),
            try #require(entry(2, 2, release: 5_134_861)),
            try #require(ImportEntry(line: 3, gtin: nil, releaseID: 42)),  // no barcode: skipped here
        ]
        let ids = try await store.importEntries(entries)
        #expect(ids.count == 2)
        let first = try #require(try await store.record(ids[0]))
        #expect(first.addMethod == .import && first.lookupState == .pending)
        #expect(first.addedAt == added && first.note == "signed" && first.location?.pathText == "crate signed")
        #expect(first.releaseID == nil)

        // The pinned record's lookup job names its release; the other's does not.
        let jobs = [try await store.claimNext(now: Date(), lease: 60), try await store.claimNext(now: Date(), lease: 60)]
        #expect(jobs.map { $0?.recordID } == ids)
        #expect(jobs.map { $0?.releaseID } == [nil, 5_134_861])
        #expect(try await store.waitingCount() == 2)
        try await expectOutlineMatchesSections(store)
    }

    @Test func aPinnedReleaseAlreadyStoredMatchesAtOnce() async throws {
        let store = try CollectionStore.inMemory()
        let known = release(500, artist: "Known", title: "Cached", genres: ["Jazz"])
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(9), addMethod: .typed, release: known))
        let ids = try await store.importEntries([try #require(entry(1, 10, release: 500))])
        let details = try #require(try await store.details(ids[0]))
        #expect(details.record.lookupState == .matched && details.record.releaseID == 500)
        #expect(details.history.map(\.kind) == [.matched])
        #expect(try await store.sections().map(\.name) == ["Jazz"])
        try await expectOutlineMatchesSections(store)
    }

    @Test func batchesCommitOneByOneAndStopWhenAsked() async throws {
        let store = try CollectionStore.inMemory()
        let entries = try (0..<25).map { try #require(entry($0 + 1, $0)) }
        let progress = LockBox<[Int]>()
        // Cancelled after the second commit (its progress runs in the importing task).
        let ids = try await Task {
            try await store.importEntries(
                entries, batchSize: 10,
                progress: { n in
                    progress.withLock { $0.append(n) }
                    if n == 20 { withUnsafeCurrentTask { $0?.cancel() } }
                })
        }.value
        #expect(ids.count == 20)
        #expect(progress.withLock { $0 } == [10, 20])
        #expect(try await store.copies(of: Set(entries.map(\.key))).values.reduce(0, +) == 20)
    }

    @Test func dryRunCountsCreateNothing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("sub/crates.sqlite")
        let keys: Set<ImportKey> = [.gtin(Fixtures.gtin(1)), .release(5)]
        #expect(try CollectionStore.copies(of: keys, inFileAt: path) == [:])
        #expect(!FileManager.default.fileExists(atPath: directory.file("sub")))

        let filePath = directory.file("crates.sqlite")
        do {
            let store = try CollectionStore(path: filePath)
            _ = try await store.importEntries([try #require(entry(1, 1, release: 5))])
            _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        }
        // The writer is gone: its -wal and -shm went with it. Counting must not bring them back.
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(try CollectionStore.copies(of: keys, inFileAt: filePath) == [.gtin(Fixtures.gtin(1)): 2, .release(5): 1])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)

        let foreign = directory.file("notes.txt")
        try Data("not a database at all, just some text that is long enough to have a header".utf8).write(
            to: URL(fileURLWithPath: foreign))
        #expect(throws: StoreError.self) { try CollectionStore.copies(of: keys, inFileAt: foreign) }
    }

    @Test func followUpListsWhatNeedsAPersonAndWhatWaits() async throws {
        let store = try CollectionStore.inMemory()
        let ids = try await store.importEntries(try (1...5).map { try #require(entry($0, $0)) })
        #expect(try await store.dueLookups() == 5)
        let outcomes: [LookupOutcome] = [
            .matched(release(1)), .ambiguous([ReleaseCandidate(releaseID: 2, artist: "A", title: "T"),
                                              ReleaseCandidate(releaseID: 3, artist: "A", title: "T")]),
            .notFound, .failed(message: "HTTP 500", retryAt: Date().addingTimeInterval(3600)),
        ]
        for outcome in outcomes {
            let job = try #require(try await store.claimNext(now: Date(), lease: 60))
            try await store.complete(job, with: outcome)
        }
        #expect(try await store.dueLookups() == 1, "the pending one; the failed one is not due for an hour")
        #expect(try await store.dueLookups(now: Date().addingTimeInterval(7200)) == 2)

        let followUp = try await store.importFollowUp(gtins: Set((1...5).map(Fixtures.gtin)))
        #expect(followUp.needsPerson.map(\.id) == [ids[1], ids[2]])
        #expect(followUp.needsPerson.map(\.state) == [.ambiguous, .notFound])
        #expect(followUp.needsPerson.map(\.candidateCount) == [2, 0])
        #expect(followUp.pending == 1 && followUp.failed == 1)
        // Records of other barcodes are not this import's business (the queue's length is).
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(99), addMethod: .typed))
        let one = try await store.importFollowUp(gtins: [Fixtures.gtin(3)])
        #expect(one.needsPerson.map(\.id) == [ids[2]])
        #expect(one.pending == 2 && one.failed == 1)
    }
}
