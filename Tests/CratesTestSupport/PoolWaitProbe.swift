import Dispatch
import Foundation
import Synchronization

/// How long a task of the test run waited for a thread of Swift's cooperative pool, at the
/// worst: a probe thread of its own asks a tiny task to run every 100 ms, and notes how long
/// it took to start. On two cores the pool has two threads, and any test that blocks one (a
/// synchronous read, a wait on a semaphore, a long computation on the pool) holds up every
/// other test's tasks: this figure is what a test's waits must allow for
/// (`defaultWaitDeadline`). Started by the first wait or temporary directory of a run, and
/// said on standard error when the process ends (`scripts/run-tests.sh` repeats it).
///
/// To see when in a run the pool was held, name an existing file in `CRATES_POOL_WAIT_LOG`:
/// every probe is written there as a line "seconds since the probe started, tab, seconds
/// waited", after a first line "origin, tab, the wall-clock start in Unix seconds".
public enum PoolWaitProbe {
    private struct Worst: Sendable {
        var seconds = 0.0
        /// When, in seconds since the probe started.
        var at = 0.0
        var probes = 0
    }

    private static let worst = Mutex(Worst())
    private static let started = Atomic<Bool>(false)

    /// Starts the probe, once per process.
    public static func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        atexit { PoolWaitProbe.report() }
        let origin = ContinuousClock.now
        let log = ProcessInfo.processInfo.environment["CRATES_POOL_WAIT_LOG"].flatMap { FileHandle(forWritingAtPath: $0) }
        log?.write(Data(String(format: "origin\t%.3f\n", Date().timeIntervalSince1970).utf8))
        let thread = Thread {
            while true {
                let asked = ContinuousClock.now
                let ran = DispatchSemaphore(value: 0)
                Task.detached {
                    let waited = ContinuousClock.now - asked
                    let seconds = Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18
                    let since = asked - origin
                    worst.withLock { worst in
                        worst.probes += 1
                        if seconds > worst.seconds {
                            worst.seconds = seconds
                            worst.at = Double(since.components.seconds)
                        }
                    }
                    let sinceSeconds = Double(since.components.seconds) + Double(since.components.attoseconds) / 1e18
                    log?.write(Data(String(format: "%.3f\t%.3f\n", sinceSeconds, seconds).utf8))
                    ran.signal()
                }
                ran.wait()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.name = "crates.tests.pool-wait-probe"
        thread.start()
    }

    /// The line said at exit.
    public static var summary: String {
        let worst = worst.withLock { $0 }
        return String(
            format: "== pool-wait probe: the longest wait for a thread of the cooperative pool was %.2f s (%.0f s into the run; %d probes)",
            worst.seconds, worst.at, worst.probes)
    }

    private static func report() {
        FileHandle.standardError.write(Data((summary + "\n").utf8))
    }
}
