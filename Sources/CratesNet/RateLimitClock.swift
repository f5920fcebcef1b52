import Foundation

/// Monotonic time for the rate limiter, injectable so that tests run on virtual time.
public protocol RateLimitClock: Sendable {
    /// Seconds since an arbitrary fixed origin; never goes backwards.
    func now() -> Double
    /// Returns once `now()` has reached `deadline` (at once when it has).
    func sleep(until deadline: Double) async throws
}

/// The real clock: `ContinuousClock`, which keeps counting while the machine sleeps, as
/// Discogs' window does.
public struct SystemRateLimitClock: RateLimitClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Double {
        let d = ContinuousClock.now - origin
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    public func sleep(until deadline: Double) async throws {
        let wait = deadline - now()
        if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
    }
}
