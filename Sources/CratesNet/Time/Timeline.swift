import Foundation

/// A clock read as the time since the reading began: the one way the lookup worker, the rate
/// limiter and the decoder's supervisor tell time. Any `Clock<Duration>` will do: the
/// system's `ContinuousClock` (it keeps counting while the machine sleeps, as Discogs' window
/// does), or a test's clock that moves only when the test says, so that a backoff of 8 s
/// costs a test no real time. The clock's instants become plain `Duration`s to add and
/// compare.
public struct Timeline: Sendable {
    /// The clock read.
    public let clock: any Clock<Duration>
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void
    /// The system's monotonic time when the reading began (see `date`), and the date the
    /// reading began at when one was given.
    private let start: (instant: ContinuousClock.Instant, date: Date?)

    public init(_ clock: any Clock<Duration> = ContinuousClock()) {
        self.clock = clock
        (elapsed, sleeper) = Self.reading(clock)
        start = (.now, nil)
    }

    /// A reading of `clock` whose `date` begins at `date` and moves as the clock does: for a
    /// test whose stored dates must be given days ("the refresh of 2026-10-30"), read on a
    /// clock the test moves.
    public init(_ clock: any Clock<Duration>, from date: Date) {
        self.clock = clock
        (elapsed, sleeper) = Self.reading(clock)
        start = (.now, date)
    }

    private static func reading<C: Clock<Duration>>(
        _ clock: C
    ) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) {
        let origin = clock.now
        return ({ origin.duration(to: clock.now) }, { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) })
    }

    /// The time since the reading began.
    public var now: Duration { elapsed() }

    /// Returns once `now` has reached `deadline` (at once when it has); throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Duration) async throws {
        try await sleeper(deadline)
    }

    /// Returns once `duration` has passed; throws when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleeper(now + duration)
    }

    /// The date now, for what is stored (a retry time, a claim's lease): the system's date,
    /// moved on by however far the clock has run ahead of the system's monotonic time. On the
    /// system's clock that is nothing (and a corrected system date is followed at once); on a
    /// test clock, what the test advanced it by. A reading begun `from` a date: that date,
    /// moved on by the clock.
    public var date: Date {
        if let begun = start.date { return begun.addingTimeInterval(now.inSeconds) }
        let ahead = now - start.instant.duration(to: .now)
        return Date().addingTimeInterval(ahead.inSeconds)
    }
}

extension Duration {
    /// The duration as a number of seconds, for arithmetic in `Double` and for messages.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
