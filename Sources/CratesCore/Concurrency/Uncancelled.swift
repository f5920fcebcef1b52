/// Runs `body` to its end in a task of its own, which the caller's cancellation does not
/// reach (an unstructured task inherits the caller's priority and task-locals, never its
/// cancellation), and returns what it returned.
///
/// For the closing work of a stopped command: a signal cancels the command's root task, and
/// GRDB's async accesses throw `CancellationError` in a cancelled task, so the batch in
/// hand, a record given back to the queue and the reads behind the report run here (Swift
/// has no `withTaskCancellationShield`). The work must be short and bounded: nothing
/// cancels it, and a second Ctrl-C is the way out of it.
public func uncancelled<T: Sendable, E: Error>(
    _ body: @escaping @Sendable () async throws(E) -> T
) async throws(E) -> T {
    let result = await Task { () async -> Result<T, E> in
        do throws(E) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }.value
    return try result.get()
}
