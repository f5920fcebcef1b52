import Foundation
import Testing

/// Runs each test it marks on a thread of its own instead of the cooperative pool.
///
/// Why: Swift Testing starts every test of the run at once as tasks, and on Linux the
/// cooperative pool has one thread per core (two on CI), which does not grow while a thread
/// is held. A synchronous test body holds its thread from start to end; a CPU-heavy one (a
/// 100,000-record model, a 300,000-character input, thousands of random round trips) holds it
/// for seconds alone and for minutes while a full run shares the CPU, and every task of every
/// other test queues behind it (in the first 150 s of a full run on two loaded cores, 794 of
/// 844 profiler samples of the pool's threads were in such bodies). On a thread of its own
/// such a body takes its share of the CPU like any other thread, and the pool stays free for
/// the tasks that wait. (The other half of keeping the pool's queue short: `make test` runs
/// at most `TEST_WIDTH` tests at once.)
///
/// The test runs as the same task (a task executor preference, not a detached thread), so
/// `#expect` and the test's task-local state work as anywhere else; its child tasks run on
/// the same thread, one at a time, so a test whose child tasks block each other must not
/// use it.
public struct OffThePoolTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Each test case of a marked test, or of every test of a marked suite; a suite's own
    /// scope runs no test body.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite || testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = ThreadExecutor()
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Each test (of a suite, when given to the suite) on a thread of its own, not the
    /// cooperative pool: for test bodies that compute for long without suspending.
    public static var offThePool: Self { OffThePoolTrait() }
}

/// A task executor with a thread of its own, which runs the jobs given to it in order; the
/// thread ends once `finish()` was called and nothing is left to run (a job given after that
/// gets a new thread, so none is ever left unrun).
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// What its threads carry in their thread dictionary (on Linux `Thread.name` does not
    /// name the thread: a new thread keeps its creator's name, such as the pool's).
    private static let mark = "crates.tests.off-the-pool"

    /// Whether the calling thread is one of a `ThreadExecutor`'s.
    public static var ownsCurrentThread: Bool {
        Thread.current.threadDictionary[mark] != nil
    }

    // All three guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finishing = false
    private var threadRunning = true

    public init() {
        startThread()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let restart = !threadRunning
        threadRunning = true
        condition.signal()
        condition.unlock()
        if restart { startThread() }
    }

    private func startThread() {
        Thread.detachNewThread { [self] in run() }
    }

    /// Lets the thread end once the jobs given so far have run.
    public func finish() {
        condition.lock()
        finishing = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        Thread.current.threadDictionary[Self.mark] = true
        while true {
            condition.lock()
            while jobs.isEmpty && !finishing { condition.wait() }
            guard !jobs.isEmpty else {
                threadRunning = false
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
