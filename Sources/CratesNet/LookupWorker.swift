import CratesCore
import Foundation

/// Drains the lookup queue, several records at once: claims them, looks each up
/// (`DiscogsBarcodeLookup`: one request for a barcode found at its first form), and stores
/// each outcome. Runs inside the TUI, `crates import` and `crates add --wait`.
///
/// - Several lookups in flight (`Policy.concurrency`), all under the client's one
///   `RateLimiter`, which counts the requests in flight and never lets more out than the
///   window allows: one slow answer holds back only its own record.
/// - A transient failure (5xx, an answer that does not parse, a timeout, a broken
///   connection) is tried again within the run after 1 s, 2 s, 4 s… (`Policy.retryPauses`);
///   the record goes to "failed, retry later" only after more failures in a row than there
///   are pauses, or while Discogs is unreachable. A 429 is honoured by the client.
/// - Discogs unreachable (requests failing in a row, `Policy.unreachable…`): the records in
///   hand go back to the queue as failed and due at once, the status says offline, and the
///   worker tries one record again after growing pauses (cut short by `nudge()`).
/// - 401 stops the worker: the jobs go back to the queue untouched and the status says to
///   run `crates auth`.
/// - An outcome is stored before it is counted or reported, and a store that is busy
///   (another process holding the database) is tried again until it takes it: an outcome
///   is never lost (issue 12). The status says so meanwhile (`waitingToWrite`). Only a
///   cancelled run, or one stopped more than `Policy.writeGraceAfterStop` ago, gives up on
///   a write (`LookupCounts.unwritten`): the record keeps this process's claim, free for the
///   next claimer once the process has exited (`ClaimOwner`).
/// - With a `ReleaseDetailsQueue` and `Policy.backgroundDetails`, while no lookup is due it
///   fetches the full details of releases completed from search results, at the rate
///   limiter's background priority: never ahead of a waiting lookup.
/// - Several processes on one database never look the same record up twice: the queue's
///   claim holds a lease.
public actor LookupWorker {
    /// What the worker reports, in order, on `events`.
    public enum Event: Sendable, Hashable {
        /// The status changed (see `LookupStatus`).
        case status(LookupStatus)
        /// A lookup ended and its outcome is stored: `requests` is what it cost.
        case settled(recordID: Int64, outcome: LookupOutcome.Kind, requests: Int)
        /// The queue had nothing due when the worker looked, and no record was in hand
        /// (failed lookups wait for their retry time), whatever the status says.
        case nothingDue
    }

    /// Timings, all in seconds.
    public struct Policy: Sendable {
        /// How long a claim holds a record against other processes: longer than the slowest
        /// lookup (a few requests, each of which may wait out a 60 s window and be tried
        /// `retryPauses.count` more times), so that a live claim never expires.
        public var lease: Double = 900
        /// Retry delay after the first failed lookup, doubled with each attempt…
        public var retryBase: Double = 30
        /// …up to this.
        public var retryMaximum: Double = 6 * 3600
        /// How often an idle worker looks for failed lookups that have come due.
        public var recheckInterval: Double = 30
        /// First pause after Discogs was found unreachable, doubled while it stays so…
        public var offlineBase: Double = 5
        /// …up to this.
        public var offlineMaximum: Double = 300
        /// Records being looked up at once: the requests in flight. A record pausing between
        /// two attempts does not count, nor one whose answer is slower than `slowAfter`.
        public var concurrency = 4
        /// See `concurrency`.
        public var slowAfter: Double = 2
        /// The most records in hand at once, pausing or slow ones included.
        public var maximumInHand = 16
        /// The pauses before sending a failed request again within the run; a record fails
        /// (to be retried later, `retryDelay`) at the failure after the last pause. With 30%
        /// of answers failing, eight attempts leave one record in 15,000 failed. Doubling
        /// stops at 8 s: the rate limit already spaces a record's attempts (a retry that
        /// finds the window full waits up to a minute), and Discogs failing every request
        /// is caught apart (`unreachableAfter…`): longer pauses would only lengthen the
        /// end of an import.
        public var retryPauses: [Double] = [1, 2, 4, 8, 8, 8, 8]
        /// Discogs counts as unreachable when this many connections in a row could not be
        /// made (refused, no route, no DNS)…
        public var unreachableAfterConnectionFailures = 3
        /// …or this many requests in a row failed in any transient way (5xx, timeouts…)…
        public var unreachableAfterFailures = 10
        /// …the first of them at least this long ago.
        public var unreachableAfterSeconds: Double = 3
        /// Fetch the full details of releases completed from search results while no lookup
        /// is due (needs a `ReleaseDetailsQueue`).
        public var backgroundDetails = false
        /// An answer that has not come after this many seconds is asked for again alongside
        /// (the first answer wins), when that costs nothing: only the records in hand are left,
        /// nobody waits for the window, and it has room. Nil: never.
        public var hedgeAfter: Double? = 4
        /// How long the first record is looked up alone, waiting for Discogs' first answer.
        public var warmUp: Double = 2
        /// The first pause before writing an outcome again when the store refused it,
        /// doubled up to 2 s.
        public var storeRetryPause: Double = 0.05
        /// After `stop()`, how long a lookup in hand may still wait for the store to take its
        /// outcome before the worker gives up on it (a store that refuses every write, a disk
        /// that stays full, must not keep a quitting program waiting forever).
        public var writeGraceAfterStop: Double = 60

        public init() {}

        /// The retry time of a job that failed after `attempts` earlier attempts.
        public func retryDelay(attempts: Int) -> Double {
            min(retryMaximum, retryBase * pow(2, Double(min(max(0, attempts), 30))))
        }

        /// The pause before probing Discogs again, the `round`-th time in a row it could not
        /// be reached.
        public func offlinePause(round: Int) -> Double {
            min(offlineMaximum, offlineBase * pow(2, Double(min(max(0, round), 20))))
        }
    }

    /// Every status change and every settled lookup, for one consumer (the TUI's status
    /// line, an import's progress, `crates add --wait`). Unbounded: no settled lookup is
    /// dropped for a slow reader; it ends when `run()` returns.
    public nonisolated let events: AsyncStream<Event>
    public private(set) var status: LookupStatus = .starting
    /// What this worker has looked up, for the benchmark and the tests.
    public private(set) var statistics = LookupCounts()
    /// Full details fetched in the background so far.
    public private(set) var detailsFetched = 0
    /// The last failure that made Discogs count as unreachable, for a message.
    public private(set) var unreachableBecause: DiscogsError?

    private let queue: any LookupQueue
    private let lookup: DiscogsBarcodeLookup
    private let details: (any ReleaseDetailsQueue)?
    private let policy: Policy
    private let now: @Sendable () -> Date
    private let eventSink: AsyncStream<Event>.Continuation
    private let wake = WakeSignal()
    private let pauses = InterruptiblePauses()
    private var stopping = false
    /// When `stop()` was asked for.
    private var stopRequested: ContinuousClock.Instant?
    /// Writes the store refuses now, being tried again: the status says `waitingToWrite`
    /// until they are taken.
    private var refusedWrites = 0
    private var refused: String?
    /// Records in hand: claimed, not yet settled; true while pausing between attempts.
    private var inHand: [Int64: Bool] = [:]
    /// Requests failed in a row, across records, and since when; how many of them could
    /// not connect at all.
    private var failures = (count: 0, connections: 0, since: Date?.none)
    private var unreachable = false
    /// Whether Discogs has answered this worker once (any answer but a refusal).
    private var answered = false
    /// When the worker stops waiting for that first answer before claiming more.
    private var warmUpEnds = Date.distantFuture
    private var offlineRound = 0
    private var probeAfter = Date.distantPast
    private var background: Task<Void, Never>?
    private var detailsMayBeWaiting = true
    private var detailsFailed: Set<Int> = []

    public init(
        queue: any LookupQueue, lookup: DiscogsBarcodeLookup, details: (any ReleaseDetailsQueue)? = nil, policy: Policy = Policy(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.queue = queue
        self.lookup = lookup
        self.details = details
        self.policy = policy
        self.now = now
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    }

    /// Tells an idle or offline worker that there is new work (a scan, an import): an
    /// offline worker tries Discogs again at once.
    public nonisolated func nudge() {
        Task { await self.nudged() }
    }

    /// Asks the worker to finish the requests in flight and return from `run()`; records
    /// pausing between two attempts, or not yet sent, go back to the queue untouched.
    public func stop() async {
        stopping = true
        if stopRequested == nil { stopRequested = .now }
        background?.cancel()
        await pauses.interruptAll()
        await wake.signal()
    }

    /// Runs until `stop()`, cancellation, or refused credentials. Returns the final status.
    @discardableResult
    public func run() async -> LookupStatus {
        await lookup.client.rateLimiter.setObserver { [weak self] seconds in
            Task { await self?.rateLimitChanged(seconds) }
        }
        warmUpEnds = now().addingTimeInterval(policy.warmUp)
        let final = await withDiscardingTaskGroup(returning: LookupStatus.self) { group in
            while true {
                if let refused {
                    group.cancelAll()  // every other request would be refused too
                    return .unauthorized(message: refused)
                }
                if stopping || Task.isCancelled { return .stopped }
                var drained = false
                while !stopping, refused == nil, await mayClaim() {
                    let job: LookupJob?
                    // Whether no record was in hand as the queue was asked: a record given
                    // back while the claim waited (refused credentials) is due again.
                    let noneInHand = inHand.isEmpty
                    do {
                        job = try await queue.claimNext(now: now(), lease: policy.lease)
                    } catch {
                        break  // the store could not be read: try again later rather than spin
                    }
                    guard let job else {
                        drained = true
                        // Nothing due and nothing in hand: the queue is drained for now.
                        if noneInHand, inHand.isEmpty, refused == nil { eventSink.yield(.nothingDue) }
                        break
                    }
                    inHand[job.recordID] = false
                    group.addTask { await self.process(job) }
                }
                await publishProgress(drained: drained)
                if drained, inHand.isEmpty, !unreachable { startBackgroundDetails() }
                await wake.wait(timeout: nextWake())
            }
        }
        background?.cancel()
        await background?.value
        publish(final)
        eventSink.finish()
        return final
    }

    // MARK: Claims and status

    private func mayClaim() async -> Bool {
        // Unreachable: one record at a time, as a probe, after the pause.
        if unreachable { return inHand.isEmpty && now() >= probeAfter }
        // One record until Discogs has answered once (or a first answer is slow to come):
        // refused credentials or a network that is down then cost one request, not one per
        // record in flight.
        if !answered, now() < warmUpEnds { return inHand.isEmpty }
        guard inHand.count < policy.maximumInHand else { return false }
        // In flight: the records in hand, less those pausing between attempts and those
        // whose answer is slow to come (a stalled answer holds back only its own record).
        let slow = await lookup.client.rateLimiter.inFlight(longerThan: .seconds(policy.slowAfter))
        let active = inHand.values.count { !$0 } - slow
        return active < policy.concurrency
    }

    private func nextWake() -> Double {
        if unreachable, inHand.isEmpty { return max(0.01, min(policy.recheckInterval, probeAfter.timeIntervalSince(now()))) }
        if !answered, now() < warmUpEnds { return max(0.01, min(policy.recheckInterval, warmUpEnds.timeIntervalSince(now()))) }
        // Busy: look again when an answer may have become slow.
        if !inHand.isEmpty { return min(policy.recheckInterval, policy.slowAfter) }
        return policy.recheckInterval
    }

    private func publishProgress(drained: Bool) async {
        if refused != nil || refusedWrites > 0 { return }
        if unreachable {
            // Said once the records in hand have given up and are stored as failed (each
            // after its request in flight; `cutShort` ends their pauses). A driver that ends
            // its run at `.offline` and cancels the worker then finds every record settled,
            // never one given back untouched because the status came first.
            if inHand.isEmpty { publish(.offline(waiting: await waiting())) }
        } else if !inHand.isEmpty {
            if case .rateLimited = status { return }  // the limiter says when that ends
            publish(.working(waiting: max(0, await waiting() - inHand.count)))
        } else if drained {
            publish(.idle)
        }
    }

    private func nudged() async {
        probeAfter = .distantPast
        await wake.signal()
    }

    private func jobEnded(_ recordID: Int64) async {
        inHand[recordID] = nil
        await wake.signal()
    }

    // MARK: One record

    /// Looks one job up and stores its outcome (or gives it back).
    private nonisolated func process(_ job: LookupJob) async {
        var retry = RequestRetry(
            pauses: policy.retryPauses,
            report: { [weak self] error in await self?.noteOutcome(error) },
            decide: { [weak self] in await self?.decision() ?? .stop },
            sleep: { [weak self] seconds in await self?.pause(job.recordID, seconds) ?? false })
        if let after = policy.hedgeAfter {
            retry.hedgeAfter = after
            retry.hedge = { [weak self] in await self?.mayHedge() ?? false }
        }
        let outcome: LookupOutcome
        do {
            outcome = try await lookup.lookUp(job, retry: &retry).outcome
        } catch .unauthorized(let message) {
            await write { [queue] in try await queue.release(job) }
            await credentialsRefused(message)
            await jobEnded(job.recordID)
            return
        } catch {
            if error.isCancellation || Task.isCancelled {
                // Cancelled (Ctrl-C) or stopping: not a failure of the record, which goes
                // back to the queue as it was.
                await write { [queue] in try await queue.release(job) }
                await jobEnded(job.recordID)
                return
            }
            // Unreachable: due again at once, for the next run or the next probe.
            let delay = await isUnreachable ? 0 : policy.retryDelay(attempts: job.attempts)
            outcome = .failed(message: error.description, retryAt: now().addingTimeInterval(delay))
        }
        if await write({ [queue] in try await queue.complete(job, with: outcome) }) {
            await settled(job.recordID, outcome, requests: retry.requests)
        } else {
            await unsettled(requests: retry.requests)
        }
        await jobEnded(job.recordID)
    }

    /// Counted and reported only once stored.
    private func settled(_ recordID: Int64, _ outcome: LookupOutcome, requests: Int) {
        statistics.count(outcome.kind, requests: requests)
        if case .matched(let release) = outcome, !release.hasFullDetails { detailsMayBeWaiting = true }
        eventSink.yield(.settled(recordID: recordID, outcome: outcome.kind, requests: requests))
    }

    /// An outcome found but never written (see `write`): its requests count, the lookup not.
    private func unsettled(requests: Int) {
        statistics.requests += requests
    }

    /// Writes to the store until it takes the write, each attempt in a task of its own: the
    /// store refuses work from a cancelled task, and a record must never stay claimed
    /// because Ctrl-C came between its lookup and its outcome; a busy store (another process
    /// holding the database past its busy timeout, a `sqlite3` holding `BEGIN EXCLUSIVE`) is
    /// tried again, with growing pauses, until it is free (issue 12). Returns whether it was
    /// written: false only when this task is cancelled and an attempt failed, or when
    /// `stop()` was asked for more than `Policy.writeGraceAfterStop` ago.
    @discardableResult
    private nonisolated func write(_ update: @escaping @Sendable () async throws -> Void) async -> Bool {
        var pause = policy.storeRetryPause
        var refusedBefore = false
        while true {
            let refusal = await Task { () async -> String? in
                do {
                    try await update()
                    return nil
                } catch {
                    return "\(error)"
                }
            }.value
            guard let refusal else {
                if refusedBefore { await writeTaken() }
                return true
            }
            if await writeRefused(refusal, first: !refusedBefore, cancelled: Task.isCancelled) { return false }
            refusedBefore = true
            try? await Task.sleep(for: .seconds(pause))
            pause = min(2, pause * 2)
        }
    }

    /// A write the store refused: the status says why; true when the worker gives up on it
    /// (see `write`).
    private func writeRefused(_ reason: String, first: Bool, cancelled: Bool) -> Bool {
        if first { refusedWrites += 1 }
        publish(.waitingToWrite(reason: reason))
        let graceOver = stopRequested.map { .now - $0 > .seconds(policy.writeGraceAfterStop) } ?? false
        if cancelled || graceOver {
            statistics.unwritten += 1
            refusedWrites -= 1
            return true
        }
        statistics.writeRetries += 1
        return false
    }

    /// A write refused before has been taken.
    private func writeTaken() async {
        refusedWrites -= 1
        await wake.signal()  // the status says what the worker does again
    }

    /// Between two attempts of a record: it does not count as in flight meanwhile.
    private func pause(_ recordID: Int64, _ seconds: Double) async -> Bool {
        inHand[recordID] = true
        await wake.signal()  // room for another record
        let completed = await pauses.sleep(seconds)
        if inHand[recordID] != nil { inHand[recordID] = false }
        return completed
    }

    /// Whether a slow answer may be asked for again now: the room it takes in the window
    /// would otherwise go unused (no record waits in the queue beyond those in hand, no
    /// request waits for the window, and the window is not full).
    private func mayHedge() async -> Bool {
        guard !stopping, !unreachable, refused == nil else { return false }
        let limiter = lookup.client.rateLimiter
        guard await limiter.waiting(.lookup) == 0, await limiter.waiting(.interactive) == 0,
            await limiter.inWindow < limiter.limit
        else { return false }
        return await waiting() <= inHand.count
    }

    private func decision() -> RequestRetry.Decision {
        if stopping || refused != nil { return .stop }
        return unreachable ? .giveUp : .retry
    }

    private var isUnreachable: Bool { unreachable }

    private func credentialsRefused(_ message: String) async {
        if refused == nil { refused = message }
        await wake.signal()
    }

    // MARK: Whether Discogs can be reached

    /// Every request's end, from every record: an answer (even an error status) proves
    /// Discogs is there; transient failures in a row, over a few seconds, prove it is not.
    private func noteOutcome(_ error: DiscogsError?) async {
        guard let error, error.isTransient else {
            failures = (0, 0, nil)
            if !answered, error.map({ if case .unauthorized = $0 { false } else { true } }) ?? true {
                answered = true
                await wake.signal()  // room for the other records
            }
            if unreachable {
                unreachable = false
                offlineRound = 0
                unreachableBecause = nil
                await wake.signal()
            }
            return
        }
        let time = now()
        let since = failures.since ?? time
        let connection = if case .transport(.cannotConnect) = error { true } else { false }
        failures = (failures.count + 1, connection ? failures.connections + 1 : 0, since)
        guard !unreachable, time.timeIntervalSince(since) >= policy.unreachableAfterSeconds,
            failures.connections >= policy.unreachableAfterConnectionFailures || failures.count >= policy.unreachableAfterFailures
        else {
            if unreachable, inHand.count <= 1 {
                // A probe failed: wait longer before the next one.
                offlineRound += 1
                probeAfter = time.addingTimeInterval(policy.offlinePause(round: offlineRound))
            }
            return
        }
        unreachable = true
        unreachableBecause = error
        offlineRound = 0
        probeAfter = time.addingTimeInterval(policy.offlinePause(round: 0))
        await pauses.cutShort()
        await wake.signal()
    }

    // MARK: Full details in the background

    private func startBackgroundDetails() {
        guard policy.backgroundDetails, let details, detailsMayBeWaiting, background == nil, !stopping else { return }
        background = Task { [weak self] in
            await self?.fetchDetailsWhileIdle(details)
        }
    }

    /// One release after another while no lookup is in hand, each at background priority
    /// (the rate limiter serves every waiting lookup first and keeps part of the window
    /// free of background requests).
    private func fetchDetailsWhileIdle(_ details: any ReleaseDetailsQueue) async {
        defer { background = nil }
        while inHand.isEmpty, !stopping, !unreachable, !Task.isCancelled {
            guard let id = try? await details.nextReleaseWithoutDetails(excluding: detailsFailed) else {
                detailsMayBeWaiting = false
                return
            }
            let retry = RequestRetry(
                pauses: Array(policy.retryPauses.prefix(3)),
                report: { [weak self] error in await self?.noteOutcome(error) },
                decide: { [weak self] in await self?.decision() ?? .stop })
            do {
                let release = try await lookup.client.release(id: id, priority: .background, retry: retry)
                await write { try await details.storeDetails(release) }
                detailsFetched += 1
            } catch {
                if error.isCancellation || Task.isCancelled { return }
                detailsFailed.insert(id)  // not again in this run
            }
        }
    }

    // MARK: Status

    /// From the rate limiter: a long wait starts (seconds > 0) or ends (0).
    private func rateLimitChanged(_ seconds: Double) async {
        if seconds >= 1 {
            if !unreachable, refused == nil { publish(.rateLimited(seconds: Int(seconds.rounded(.up)))) }
        } else if case .rateLimited = status {
            publish(.working(waiting: max(0, await waiting() - inHand.count)))
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
