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
        /// The queue had nothing due when the worker looked (failed lookups wait for their
        /// retry time), whatever the status says (it may still say offline).
        case nothingDue
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
        /// The longest pause between two attempts to write an outcome the store refused
        /// (locked by another process); the store's busy timeout comes on top of it.
        public var writeRetryMaximum: Double = 2
        /// After `stop()`, how long the lookup in hand may still wait for the store to take its
        /// outcome before the worker gives up on it (a store that refuses every write, a disk
        /// that stays full, must not keep a quitting program waiting forever).
        public var writeGraceAfterStop: Double = 60

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
    /// What this worker has looked up, for the benchmark and the tests. An outcome is
    /// counted once it is written to the queue, never before (issue 12: "60 matched" while
    /// one of them was never written); `writeRetries` and `unwritten` say what the store
    /// refused.
    public private(set) var statistics = LookupCounts()

    private let queue: any LookupQueue
    private let lookup: DiscogsBarcodeLookup
    private let policy: Policy
    private let now: @Sendable () -> Date
    private let eventSink: AsyncStream<Event>.Continuation
    private let wake = WakeSignal()
    private var stopping = false
    /// When `stop()` was asked for.
    private var stopRequested: ContinuousClock.Instant?
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
        if stopRequested == nil { stopRequested = .now }
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
                eventSink.yield(.nothingDue)
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
            if await settle({ [queue] in try await queue.complete(job, with: result.outcome) }) {
                statistics.count(result.outcome.kind, requests: result.requests)
                eventSink.yield(.settled(recordID: job.recordID, outcome: result.outcome.kind, requests: result.requests))
            } else {
                statistics.requests += result.requests
            }
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
            let retryAt = now().addingTimeInterval(policy.retryDelay(attempts: job.attempts))
            if await settle({ [queue] in
                try await queue.complete(job, with: .failed(message: error.description, retryAt: retryAt))
            }) {
                statistics.count(.failed, requests: 1)
                eventSink.yield(.settled(recordID: job.recordID, outcome: .failed, requests: 1))
            } else {
                statistics.requests += 1
            }
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

    /// Records a job's outcome (or gives it back), retrying until the queue has taken it:
    /// a store locked by another process for longer than its busy timeout (a `sqlite3`
    /// holding `BEGIN EXCLUSIVE`, a long import) must not lose a lookup's result (issue 12).
    /// Pauses between attempts grow from 0.1 s to `Policy.writeRetryMaximum`.
    ///
    /// Each attempt runs in a new task, which does not inherit this one's cancellation: the
    /// store refuses work from a cancelled task, and a record must never stay claimed because
    /// Ctrl-C came between its lookup and its outcome. It gives up (`LookupCounts.unwritten`)
    /// only when this task is cancelled and an attempt has failed, or when `stop()` was asked
    /// for more than `Policy.writeGraceAfterStop` ago: the record then keeps this process's
    /// claim, which is free for the next claimer once the process has exited. Otherwise
    /// `stop()` lets the lookup in hand finish, writing included. Returns whether the update
    /// was written.
    @discardableResult
    private func settle(_ update: @escaping @Sendable () async throws -> Void) async -> Bool {
        var pause = 0.1
        while true {
            let refusal = await Task { () async -> String? in
                do {
                    try await update()
                    return nil
                } catch {
                    return "\(error)"
                }
            }.value
            guard let refusal else { return true }
            publish(.waitingToWrite(reason: refusal))
            let graceOver = stopRequested.map { .now - $0 > .seconds(policy.writeGraceAfterStop) } ?? false
            if Task.isCancelled || graceOver {
                statistics.unwritten += 1
                return false
            }
            statistics.writeRetries += 1
            try? await Task.sleep(for: .seconds(pause))
            pause = min(policy.writeRetryMaximum, pause * 2)
        }
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
