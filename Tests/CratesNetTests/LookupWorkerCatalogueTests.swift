import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Synchronization
import Testing

@testable import CratesNet

/// The local catalogue before Discogs: the worker over a real store in a temporary file, an
/// in-memory twin of the catalogue, the real libcurl transport and the loopback server, on
/// virtual time.
@Suite("The catalogue before Discogs")
struct LookupWorkerCatalogueTests {
    static let june = CatalogueEdition(dumpDate: "20260601")

    /// A release as the catalogue lists it.
    static func release(_ id: Int) -> Release {
        Release(
            id: id, artist: "Artist \(id)", title: "Title \(id)", genres: ["Electronic"], formats: ["Vinyl, LP"], year: 1990,
            labels: [.init(name: "Label", catno: "CAT \(id)")], hasFullDetails: false)
    }

    /// A collection in a temporary file with a pending record of each barcode, in order.
    private func collection(_ gtins: [GTIN]) async throws -> (TemporaryDirectory, CollectionStore, [Int64]) {
        let directory = try TemporaryDirectory(prefix: "crates-catalogue-worker")
        let store = try CollectionStore(path: directory.file("crates.sqlite"))
        let ids = try await store.addAll(gtins.map { NewRecord(gtin: $0, addMethod: .import) })
        return (directory, store, ids)
    }

    /// Runs `worker` until `done` holds, moving `clock` on through its pauses, then stops it.
    private func drive(
        _ worker: LookupWorker, _ clock: TestClock, until what: String, progress: (() async throws -> Int)? = nil,
        _ done: @escaping @Sendable () async throws -> Bool
    ) async throws {
        let running = Task { await worker.run() }
        defer { running.cancel() }
        do {
            try await advancing(clock, worker, until: what, progress: progress, done)
        } catch {
            await finish(worker, running)
            throw error
        }
        await finish(worker, running)
    }

    private func state(_ store: CollectionStore, _ id: Int64) async throws -> LookupState? {
        try await store.record(id)?.lookupState
    }

