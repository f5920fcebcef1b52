/// Wakes a sleeping loop early: `wait(until:)` returns when `signal()` is called, the
/// deadline comes on `timeline` or the waiting task is cancelled, whichever comes first. A
/// signal sent while nobody waits is kept for the next wait, so a nudge is never lost between
/// two checks; a deadline is fixed by the caller, from the time it decided by, so a wait that
/// begins late still ends on time.
actor WakeSignal {
    private let timeline: Timeline
    private var pending = false
    private var waiter: CheckedContinuation<Void, Never>?
    private var generation = 0

    init(timeline: Timeline) {
        self.timeline = timeline
    }

    func signal() {
        if let waiter {
            self.waiter = nil
            waiter.resume()
        } else {
            pending = true
        }
    }

    func wait(until deadline: Duration) async {
        if pending || Task.isCancelled {
            pending = false
            return
        }
        generation += 1
        let mine = generation
        let timer = Task { [weak self, timeline] in
            guard (try? await timeline.sleep(until: deadline)) != nil else { return }
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
