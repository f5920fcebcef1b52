import Synchronization

/// The tasks an owner started and has not seen end (the UI's session, the cover desk): each
/// is held until it ends, and `stop()` cancels them all and returns once every one has
/// ended, so that nothing an owner started outlives it. Once stopped, nothing more starts.
final class TaskRegistry: Sendable {
    private struct State {
        var tasks: [Int: Task<Void, Never>] = [:]
        var next = 0
        var stopped = false
    }

    private let state = Mutex(State())

    /// Runs `work` on a task held until it ends; nothing when stopped. The task is added
    /// under the lock it removes itself under, so it cannot end before it is held.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.stopped else { return }
            let number = state.next
            state.next += 1
            state.tasks[number] = Task {
                await work()
                _ = self.state.withLock { $0.tasks.removeValue(forKey: number) }
            }
        }
    }

    /// Stops taking work and cancels every task held; returns them, to be awaited by the
    /// owner once whatever else it stops has been told (`ended(_:)`).
    func cancelAll() -> [Task<Void, Never>] {
        let tasks = state.withLock { state in
            state.stopped = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
        return tasks
    }

    /// Cancels every task held and returns once each has ended.
    func stop() async {
        for task in cancelAll() { await task.value }
    }
}
