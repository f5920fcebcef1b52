import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The import that re-counts each batch's keys inside its write transaction
/// (`importEntries(_:copies:)`), `addIfAbsent`, and what a failed import says it kept
/// (issue 12, items 1 and 9).
@Suite struct ImportBatchTests {
    private func entries(_ lines: [(gtin: Int?, release: Int?)]) -> ImportEntries {
        ImportEntries(lines.enumerated().compactMap { index, line in
            ImportEntry(line: index + 1, gtin: line.gtin.map(Fixtures.gtin), releaseID: line.release)
        })
    }

    @Test(arguments: StoreKind.allCases)
    func nLinesOfAKeyAreNCopiesInAll(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))  // 1 of the 3 wanted
        let file = entries([(1, nil), (2, nil), (1, nil), (1, nil), (3, 77), (nil, 77), (4, nil)])
        // Batches of 2: a key's lines fall in several batches, each re-counted.
        let first = try await store.importEntries(file, copies: false, batchSize: 2)
        #expect(first.added == 5 && first.present == 1 && first.needsDiscogs == 1 && first.processed == 7)
        #expect(try await store.copies(of: Fixtures.gtin(1)) == 3)
        #expect(try await store.copies(of: [.release(77)]) == [.release(77): 1])
        // Again: nothing twice.
        let again = try await store.importEntries(file, copies: false, batchSize: 3)
        #expect(again.added == 0 && again.present == 6 && again.needsDiscogs == 1)
        // --copies: every line with a barcode, whatever is there.
        let copies = try await store.importEntries(file, copies: true)
        #expect(copies.added == 6)
        #expect(try await store.outline().rowCount == 12)
        try await expectOutlineMatchesSections(store)
    }

    /// The task cancelled after the second batch's commit (from its progress, which runs in
    /// the importing task): the third is never begun.
    @Test func stoppedBetweenBatches() async throws {
        let store = try CollectionStore.inMemory()
        let entries = entries((1...10).map { ($0, nil) })
        let outcome = try await Task {
            try await store.importEntries(
                entries, copies: false, batchSize: 3,
                progress: { _, processed in if processed == 6 { withUnsafeCurrentTask { $0?.cancel() } } })
        }.value
        #expect(outcome.stopped && outcome.added == 6 && outcome.processed == 6)
        #expect(try await store.outline().rowCount == 6)
    }

    @Test func addIfAbsentByBarcodeAndByRelease() async throws {
        let store = try CollectionStore.inMemory()
        let new = NewRecord(gtin: Fixtures.gtin(5), addMethod: .typed)
        guard case .added(let record) = try await store.addIfAbsent(new) else { throw Failure("not added") }
        #expect(record.gtin == Fixtures.gtin(5))
        #expect(try await store.addIfAbsent(new) == .present(copies: 1))
        #expect(try await store.addIfAbsent(new, copiesWanted: 2) != .present(copies: 1))
        // A row known by its release: the second copy of release 9 is wanted once.
        let byRelease = NewRecord(gtin: Fixtures.gtin(6), addMethod: .import, release: release(9))
        guard case .added = try await store.addIfAbsent(byRelease, copiesWanted: 1, countedBy: .release(9)) else { throw Failure("not added") }
        #expect(try await store.addIfAbsent(byRelease, copiesWanted: 1, countedBy: .release(9)) == .present(copies: 1))
    }

    /// Another program's transaction outlasting one busy timeout (0.2 s here) makes a batch
    /// wait, saying so once, and the import goes through once the lock goes; held past
    /// every attempt, the import fails saying how long it waited, nothing of the batch written.
    @Test(.enabled(if: SQLiteLock.shell != nil))
    func aBatchWaitsForAnotherProgramsLock() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let store = try CollectionStore(path: path, busyTimeout: 0.2)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(99), addMethod: .typed))  // the file exists, in WAL mode
        let lock = SQLiteLock(path: path)
        try await lock.acquire()
        let said = LockBox(0)
        let importing = Task {
            try await store.importEntries(
                entries([(1, nil), (2, nil)]), copies: false, waitingForLock: { said.withLock { $0 += 1 } })
        }
        try await waitUntil("the batch waits for the lock") { said.value == 1 }
        #expect(await lock.release()?.status == 0)
        let outcome = try await importing.value
        #expect(outcome.added == 2 && said.value == 1)

        // Held past every attempt (6 of 0.2 s): refused, saying how long it waited.
        let held = SQLiteLock(path: path)
        try await held.acquire()
        var refused: StoreError?
        do throws(CollectionStore.ImportWriteError) {
            _ = try await store.importEntries(entries([(3, nil)]), copies: false)
        } catch {
            refused = error.error
        }
        #expect(refused == .locked(seconds: 0.2 * Double(CollectionStore.importLockAttempts)))
        #expect(await held.release()?.status == 0)
        #expect(try await store.copies(of: Fixtures.gtin(3)) == 0)
    }

    /// "the disk is full after 10,003 of 50,000": what was kept, and that re-running finishes.
    @Test func aFailedImportSaysWhatItKept() {
        var outcome = CollectionStore.ImportOutcome()
        outcome.added = 10_000
        outcome.present = 3
        outcome.processed = 10_003
        let full = CollectionStore.ImportWriteError(error: .diskFull, outcome: outcome, total: 50_000)
        #expect(full.description == "the disk is full after 10003 of 50000 lines: 10000 records were added and kept; "
            + "free some space, then run the same import again to add the rest")
        let locked = CollectionStore.ImportWriteError(error: .locked(seconds: 10), outcome: CollectionStore.ImportOutcome(), total: 5)
        #expect(locked.description == "another program holds the collection locked (crates waited up to 10 s); try again: nothing was imported")
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
