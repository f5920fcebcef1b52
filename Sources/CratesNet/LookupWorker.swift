import CratesCore
import Foundation

/// Drains the lookup queue one record at a time: claim, search the barcode forms, fetch the
/// release, record the outcome. Runs inside the TUI and inside `crates import`.
///
/// - Paced by the client's `RateLimiter`; a 429 is honoured by the client and never loses
///   the lookup (the job is then failed with a retry time, not dropped).
/// - 401 stops the worker: the job goes back to the queue untouched and the status says to
///   run `crates auth`.
/// - Network down: the job is failed with a retry time, and the worker waits (growing
///   pauses, cut short by `nudge()`) before it claims the next, so an offline machine does
///   not burn every record's attempts.
/// - Several processes on one database never look the same record up twice: the queue's
///   claim holds a lease.
public actor LookupWorker {
    /// What the worker reports, in order, on `events`.
    public enum Event: Sendable, Hashable {
        /// The status changed (see `LookupStatus`).
        case status(LookupStatus)
        /// A lookup ended and its outcome is stored: `requests` is what it cost.
        case settled(recordID: Int64, outcome: LookupOutcome.Kind, requests: Int)
    }

    /// Timings, all in seconds.
    public struct Policy: Sendable {
        /// How long a claim holds a record against other processes: longer than the slowest
        /// lookup (five requests, each of which may wait out a 60 s window behind another
        /// process sharing the account), so that a live claim never expires.
        public var lease: Double = 900
        /// Retry delay after the first failure, doubled with each attempt…
        public var retryBase: Double = 30
        /// …up to this.
        public var retryMaximum: Double = 6 * 3600
        /// How often an idle worker looks for failed lookups that have come due.
        public var recheckInterval: Double = 30
        /// First pause after a network failure, doubled while offline…
        public var offlineBase: Double = 5
        /// …up to this.
        public var offlineMaximum: Double = 300

        public init() {}

        /// The retry time of a job that failed after `attempts` earlier attempts.
        public func retryDelay(attempts: Int) -> Double {
            min(retryMaximum, retryBase * pow(2, Double(min(max(0, attempts), 30))))
        }
    }

    /// Every status change and every settled lookup, for one consumer (the TUI's status
    /// line, an import's progress, `crates add --wait`). Unbounded: no settled lookup is
    /// dropped for a slow reader; it ends when `run()` returns.
    public nonisolated let events: AsyncStream<Event>
    public private(set) var status: LookupStatus = .starting
    /// What this worker has looked up, for the benchmark and the tests.
    public private(set) var statistics = LookupCounts()

    private let queue: any LookupQueue
    private let lookup: DiscogsBarcodeLookup
    private let policy: Policy
    private let now: @Sendable () -> Date
    private let eventSink: AsyncStream<Event>.Continuation
    private let wake = WakeSignal()
    private var stopping = false
    private var offlineStreak = 0

    public init(queue: any LookupQueue, lookup: DiscogsBarcodeLookup, policy: Policy = Policy(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.queue = queue
        self.lookup = lookup
        self.policy = policy
        self.now = now
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    }

    /// Tells an idle or offline worker that there is new work (a scan, an import).
    public nonisolated func nudge() {
        Task { await wake.signal() }
    }

    /// Asks the worker to finish the lookup in hand and return from `run()`.
    public func stop() async {
        stopping = true
        await wake.signal()
    }

    /// Runs until `stop()`, cancellation, or refused credentials. Returns the final status.
    @discardableResult
    public func run() async -> LookupStatus {
        await lookup.client.rateLimiter.setObserver { [weak self] seconds in
            Task { await self?.rateLimitChanged(seconds) }
        }
        defer { eventSink.finish() }
        while !stopping, !Task.isCancelled {
            let job: LookupJob?
            do {
                job = try await queue.claimNext(now: now(), lease: policy.lease)
            } catch {
                // The store could not be read: try again later rather than spin.
                await wake.wait(timeout: policy.recheckInterval)
                continue
            }
            guard let job else {
                if offlineStreak == 0 { publish(.idle) }
                await wake.wait(timeout: policy.recheckInterval)
                continue
            }
            if offlineStreak == 0 { publish(.working(waiting: max(0, (await waiting()) - 1))) }
            if let final = await process(job) {
                publish(final)
                return final
            }
        }
        publish(.stopped)
        return .stopped
    }

    /// Looks one job up and records its outcome. Returns a final status when the worker
    /// must stop.
    private func process(_ job: LookupJob) async -> LookupStatus? {
        do {
            let result = try await lookup.lookUp(job)
            statistics.count(result.outcome.kind, requests: result.requests)
            await settle { [queue] in try await queue.complete(job, with: result.outcome) }
            eventSink.yield(.settled(recordID: job.recordID, outcome: result.outcome.kind, requests: result.requests))
            if offlineStreak > 0 {
                offlineStreak = 0
            }
            return nil
        } catch .unauthorized(let message) {
            await settle { [queue] in try await queue.release(job) }
            return .unauthorized(message: message)
        } catch {
            // Cancelled (Ctrl-C in `crates import`): not a failure of the record, which goes
            // back to the queue as it was.
            if Task.isCancelled {
                await settle { [queue] in try await queue.release(job) }
                return nil
            }
            statistics.count(.failed, requests: 1)
            let retryAt = now().addingTimeInterval(policy.retryDelay(attempts: job.attempts))
            await settle { [queue] in try await queue.complete(job, with: .failed(message: error.description, retryAt: retryAt)) }
            eventSink.yield(.settled(recordID: job.recordID, outcome: .failed, requests: 1))
            if error.isOffline {
                offlineStreak += 1
                publish(.offline(waiting: await waiting()))
                let pause = min(policy.offlineMaximum, policy.offlineBase * pow(2, Double(min(offlineStreak - 1, 20))))
                await wake.wait(timeout: pause)
            } else {
                offlineStreak = 0
            }
            return nil
        }
    }

    /// Records a job's outcome (or gives it back) even when this task is cancelled: the
    /// store refuses work from a cancelled task, and a record must never stay claimed
    /// because Ctrl-C came between its lookup and its outcome. A new task does not inherit
    /// the cancellation.
    private func settle(_ update: @escaping @Sendable () async throws -> Void) async {
        await Task { try? await update() }.value
    }

    /// From the rate limiter: a long wait starts (seconds > 0) or ends (0).
    private func rateLimitChanged(_ seconds: Double) async {
        if seconds >= 1 {
            publish(.rateLimited(seconds: Int(seconds.rounded(.up))))
        } else if case .rateLimited = status {
            publish(.working(waiting: max(0, await waiting() - 1)))
        }
    }

    private func waiting() async -> Int {
        (try? await queue.waitingCount()) ?? 0
    }

    private func publish(_ new: LookupStatus) {
        guard new != status else { return }
        status = new
        eventSink.yield(.status(new))
    }
}
