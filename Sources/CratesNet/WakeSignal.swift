/// Wakes a sleeping loop early: `wait(timeout:)` returns when `signal()` is called or the
/// timeout passes, whichever comes first. A signal sent while nobody waits is kept for the
/// next wait, so a nudge is never lost between two checks.
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
        if pending {
            pending = false
            return
        }
        generation += 1
        let mine = generation
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(max(0, seconds)))
            await self?.expire(mine)
        }
        await withCheckedContinuation { continuation in
            waiter = continuation
        }
        timer.cancel()
    }

    private func expire(_ which: Int) {
        guard which == generation, let waiter else { return }
        self.waiter = nil
        waiter.resume()
    }
}
