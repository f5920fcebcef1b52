import CratesCore
import CratesStore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The import that re-counts each batch's keys inside its write transaction
/// (`importEntries(_:copies:)`), `addIfAbsent`, what a failed import says it kept, and
/// `ImportInput`'s reading (issue 12, items 1, 6, 9).
@Suite struct ImportBatchTests {
    private func entries(_ lines: [(gtin: Int?, release: Int?)]) -> ImportEntries {
        ImportEntries(lines.enumerated().compactMap { index, line in
            ImportEntry(line: index + 1, gtin: line.gtin.map(makeGTIN), releaseID: line.release)
        })
    }

    @Test(arguments: StoreKind.allCases)
    func nLinesOfAKeyAreNCopiesInAll(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        _ = try await store.add(NewRecord(gtin: makeGTIN(1), addMethod: .typed))  // 1 of the 3 wanted
        let file = entries([(1, nil), (2, nil), (1, nil), (1, nil), (3, 77), (nil, 77), (4, nil)])
        // Batches of 2: a key's lines fall in several batches, each re-counted.
        let first = try await store.importEntries(file, copies: false, batchSize: 2)
        #expect(first.added == 5 && first.present == 1 && first.needsDiscogs == 1 && first.processed == 7)
        #expect(try await store.copies(of: makeGTIN(1)) == 3)
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

    @Test func stoppedBetweenBatches() async throws {
        let store = try CatalogueStore.inMemory()
        let asked = Counter()
        let outcome = try await store.importEntries(
            entries((1...10).map { ($0, nil) }), copies: false, batchSize: 3,
            shouldContinue: { asked.next() < 2 })
        #expect(outcome.stopped && outcome.added == 6 && outcome.processed == 6)
    }

    @Test func addIfAbsentByBarcodeAndByRelease() async throws {
        let store = try CatalogueStore.inMemory()
        let new = NewRecord(gtin: makeGTIN(5), addMethod: .typed)
        guard case .added(let record) = try await store.addIfAbsent(new) else { throw Failure("not added") }
        #expect(record.gtin == makeGTIN(5))
        #expect(try await store.addIfAbsent(new) == .present(copies: 1))
        #expect(try await store.addIfAbsent(new, copiesWanted: 2) != .present(copies: 1))
        // A row known by its release: the second copy of release 9 is wanted once.
        let byRelease = NewRecord(gtin: makeGTIN(6), addMethod: .import, release: release(9))
        guard case .added = try await store.addIfAbsent(byRelease, copiesWanted: 1, countedBy: .release(9)) else { throw Failure("not added") }
        #expect(try await store.addIfAbsent(byRelease, copiesWanted: 1, countedBy: .release(9)) == .present(copies: 1))
    }

    /// "the disk is full after 10,003 of 50,000": what was kept, and that re-running finishes.
    @Test func aFailedImportSaysWhatItKept() {
        var outcome = CatalogueStore.ImportOutcome()
        outcome.addedIDs = Array(1...10_000)
        outcome.present = 3
        outcome.processed = 10_003
        let full = CatalogueStore.ImportWriteError(error: .diskFull, outcome: outcome, total: 50_000)
        #expect(full.description == "the disk is full after 10003 of 50000 lines: 10000 records were added and kept; "
            + "free some space, then run the same import again to add the rest")
        let locked = CatalogueStore.ImportWriteError(error: .locked(seconds: 10), outcome: CatalogueStore.ImportOutcome(), total: 5)
        #expect(locked.description == "another program kept the collection locked for more than 10 s; try again: nothing was imported")
    }

    @Test func inputIsReadInChunksAndStopsWhenAsked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("gtins.txt")
        try (1...20_000).map { makeGTIN($0).canonical }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        guard case .complete(let file) = try ImportInput.read(path: path) else { throw Failure("not read to the end") }
        #expect(file.entries.count == 20_000 && file.lineCount == 20_000)

        // /dev/zero: refused by its first chunk.
        #expect(throws: ImportInput.Failure.content(name: "/dev/zero", .binary(offset: 0))) {
            try ImportInput.read(path: "/dev/zero")
        }
        #expect(throws: ImportInput.Failure.cannotOpen(path: directory.path, reason: "it is a directory: name a file of barcodes")) {
            try ImportInput.read(path: directory.path)
        }

        // A pipe that sends a line and then nothing: a SIGINT (here, `shouldContinue`) stops
        // the waiting read.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = "5099750442227\n".withCString { write(fds[1], $0, 14) }
        let asked = Counter()
        let result = try ImportInput.read(descriptor: fds[0], name: "stdin", shouldContinue: { asked.next() < 3 })
        guard case .stopped(let bytes) = result else { throw Failure("not stopped") }
        #expect(bytes == 14)
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Counts calls, from any thread.
final class Counter: @unchecked Sendable {
    // `@unchecked Sendable`: `count` is only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0

    /// The number of calls before this one.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count - 1
    }
}
