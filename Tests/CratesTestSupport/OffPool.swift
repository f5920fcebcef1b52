import Foundation

/// Runs `body` on a thread of its own and waits for it without holding a thread of the
/// cooperative pool: for a test's long synchronous work (generating a dump, building a
/// catalogue, reading one through), which on a machine of two cores would hold one of the
/// pool's two threads for seconds and hold up every other test's tasks (`PoolWaitProbe`
/// measured 24 s of waiting in the dump tests alone). Expectations stay with the caller:
/// `#expect` belongs to the test's task, not to this thread.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.name = "crates.tests.off-pool"
        thread.stackSize = 8 << 20
        thread.start()
    }
}
