import Foundation

/// For a daemon-like command (`crates scand`, `crates scan --follow`) that runs until told to
/// stop: SIGINT, SIGTERM and SIGHUP are blocked before any thread starts, so that every
/// thread inherits the mask and the signal waits for `wait()` on the main thread instead of
/// killing the process mid-cleanup.
struct StopSignals: Sendable {
    private let set: sigset_t

    /// Blocks the stop signals in this thread (call before starting any other).
    static func block() -> StopSignals {
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return StopSignals(set: set)
    }

    /// Waits for one of them; returns its number.
    func wait() -> Int32 {
        var set = self.set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// "SIGINT", "SIGTERM", "SIGHUP".
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
