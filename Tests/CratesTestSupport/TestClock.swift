import Synchronization

/// Virtual time: `now` moves only when the test says (`advance(by:)`), and a task sleeping on
/// the clock wakes when its deadline has come, or throws `CancellationError` at once when
/// cancelled. A backoff of 8 s then costs a test no real time, and the test decides exactly
/// when a pause ends, a window frees or a timer fires.
///
/// With `jumps`, a sleep moves the clock on to its own deadline at once instead (and is noted
/// in `waits`): for a test with one caller at a time, such as the rate limiter's arithmetic,
/// where nobody else would advance it.
public final class TestClock: Clock, Sendable {
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock started.
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        var waits: [Duration] = []
    }

    private let state = Mutex(State())
    private let jumps: Bool

    public init(jumps: Bool = false) {
        self.jumps = jumps
    }

    public var now: Instant { Instant(offset: state.withLock { $0.now }) }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock, as the cancellation handler below: a task cancelled before
                // its sleeper was noted throws here, one cancelled after is woken there.
                let resume: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if jumps {
                        state.waits.append(deadline.offset - state.now)
                        state.now = max(state.now, deadline.offset)
                    }
                    if deadline.offset <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline.offset, continuation: continuation)
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on and wakes, soonest first, whoever's deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now += duration
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.sleepers[id] = nil }
            return due.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// How far ahead of now each sleeper's deadline is, soonest first.
    public var sleeping: [Duration] {
        state.withLock { state in state.sleepers.values.map { $0.deadline - state.now }.sorted() }
    }

    /// With `jumps`: every wait asked for, in order.
    public var waits: [Duration] { state.withLock { $0.waits } }

    /// The time since the clock started.
    public var elapsed: Duration { state.withLock { $0.now } }
}
