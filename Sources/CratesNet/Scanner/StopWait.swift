#if canImport(Glibc)
    import Glibc
#endif

/// Waiting for a loop that runs on a thread of its own (the camera daemon's socket loop, the
/// decoder's supervisor) to have finished, by looking at its flag: such a loop has nothing to
/// await. Blocking, for a caller on a thread of its own; or as a task, which leaves the
/// cooperative threads to the work being waited for.
enum StopWait {
    /// Blocks this thread until `finished()` holds; false when `timeout` passes first.
    static func blocking(timeout: Duration, until finished: () -> Bool) -> Bool {
        let end = ContinuousClock.now.advanced(by: timeout)
        while !finished() {
            guard ContinuousClock.now < end else { return false }
            usleep(2_000)
        }
        return true
    }

    /// Sleeps as a task until `finished()` holds; false when `timeout` passes first.
    static func suspending(timeout: Duration, until finished: () -> Bool) async -> Bool {
        let end = ContinuousClock.now.advanced(by: timeout)
        while !finished() {
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
