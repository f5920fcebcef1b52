import CratesCore

/// The requests of one lookup (or one fetch) through transient failures: a request that
/// fails with a 5xx, an answer that does not parse, a timeout or a broken connection
/// (`DiscogsError.isTransient`) is sent again after a short pause, 1 s, 2 s, 4 s, 8 s…, until
/// it succeeds or the pauses run out; then its last error is thrown (the record fails, to be
/// retried later). The failures count in a row across the requests of the lookup: a success
/// starts the count again.
public struct RequestRetry: Sendable {
    /// What the owner of the retry says before a new attempt.
    public enum Decision: Sendable {
        case retry
        /// Stop trying and throw the last error (e.g. Discogs is unreachable: the record
        /// waits for later).
        case giveUp
        /// Stop trying, as cancelled (`TransportError.cancelled`): the worker is stopping
        /// and gives the record back untouched.
        case stop
    }

    /// The pauses of a one-shot command (`crates lookup`, a release chosen in the UI).
    public static let shortPauses: [Double] = [1, 2, 4, 8]

    /// The pause before each new attempt, in seconds: after the n-th failure in a row,
    /// `pauses[n - 1]`; one failure more than there are pauses gives up.
    public var pauses: [Double]
    /// Requests sent so far, the attempts that failed included.
    public private(set) var requests = 0
    /// Failures since the last success.
    public private(set) var failuresInARow = 0
    /// Told of every request's end: nil for an answer, else the failure.
    public var report: @Sendable (DiscogsError?) async -> Void
    /// Asked after the pause, before a new attempt.
    public var decide: @Sendable () async -> Decision
    /// Waits `seconds`; false when woken early to stop.
    public var sleep: @Sendable (Double) async -> Bool

    public init(
        pauses: [Double] = RequestRetry.shortPauses,
        report: @escaping @Sendable (DiscogsError?) async -> Void = { _ in },
        decide: @escaping @Sendable () async -> Decision = { .retry },
        sleep: @escaping @Sendable (Double) async -> Bool = { seconds in
            (try? await Task.sleep(for: .seconds(seconds))) != nil
        }
    ) {
        self.pauses = pauses
        self.report = report
        self.decide = decide
        self.sleep = sleep
    }

    /// No second attempt.
    public static var once: RequestRetry { RequestRetry(pauses: []) }

    /// Sends `request`, again after each transient failure while pauses remain.
    public mutating func send<T: Sendable>(_ request: () async throws(DiscogsError) -> T) async throws(DiscogsError) -> T {
        while true {
            requests += 1
            do {
                let value = try await request()
                failuresInARow = 0
                await report(nil)
                return value
            } catch {
                if error.isCancellation || Task.isCancelled { throw .transport(.cancelled) }
                await report(error)
                guard error.isTransient, failuresInARow < pauses.count else { throw error }
                // Asked before the pause (Discogs may just have been found unreachable) and
                // after it (the worker may be stopping).
                try await check(after: error)
                let pause = pauses[failuresInARow]
                failuresInARow += 1
                guard await sleep(pause), !Task.isCancelled else { throw .transport(.cancelled) }
                try await check(after: error)
            }
        }
    }

    private func check(after error: DiscogsError) async throws(DiscogsError) {
        switch await decide() {
        case .retry: return
        case .giveUp: throw error
        case .stop: throw .transport(.cancelled)
        }
    }
}
