/// The pauses between a lookup's attempts: each sleeper waits its time on `timeline`, or
/// less when `interruptAll()` (the worker is stopping) or its task's cancellation wakes it.
actor InterruptiblePauses {
    private let timeline: Timeline
    private var sleepers: [Int: CheckedContinuation<Bool, Never>] = [:]
    private var next = 0
    private var interrupted = false

    init(timeline: Timeline) {
        self.timeline = timeline
    }

    /// Waits until `deadline` on the timeline (fixed by the caller, so that the pause ends
    /// then however late this task runs); true when the whole pause was waited.
    func sleep(until deadline: Duration) async -> Bool {
        if interrupted || Task.isCancelled { return false }
        next += 1
        let id = next
        let timer = Task { [weak self, timeline] in
            guard (try? await timeline.sleep(until: deadline)) != nil else { return }
            await self?.end(id, completed: true)
        }
        let completed = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                sleepers[id] = continuation
            }
        } onCancel: {
            Task { await self.end(id, completed: false) }
        }
        timer.cancel()
        return completed
    }

    /// Wakes every sleeper, now and from now on.
    func interruptAll() {
        interrupted = true
        let all = sleepers.values
        sleepers = [:]
        for sleeper in all { sleeper.resume(returning: false) }
    }

    /// Ends every pause under way at once, as if waited in full: Discogs was just found
    /// unreachable, and the check after each pause gives its record up (stored as failed,
    /// due again at once) rather than after up to 8 s more.
    func cutShort() {
        let all = sleepers.values
        sleepers = [:]
        for sleeper in all { sleeper.resume(returning: true) }
    }

    private func end(_ id: Int, completed: Bool) {
        sleepers.removeValue(forKey: id)?.resume(returning: completed)
    }
}
