import CratesCore
import Foundation

/// Blocking work (reading a pipe that may send nothing, the dump reader) on a thread of its
/// own, awaited without holding one of the cooperative pool's threads; the awaiting task's
/// cancellation reaches it through `withTaskCancellationHandler`: the `StopFlag` it is given
/// is set, which it looks at between its steps, and `onCancel` runs (to wake what it blocks
/// in).
enum BlockingWork {
    static func run<T: Sendable, E: Error>(
        _ name: String, onCancel: @escaping @Sendable () -> Void = {},
        _ body: @escaping @Sendable (StopFlag) throws(E) -> T
    ) async throws(E) -> T {
        let stop = StopFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, E>, Never>) in
                let thread = Thread {
                    continuation.resume(returning: Result { () throws(E) in try body(stop) })
                }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            stop.set()
            onCancel()
        }
        return try result.get()
    }
}
