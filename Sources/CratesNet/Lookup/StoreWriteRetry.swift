/// Writes to the store until it takes the write, each attempt in a task of its own: the
/// store refuses work from a cancelled task, and a record must never stay claimed because
/// Ctrl-C came between its lookup and its outcome. A busy store (another process holding the
/// database past its busy timeout, a `sqlite3` holding `BEGIN EXCLUSIVE`) is tried again
/// after pauses that grow (`pauses`), until it is free: an outcome is never lost to a busy
/// database.
struct StoreWriteRetry: Sendable {
    let pauses: Backoff
    let timeline: Timeline

    /// Writes `update`. `refused` is told of each refusal (the reason, whether it is this
    /// write's first, whether this task is cancelled) and answers whether to give up;
    /// `taken` is told when a write refused before has been taken. Returns whether it was
    /// written.
    func write(
        _ update: @escaping @Sendable () async throws -> Void,
        refused: @Sendable (_ reason: String, _ first: Bool, _ cancelled: Bool) async -> Bool,
        taken: @Sendable () async -> Void
    ) async -> Bool {
        var round = 0
        while true {
            let refusal = await Task { () async -> String? in
                do {
                    try await update()
                    return nil
                } catch {
                    return "\(error)"
                }
            }.value
            guard let refusal else {
                if round > 0 { await taken() }
                return true
            }
            if await refused(refusal, round == 0, Task.isCancelled) { return false }
            try? await timeline.sleep(for: pauses.delay(round))
            round += 1
        }
    }
}
