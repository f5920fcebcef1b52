import CratesCore
import Foundation

/// Runs async work from a synchronous command (the root command stays synchronous so that
/// the TUI runs on the main thread): the work runs on the cooperative pool while this
/// thread, which is not one of the pool's, waits.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    // Handed from the task to the waiting thread.
    let result = LockedBox<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    guard let outcome = result.withLock({ $0 }) else { throw CancellationError() }
    return try outcome.get()
}
