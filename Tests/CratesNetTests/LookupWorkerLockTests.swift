import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Synchronization
import Testing

@testable import CratesNet

/// A lookup whose result cannot be written yet, because another process holds the
/// database's lock for longer than the busy timeout, is retried until it is written, and
/// counted only then (issue 12, item 3). A real store file, a real `sqlite3` holding
/// `BEGIN EXCLUSIVE`, the real transport against the loopback server.
@Suite struct LookupWorkerLockTests {
    @Test(.enabled(if: SQLiteLock.shell != nil))
    func aResultIsRetriedUntilWrittenAndCountedOnlyThen() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = NSTemporaryDirectory() + "crates-lock-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/crates.sqlite"
        // A short busy timeout, so that "longer than the busy timeout" takes a moment.
        let store = try CollectionStore(path: path, busyTimeout: 0.2)
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin("5099750442227"), addMethod: .typed))

        // The lock is taken once the worker has claimed the record: its lookup then runs,
        // and its result meets the lock.
        let queue = LockAfterClaim(store: store, path: path)
        let clock = TestClock()
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock)), policy: .noHedge)
        let running = Task { await worker.run() }

        // Refused again and again (each attempt waits out the 0.2 s busy timeout), the pauses
        // between the attempts on virtual time…
        try await waitUntil("three refused writes") {
            if let next = clock.sleeping.first { clock.advance(by: next) }
            return await worker.statistics.writeRetries >= 3
        }
        #expect(try await server.stats().searches.contains { $0.contains("5099750442227") })  // the lookup itself is done
        // …and not counted as done, nor written: the record is still being looked up.
        let before = await worker.statistics
        #expect(before.done == 0 && before.matched == 0)
        #expect(try await store.record(record.id)?.lookupState == .lookingUp)

        // The lock goes: the result is written, then counted.
        #expect(await queue.lock.release()?.status == 0)
        try await waitUntil("the result written") {
            if let next = clock.sleeping.first { clock.advance(by: next) }  // the pause before the next attempt
            return try await store.record(record.id)?.lookupState == .matched
        }
        try await waitUntil("the result counted") { await worker.statistics.matched == 1 }
        await worker.stop()
        #expect(await running.value == .stopped)
        let after = await worker.statistics
        #expect(after.done == 1 && after.matched == 1 && after.unwritten == 0)
        #expect(try await store.details(record.id)?.release?.id == 10_507_194)
    }
}

/// The store's queue, which has `sqlite3` take the database's write lock right after the
/// first claim, and keep it until `lock.release()`.
final class LockAfterClaim: LookupQueue {
    let store: CollectionStore
    let lock: SQLiteLock

    init(store: CollectionStore, path: String) {
        self.store = store
        lock = SQLiteLock(path: path)
    }

    func claimNext(now: Date, lease: TimeInterval) async throws -> LookupJob? {
        let job = try await store.claimNext(now: now, lease: lease)
        if job != nil { try await lock.acquire() }
        return job
    }

    func complete(_ job: LookupJob, with outcome: LookupOutcome) async throws { try await store.complete(job, with: outcome) }
    func release(_ job: LookupJob) async throws { try await store.release(job) }
    func waitingCount() async throws -> Int { try await store.waitingCount() }
}
