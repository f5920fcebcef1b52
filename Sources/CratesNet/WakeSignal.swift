/// Wakes a sleeping loop early: `wait(timeout:)` returns when `signal()` is called, the
/// timeout passes or the waiting task is cancelled, whichever comes first. A signal sent
/// while nobody waits is kept for the next wait, so a nudge is never lost between two checks.
actor WakeSignal {
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var generation = 0

    func signal() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            pending = true
        }
    }

    func wait(timeout seconds: Double) async {
        if pending || Task.isCancelled {
            pending = false
            return
        }
        generation += 1
        let mine = generation
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(max(0, seconds)))
            await self?.expire(mine)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter = continuation
                // Cancelled between the check above and now: the handler below may have run
                // before there was a waiter to wake.
                if Task.isCancelled { expire(mine) }
            }
        } onCancel: {
            Task { await self.expire(mine) }
        }
        timer.cancel()
    }

    private func expire(_ which: Int) {
        guard which == generation, let waiter else { return }
        self.waiter = nil
        waiter.resume()
    }
}

/// The pauses between a lookup's attempts: each sleeper waits its time, or less when
/// `interruptAll()` (the worker is stopping) or its task's cancellation wakes it.
actor InterruptiblePauses {
    private var sleepers: [Int: CheckedContinuation<Bool, Never>] = [:]
    private var next = 0
    private var interrupted = false

    /// True when the whole pause was waited.
    func sleep(_ seconds: Double) async -> Bool {
        if interrupted || Task.isCancelled { return false }
        next += 1
        let id = next
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(max(0, seconds)))
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
