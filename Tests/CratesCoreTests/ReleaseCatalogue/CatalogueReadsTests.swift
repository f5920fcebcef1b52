import CratesCore
import CratesTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// The catalogue's reads, asked from async code, run on threads of their own: a slow one
/// (a full-text search over millions of releases) never holds a thread of the cooperative
/// pool, so the rest of the process goes on meanwhile.
@Suite struct CatalogueReadsTests {
    /// A catalogue whose reads block until the test lets them go, as a slow file would.
    final class HeldCatalogue: ReleaseCatalogue {
        let edition = CatalogueEdition(dumpDate: "20260601")
        let gate = DispatchSemaphore(value: 0)
        let entered = Mutex(0)
        /// Reads that were never let go: held on the pool, the test's task could not run to
        /// let them go, and each gave up after its deadline (a failure, not a hang).
        let abandoned = Mutex(0)

        private func held() {
            entered.withLock { $0 += 1 }
            // As long as any test waits: in a full run the pool is shared with a thousand
            // other tests, and the test's task may wait its turn for a minute.
            let deadline = Int(defaultWaitDeadline.components.seconds)
            if gate.wait(timeout: .now() + .seconds(deadline)) == .timedOut { abandoned.withLock { $0 += 1 } }
        }

        func blockingReleases(barcode: GTIN) throws(ReleaseCatalogueError) -> [Release] {
            held()
            return []
        }

        func blockingSearch(_ query: ReleaseSearchQuery, limit: Int) throws(ReleaseCatalogueError) -> [Release] {
            held()
            return []
        }

        func blockingRelease(id: Int) throws(ReleaseCatalogueError) -> Release? {
            held()
            return nil
        }
    }

    /// More reads held at once than the pool has threads: were they run on the pool, the
    /// test's own task (which lets them go) could never run, and the test would hang.
    @Test("reads held at once, more than the pool's threads, leave the pool free", .timeLimit(.minutes(15)))
    func readsLeaveThePoolFree() async throws {
        let catalogue = HeldCatalogue()
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let gtin = try GTIN(parsing: "5012345678900")
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    switch index % 3 {
                    case 0: return try await catalogue.releases(barcode: gtin).count
                    case 1: return try await catalogue.search(try ReleaseSearchQuery(text: "blue"), limit: 5).count
                    default: return try await catalogue.release(id: index) == nil ? 0 : 1
                    }
                }
            }
            // Every read is under way, each holding its thread, before one is let go.
            while catalogue.entered.withLock({ $0 }) < count { await Task.yield() }
            for _ in 0..<count { catalogue.gate.signal() }
            var answered = 0
            for try await found in group {
                #expect(found == 0)
                answered += 1
            }
            #expect(answered == count)
        }
        #expect(catalogue.abandoned.withLock { $0 } == 0, "reads held the pool's threads")
    }
}