    @Test("a barcode the catalogue knows costs no request; one it does not goes to Discogs")
    func catalogueFirst() async throws {
        let server = try await DiscogsTestServer.start()
        let unknown = try GTIN.parse("5099750442227").gtin  // on the loopback server, not in the catalogue
        let catalogue = InMemoryReleaseCatalogue([(Self.release(1), [ean(1)]), (Self.release(2), [ean(2)]), (Self.release(3), [ean(2)])])
        let (directory, store, ids) = try await collection([ean(1), ean(2), unknown])
        defer { _ = directory }  // the collection's file lives as long as the test
        let clock = TestClock()
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock)), catalogue: catalogue,
            policy: .noHedge)
        try await drive(worker, clock, until: "every record settled") { try await store.waitingCount() == 0 }

        let stats = try await server.stats()
        #expect(stats.requests == 1, "only the barcode the catalogue does not know: \(stats.searches)")
        #expect(stats.searches == ["5099750442227"])
        let one = try #require(try await store.details(ids[0]))
        #expect(one.record.lookupState == .matched && one.record.releaseID == 1)
        #expect(one.record.catalogueEdition == Self.june)
        #expect(one.release?.hasFullDetails == false, "its full details come from Discogs on demand")
        #expect(one.history.last?.message.contains("from Discogs' data of 2026-06-01") == true, "\(one.history)")
        let several = try #require(try await store.record(ids[1]))
        #expect(several.lookupState == .ambiguous && several.candidates.map(\.releaseID) == [2, 3])
        let online = try #require(try await store.record(ids[2]))
        #expect(online.lookupState == .matched && online.releaseID == 10_507_194 && online.catalogueEdition == nil)
        let counted = await worker.statistics
        #expect(counted.fromCatalogue == 2 && counted.requests == 1 && counted.done == 3)
    }

    @Test("Discogs unreachable: what the catalogue knows is final; the rest waits, saying why")
    func unreachable() async throws {
        let server = try await DiscogsTestServer.start()
        let clock = TestClock()
        let client = try virtualClient(server, clock: clock)
        await server.stop()  // connections refused from now on
        let catalogue = InMemoryReleaseCatalogue([(Self.release(1), [ean(1)])])
        let (directory, store, ids) = try await collection([ean(1), ean(9)])
        defer { _ = directory }  // the collection's file lives as long as the test
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: client), catalogue: catalogue, policy: .noHedge)
        try await drive(worker, clock, until: "the unknown record failed") { try await state(store, ids[1]) == .failed }

        #expect(try await state(store, ids[0]) == .matched)
        let waiting = try #require(try await store.record(ids[1]))
        #expect(waiting.lookupError == "not in the catalogue of 2026-06-01; waiting for Discogs")
        #expect(waiting.statusText == "not in the catalogue of 2026-06-01; waiting for Discogs")
        #expect(waiting.catalogueEdition == Self.june)
        #expect(await worker.unreachableBecause != nil)
    }

    @Test("without an account the catalogue still answers; the rest waits, no request sent")
    func noAccount() async throws {
        let server = try await DiscogsTestServer.start()
        let clock = TestClock()
        let catalogue = InMemoryReleaseCatalogue([(Self.release(1), [ean(1)])])
        let (directory, store, ids) = try await collection([ean(1), ean(9)])
        defer { _ = directory }  // the collection's file lives as long as the test
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock, credentials: nil)),
            catalogue: catalogue, asksDiscogs: false, policy: .noHedge)
        let running = Task { await worker.run() }
        // The drive's way to know it is over: nothing more this worker can settle.
        var events = worker.events.makeAsyncIterator()
        var settled: [Int64] = []
        while let event = await events.next() {
            if case .settled(let id, _, let requests) = event {
                settled.append(id)
                #expect(requests == 0)
            }
            if event == .nothingDue { break }
        }
        await finish(worker, running)

        #expect(settled == [ids[0]])
        #expect(try await state(store, ids[0]) == .matched)
        let waiting = try #require(try await store.record(ids[1]))
        #expect(waiting.lookupState == .pending)
        #expect(waiting.statusText == "not in the catalogue of 2026-06-01; waiting for Discogs")
        #expect(try await server.stats().requests == 0)
    }

    @Test("a newer catalogue: matched records keep their release, what the older one lacked is asked again")
    func newerCatalogue() async throws {
        let server = try await DiscogsTestServer.start()
        let (directory, store, ids) = try await collection([ean(1), ean(2)])
        defer { _ = directory }  // the collection's file lives as long as the test
        let may = InMemoryReleaseCatalogue(edition: "20260501", [(Self.release(1), [ean(1)])])
        // Release 1 is gone from June's dump (merged on Discogs); ean(2) is new in it.
        let june = InMemoryReleaseCatalogue(edition: "20260601", [(Self.release(2), [ean(2)])])
        for catalogue in [may, june] {
            let clock = TestClock()
            let worker = LookupWorker(
                queue: store, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock, credentials: nil)),
                catalogue: catalogue, asksDiscogs: false, policy: .noHedge)
            let edition = catalogue.edition.dumpDate
            try await drive(worker, clock, until: "every record asked of \(edition)") {
                for id in ids where try await store.record(id)?.catalogueEdition == nil { return false }
                return try await store.record(ids[1])?.catalogueEdition?.dumpDate == edition
            }
        }
        let kept = try #require(try await store.record(ids[0]))
        #expect(kept.lookupState == .matched && kept.releaseID == 1)
        #expect(kept.catalogueEdition?.dumpDate == "20260501", "matched from May's data, as it was")
        let found = try #require(try await store.record(ids[1]))
        #expect(found.lookupState == .matched && found.releaseID == 2 && found.catalogueEdition == Self.june)
        #expect(try await server.stats().requests == 0)
    }

    /// A catalogue replaced on disk while a run uses it: `replace()` builds the newer one,
    /// which the worker takes when it next asks (`takeReplacement`).
    final class ReplacedCatalogue: ReleaseCatalogue {
        private let state: Mutex<(current: InMemoryReleaseCatalogue, newer: InMemoryReleaseCatalogue?)>
        init(_ first: InMemoryReleaseCatalogue) { state = Mutex((first, nil)) }
        func replace(with newer: InMemoryReleaseCatalogue) { state.withLock { $0.newer = newer } }
        private var current: InMemoryReleaseCatalogue { state.withLock { $0.current } }
        var edition: CatalogueEdition { current.edition }
        func blockingReleases(barcode: GTIN) throws(ReleaseCatalogueError) -> [Release] { try current.blockingReleases(barcode: barcode) }
        func blockingSearch(_ query: ReleaseSearchQuery, limit: Int) throws(ReleaseCatalogueError) -> [Release] {
            try current.blockingSearch(query, limit: limit)
        }
        func blockingRelease(id: Int) throws(ReleaseCatalogueError) -> Release? { try current.blockingRelease(id: id) }
        func takeReplacement() -> Bool {
            state.withLock { state in
                guard let newer = state.newer else { return false }
                (state.current, state.newer) = (newer, nil)
                return true
            }
        }
    }

    @Test("a newer catalogue built while the worker runs: taken at its next look, and what the older one lacked is answered from it")
    func replacedWhileRunning() async throws {
        let server = try await DiscogsTestServer.start()
        let (directory, store, ids) = try await collection([ean(1), ean(2)])
        defer { _ = directory }  // the collection's file lives as long as the test
        let catalogue = ReplacedCatalogue(InMemoryReleaseCatalogue(edition: "20260501", [(Self.release(1), [ean(1)])]))
        let clock = TestClock()
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock, credentials: nil)),
            catalogue: catalogue, asksDiscogs: false, policy: .noHedge)
        let running = Task { await worker.run() }
        defer { running.cancel() }
        try await advancing(clock, worker, until: "ean(2) asked of May's catalogue") {
            try await store.record(ids[1])?.catalogueEdition?.dumpDate == "20260501"
        }
        #expect(try await state(store, ids[0]) == .matched)
        #expect(try await state(store, ids[1]) == .pending)

        // June's dump is built in its place; the idle worker's next look (no scan, no nudge)
        // takes it.
        catalogue.replace(with: InMemoryReleaseCatalogue(edition: "20260601", [(Self.release(2), [ean(2)])]))
        try await waitUntil("the worker idle again") { clock.sleeping.first != nil }
        clock.advance(by: ClaimPolicy().recheckInterval)
        try await advancing(clock, worker, until: "ean(2) matched from June's catalogue") {
            try await state(store, ids[1]) == .matched
        }
        await finish(worker, running)
        let found = try #require(try await store.record(ids[1]))
        #expect(found.releaseID == 2 && found.catalogueEdition == Self.june)
        let kept = try #require(try await store.record(ids[0]))
        #expect(kept.releaseID == 1 && kept.catalogueEdition?.dumpDate == "20260501", "matched from May's data, as it was")
        #expect(try await server.stats().requests == 0)
    }

    @Test("a record without a barcode is searched in the catalogue by its own values, as on Discogs")
    func describedRecords() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = try TemporaryDirectory(prefix: "crates-catalogue-worker")
        let store = try CollectionStore(path: directory.file("crates.sqlite"))
        var bowie = Self.release(7)
        bowie.artist = "David Bowie"
        bowie.title = "Low"
        let catalogue = InMemoryReleaseCatalogue([(Self.release(5), []), (Self.release(6), []), (bowie, [])])
        let described = [
            RecordFields(catno: "cat-5"),  // one catalogue number: matched
            RecordFields(artist: "Artist", title: "Title"),  // several fit: ambiguous
            RecordFields(artist: "bowie", title: "low"),  // one fits
            RecordFields(artist: "Nobody", title: "Nothing"),  // pressed after the dump: waits
        ]
        let ids = try await store.addAll(described.map { NewRecord(gtin: nil, addMethod: .import, collector: $0) })
        let clock = TestClock()
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock, credentials: nil)),
            catalogue: catalogue, asksDiscogs: false, policy: .noHedge)
        try await drive(worker, clock, until: "every record asked of the catalogue") {
            for id in ids where try await store.record(id)?.catalogueEdition == nil { return false }
            return true
        }
        #expect(try await store.record(ids[0])?.releaseID == 5)
        let several = try #require(try await store.record(ids[1]))
        #expect(several.lookupState == .ambiguous && several.candidates.map(\.releaseID) == [5, 6])
        #expect(try await store.record(ids[2])?.releaseID == 7)
        let waiting = try #require(try await store.record(ids[3]))
        #expect(waiting.lookupState == .pending && waiting.collector.artist == "Nobody")
        #expect(try await server.stats().requests == 0)
    }

    @Test("a catalogue that cannot be read: Discogs is asked, as without one")
    func failingCatalogue() async throws {
        let server = try await DiscogsTestServer.start()
        let catalogue = InMemoryReleaseCatalogue([(Self.release(1), [try GTIN.parse("5099750442227").gtin])])
        catalogue.setFailing(true)
        let (directory, store, ids) = try await collection([try GTIN.parse("5099750442227").gtin])
        defer { _ = directory }  // the collection's file lives as long as the test
        let clock = TestClock()
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock)), catalogue: catalogue,
            policy: .noHedge)
        try await drive(worker, clock, until: "the record settled") { try await store.waitingCount() == 0 }
        let record = try #require(try await store.record(ids[0]))
        #expect(record.lookupState == .matched && record.releaseID == 10_507_194 && record.catalogueEdition == nil)
        #expect(try await server.stats().requests == 1)
    }

    @Test("5,000 barcodes the catalogue knows, Discogs unreachable: every record final, no request")
    func aShelfOffline() async throws {
        let server = try await DiscogsTestServer.start()
        let clock = TestClock()
        let client = try virtualClient(server, clock: clock)
        await server.stop()
        let count = 5000
        let gtins = (1...count).map(ean)
        let catalogue = InMemoryReleaseCatalogue(gtins.enumerated().map { (Self.release($0.offset + 1), [$0.element]) })
        let (directory, store, _) = try await collection(gtins)
        defer { _ = directory }  // the collection's file lives as long as the test
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: client), catalogue: catalogue, policy: .noHedge)
        let started = ContinuousClock.now
        // Thousands of lookups: the wait's deadline runs from the last record settled, so a
        // loaded machine that settles them slowly passes and a worker that stops fails.
        try await drive(worker, clock, until: "every record final", progress: { try await store.waitingCount() }) {
            try await store.waitingCount() == 0
        }
        let took = ContinuousClock.now - started
        let counted = await worker.statistics
        #expect(counted.matched == count && counted.fromCatalogue == count && counted.requests == 0)
        // A figure for the report, not a timed assertion (a test never depends on speed).
        print("catalogue pass: \(count) records final in \(took)")
    }
}
