import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

@Suite struct ObservationTests {
    @Test(arguments: StoreKind.allCases)
    func anObserverSeesTheStartAndEveryChange(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let seen = LockBox<[[CollectionSection]]>()
        let errors = LockBox<[StoreError]>()
        let observation = try store.observeSections(onError: errors.append) { seen.append($0) }
        defer { observation.cancel() }
        try await waitUntil("seen.last == []") { seen.last == [] }

        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .wedge))
        try await waitUntil("seen.last?.map(\\.name) == [\"Unknown\"]") { seen.last?.map(\.name) == ["Unknown"] }
        try await store.choose(release(1, title: "Post", genres: ["Electronic"]), for: record.id)
        try await waitUntil("seen.last?.first?.rows.first?.title == \"Post\"") { seen.last?.first?.rows.first?.title == "Post" }
        try await store.delete([record.id])
        try await waitUntil("seen.last == []") { seen.last == [] }
        #expect(errors.all.isEmpty)
    }

    /// A commit notifies every live observer in one pass, before `add` returns; a second
    /// observer, still live, is the sentinel: once it has the new count, the pass has run
    /// its course, and the cancelled observer was not in it.
    @Test func aCancelledObserverHearsNothingMore() async throws {
        let store = try CollectionStore.inMemory()
        let seen = LockBox<[Int]>()
        let observation = try store.observeWindow(RowWindow(offset: 0, limit: 10), onError: { _ in }) {
            seen.append($0.outline.rowCount)
        }
        try await waitUntil("the first value") { seen.last == 0 }
        let sentinel = LockBox<[Int]>()
        let live = try store.observeWindow(RowWindow(offset: 0, limit: 10), onError: { _ in }) {
            sentinel.append($0.outline.rowCount)
        }
        defer { live.cancel() }
        try await waitUntil("the sentinel's first value") { sentinel.last == 0 }
        observation.cancel()
        let count = seen.all.count
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .wedge))
        try await waitUntil("the live observer sees the new record") { sentinel.last == 1 }
        #expect(seen.all.count == count, "the cancelled observer heard \(seen.all)")
    }

    @Test func aWindowObserverFollowsItsWindow() async throws {
        let store = try CollectionStore.inMemory()
        _ = try await store.addAll((0..<50).map { NewRecord(gtin: Fixtures.gtin($0), addMethod: .import) })
        let seen = LockBox<[CollectionWindow]>()
        let observation = try store.observeWindow(RowWindow(offset: 0, limit: 10), onError: { _ in }) { seen.append($0) }
        defer { observation.cancel() }
        try await waitUntil("seen.last?.rows.first?.gtin == Fixtures.gtin(0).canonical") { seen.last?.rows.first?.gtin == Fixtures.gtin(0).canonical }
        observation.move(to: RowWindow(offset: 40, limit: 10))
        try await waitUntil("seen.last?.window.offset == 40") { seen.last?.window.offset == 40 }
        let window = try #require(seen.last)
        #expect(window.rows.map(\.gtin) == (40..<50).map { Fixtures.gtin($0).canonical })
        #expect(window.outline.rowCount == 50)
    }

    /// Another process's commit (here another store, so another pool and connections on the
    /// same file: neither sees the other's writes but through the file) reaches the
    /// observer. The 100 ms is measured by the benchmark; here only a generous
    /// deadline.
    @Test func aCommitByAnotherConnectionReachesTheObserver() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let observing = try CollectionStore(path: path)
        let writing = try CollectionStore(path: path)
        let seen = LockBox<[CollectionWindow]>()
        let observation = try observing.observeWindow(RowWindow(offset: 0, limit: 60), onError: { _ in }) { seen.append($0) }
        defer { observation.cancel() }
        try await waitUntil("seen.last?.outline.rowCount == 0") { seen.last?.outline.rowCount == 0 }

        let record = try await writing.add(NewRecord(gtin: Fixtures.gtin(77), addMethod: .import))
        try await waitUntil("the other connection's record") { seen.last?.rows.map(\.recordID) == [record.id] }
        try await writing.choose(release(3, artist: "坂本龍一", title: "B-2 Unit", genres: ["Electronic"]), for: record.id)
        try await waitUntil("the other connection's match, in its section") { seen.last?.outline.sections.map(\.name) == ["Electronic"] }
    }

    @Test func twoConnectionsWritingAtOnceBothSucceed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let first = try CollectionStore(path: path)
        let second = try CollectionStore(path: path)
        // A bulk import in one, single scans in the other, interleaved.
        async let bulk = first.addAll((0..<3_000).map { NewRecord(gtin: Fixtures.gtin($0), addMethod: .import) }, batchSize: 200)
        @Sendable func scan() async throws -> [Int64] {
            var ids: [Int64] = []
            for n in 0..<100 { ids.append(try await second.add(NewRecord(gtin: Fixtures.gtin(10_000 + n), addMethod: .wedge)).id) }
            return ids
        }
        async let singles = scan()
        let (bulkIDs, singleIDs) = try await (bulk, singles)
        #expect(Set(bulkIDs).isDisjoint(with: singleIDs))
        #expect(try await first.outline().rowCount == 3_100)
        #expect(try await second.outline().rowCount == 3_100)
        #expect(try await second.integrityProblems().isEmpty)
    }
}
