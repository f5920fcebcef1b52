import Foundation
import Synchronization

/// Runs async work from a synchronous command (the root command stays synchronous so that
/// the TUI runs on the main thread): the work runs on the cooperative pool while this
/// thread, which is not one of the pool's, waits.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
        done.signal()
    }
    done.wait()
    return try box.get()
}

/// The result handed from the task to the waiting thread.
private final class BlockingResult<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)

    func set(_ r: Result<T, any Error>) { result.withLock { $0 = r } }

    func get() throws -> T {
        guard let r = result.withLock({ $0 }) else { throw CancellationError() }
        return try r.get()
    }
}
