// The one way a test waits: look at a condition until it holds, with a deadline, and say
// plainly what did not happen when it never does.
//
// It never blocks a thread (between looks it sleeps as a task, so a test under `taskset -c
// 0` leaves the single cooperative thread to the work it waits for), and it always takes one
// more look after the deadline: a task that was starved of the CPU until the deadline had
// passed must not fail a test whose condition already holds.

/// What a wait that ran out of time did not see.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What the test waited for, in its own words ("the import to be stopped").
    public let what: String
    /// How long it waited.
    public let deadline: Duration
    /// What was there instead at the last look, when the test said how to describe it.
    public let lastSeen: String?

    public var description: String {
        "waited \(deadline) for \(what), and it did not happen"
            + (lastSeen.map { "; last seen:\n\($0)" } ?? "")
    }
}

/// How long a test waits for something by default, and only ever spent in full when the test
/// is failing anyway. It must cover the longest a task of the full suite waits for a thread
/// of the cooperative pool (`PoolWaitProbe` says it after every run): seconds on two loaded
/// cores with at most 32 tests at once (`make test`'s `TEST_WIDTH`) and the bodies that
/// compute for long off the pool (`.offThePool`); minutes with all 1,300 tests in flight.
public let defaultWaitDeadline: Duration = .seconds(90)

/// Looks at `probe` until it gives a value, and returns that value; throws `WaitTimeout`
/// (naming `what`, and `lastSeen()` when given) when it gives none by `deadline`.
///
/// `progress`, for work done in many steps (thousands of records): a count the work moves
/// (records still waiting, rows written). Each time it changes the deadline starts again, so
/// a loaded machine that does the work slowly passes, and work that stops moving still fails
/// `deadline` after its last step: the test waits on the work's progress, not on its speed.
@discardableResult
public func waitFor<T>(
    _ what: @autoclosure () -> String, within deadline: Duration = defaultWaitDeadline,
    every interval: Duration = .milliseconds(20), lastSeen: (() async -> String)? = nil,
    progress: (() async throws -> Int)? = nil,
    _ probe: () async throws -> T?
) async throws -> T {
    PoolWaitProbe.start()
    let clock = ContinuousClock()
    var end = clock.now.advanced(by: deadline)
    var step = try await progress?()
    while true {
        // Read the clock before looking: a look that began before the deadline counts, and
        // so does the one after it.
        var late = clock.now >= end
        if let value = try await probe() { return value }
        if let progress, case let now = try await progress(), now != step {
            step = now
            end = clock.now.advanced(by: deadline)
            late = false
        }
        if late { break }
        try? await Task.sleep(for: interval)
        if Task.isCancelled { break }
    }
    throw WaitTimeout(what: what(), deadline: deadline, lastSeen: await lastSeen?())
}

/// Looks at `condition` until it holds; throws `WaitTimeout` (naming `what`, and
/// `lastSeen()` when given) when it does not hold by `deadline` (counted from `progress`'s
/// last change, when given: `waitFor`).
public func waitUntil(
    _ what: @autoclosure () -> String, within deadline: Duration = defaultWaitDeadline,
    every interval: Duration = .milliseconds(20), lastSeen: (() async -> String)? = nil,
    progress: (() async throws -> Int)? = nil,
    _ condition: () async throws -> Bool
) async throws {
    try await waitFor(what(), within: deadline, every: interval, lastSeen: lastSeen, progress: progress) {
        try await condition() ? true : nil
    }
}
