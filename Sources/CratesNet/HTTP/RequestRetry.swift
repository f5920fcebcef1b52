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

    /// The pauses of a one-shot command (`crates lookup`, `crates search`).
    public static let shortPauses: [Double] = Backoff(first: .seconds(1), maximum: .seconds(8)).delays(4).map(\.inSeconds)

    /// The pauses of a release chosen in the UI: a person watches, and the choice is kept
    /// (queued, fetched when Discogs answers) when these run out, so 3 s rather than 15.
    public static let choicePauses: [Double] = Backoff(first: .seconds(1), maximum: .seconds(2)).delays(2).map(\.inSeconds)

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
    /// Waits `seconds`; false when woken early to stop. Nil: waits on `timeline`.
    public var sleep: (@Sendable (Double) async -> Bool)?
    /// The clock the pauses and the `hedge` timer run on.
    public var timeline = Timeline()
    /// Asked when an answer has not come `hedgeAfter` seconds after its request went: true
    /// sends the same request again alongside (the first answer wins; the other is
    /// abandoned). For the end of a run, when the window has room nobody else waits for:
    /// one stalled answer then does not hold the last record for its whole stall. Nil: never.
    public var hedge: (@Sendable () async -> Bool)?
    /// See `hedge`.
    public var hedgeAfter: Double = 4

    public init(
        pauses: [Double] = RequestRetry.shortPauses,
        report: @escaping @Sendable (DiscogsError?) async -> Void = { _ in },
        decide: @escaping @Sendable () async -> Decision = { .retry },
        sleep: (@Sendable (Double) async -> Bool)? = nil
    ) {
        self.pauses = pauses
        self.report = report
        self.decide = decide
        self.sleep = sleep
    }

    /// No second attempt.
    public static var once: RequestRetry { RequestRetry(pauses: []) }

    /// Sends `request`, again after each transient failure while pauses remain.
    public mutating func send<T: Sendable>(_ request: @escaping @Sendable () async throws(DiscogsError) -> T) async throws(DiscogsError) -> T {
        while true {
            let (result, sent) = await attempt(request)
            requests += sent
            do {
                let value = try result.get()
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
                guard await wait(pause), !Task.isCancelled else { throw .transport(.cancelled) }
                try await check(after: error)
            }
        }
    }

    private func wait(_ seconds: Double) async -> Bool {
        if let sleep { return await sleep(seconds) }
        return (try? await timeline.sleep(for: .seconds(seconds))) != nil
    }

    /// One attempt: the request, and perhaps a second copy of it (`hedge`). The result, and
    /// how many requests went, as the client counted them (`SentRequests`): a copy abandoned
    /// before it went is not one.
    private func attempt<T: Sendable>(_ request: @escaping @Sendable () async throws(DiscogsError) -> T) async -> (Result<T, DiscogsError>, Int) {
        let sent = SentRequests()
        let result = await SentRequests.$current.withValue(sent) { await copies(of: request) }
        return (result, sent.count)
    }

    /// The request, and the copies `hedge` allows alongside: the first answer.
    private func copies<T: Sendable>(of request: @escaping @Sendable () async throws(DiscogsError) -> T) async -> Result<T, DiscogsError> {
        guard let hedge else { return await Self.run(request) }
        let delay = Duration.seconds(hedgeAfter)
        let timeline = self.timeline
        return await withTaskGroup(of: Lane<T>.self) { group in
            group.addTask { .answer(await Self.run(request)) }
            let first = timeline.now + delay
            group.addTask {
                try? await timeline.sleep(until: first)
                return .timer
            }
            var started = 1
            var outstanding = 1
            var failure = DiscogsError.transport(.cancelled)
            while let lane = await group.next() {
                switch lane {
                case .timer:
                    guard outstanding > 0, !Task.isCancelled else { continue }
                    // One copy alongside at a time, three at most (a copy may fail too); when
                    // not now (others wait, or the window is full: the request may have
                    // waited for the window all this while), ask again later.
                    if outstanding == 1, started < 4, await hedge() {
                        group.addTask { .answer(await Self.run(request)) }
                        started += 1
                        outstanding += 1
                    }
                    let next = timeline.now + delay
                    group.addTask {
                        try? await timeline.sleep(until: next)
                        return .timer
                    }
                case .answer(.success(let value)):
                    group.cancelAll()  // the other copy, or the timer
                    return .success(value)
                case .answer(.failure(let error)):
                    outstanding -= 1
                    if !error.isCancellation { failure = error }
                    if outstanding == 0 {
                        group.cancelAll()
                        return .failure(failure)
                    }
                }
            }
            return .failure(failure)
        }
    }

    private enum Lane<T: Sendable>: Sendable {
        case answer(Result<T, DiscogsError>)
        case timer
    }

    private static func run<T: Sendable>(_ request: @Sendable () async throws(DiscogsError) -> T) async -> Result<T, DiscogsError> {
        do {
            return .success(try await request())
        } catch {
            return .failure(error)
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
