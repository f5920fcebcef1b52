import CratesCore

/// Drains the lookup queue, several records at once: claims them, looks each up
/// (`DiscogsBarcodeLookup`: one request for a barcode found at its first form), and stores
/// each outcome. Runs inside the TUI, `crates import` and `crates add --wait`.
///
/// - With a local catalogue, every record due is asked of it first, in large batches and
///   with no request (`LookupWorker+Catalogue`); Discogs is asked only about the rest.
///
/// - Several lookups in flight, all under the client's one `RateLimiter`, which never lets
///   more out than the window allows: one slow answer holds back only its own record
///   (`ClaimPolicy`).
/// - A transient failure (5xx, an answer that does not parse, a timeout, a broken
///   connection) is tried again within the run after 1 s, 2 s, 4 s… (`Policy.retryPauses`);
///   the record goes to "failed, retry later" only after more failures in a row than there
///   are pauses, or while Discogs is unreachable. A 429 is honoured by the client.
/// - Discogs unreachable (`Reachability`): the records in hand go back to the queue as failed
///   and due at once, the status says offline, and the worker tries one record again after
///   growing pauses (cut short by `nudge()`).
/// - 401 stops the worker: the jobs go back to the queue untouched and the status says to
///   run `crates auth`.
/// - An outcome is stored before it is counted or reported, and a store that is busy is
///   tried again until it takes it (`StoreWriteRetry`); the status says so meanwhile
///   (`waitingToWrite`). Only a cancelled run, or one stopped more than
///   `Policy.writeGraceAfterStop` ago, gives up on a write (`LookupCounts.unwritten`): the
///   record keeps this process's claim, free for the next claimer once the process has
///   exited (`ClaimOwner`).
/// - With a `ReleaseDetailsQueue` and `Policy.backgroundDetails`, while no lookup is due it
///   fetches the full details of releases completed from search results, at the rate
///   limiter's background priority: never ahead of a waiting lookup.
/// - Several processes on one database never look the same record up twice: the queue's
///   claim holds a lease.
///
/// It tells time by its client's rate limiter's clock (`timeline`): a test that gives the
/// limiter a test clock runs the worker on virtual time.
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

    /// How long `stop()` lets the lookups in hand finish by default before it cancels them.
    public static let stopPatience: Duration = .seconds(3)

    /// Every status change and every settled lookup, for one consumer (the TUI's status
    /// line, an import's progress, `crates add --wait`). Unbounded: no settled lookup is
    /// dropped for a slow reader; it ends when `run()` returns.
    public nonisolated let events: AsyncStream<Event>
    public private(set) var status: LookupStatus = .starting
    /// What this worker has looked up, for the benchmark and the tests.
    public internal(set) var statistics = LookupCounts()
    /// Full details fetched in the background so far.
    public var detailsFetched: Int { background?.fetched ?? 0 }
    /// The last failure that made Discogs count as unreachable, for a message.
    public var unreachableBecause: DiscogsError? { reachability.lostBecause }
    /// The worker's clock: its rate limiter's.
    public nonisolated var timeline: Timeline { lookup.client.rateLimiter.timeline }

    let queue: any LookupQueue
    nonisolated let lookup: DiscogsBarcodeLookup
    /// The local catalogue, asked before Discogs (`LookupWorker+Catalogue`), with the queue
    /// as it answers from it; nil without one (or a queue that cannot).
    let catalogue: (catalogue: any ReleaseCatalogue, queue: any CatalogueLookupQueue)?
    /// Set when the catalogue failed in this run: Discogs is asked about every record, as
    /// without a catalogue.
    var catalogueFailure: ReleaseCatalogueError?
    /// False without a Discogs account: the catalogue answers what it can, and the rest
    /// waits in the queue, no request sent.
    let asksDiscogs: Bool
    let policy: Policy
    let eventSink: AsyncStream<Event>.Continuation
    let wake: WakeSignal
    let pauses: InterruptiblePauses
    var reachability: Reachability
    var background: BackgroundDetails?
    /// Records in hand: claimed, not yet settled; with the end of its pause (on `timeline`)
    /// while pausing between two attempts.
    var inHand: [Int64: Duration?] = [:]
    /// Set by `stop`: no more claims.
    var stopping = false
    /// When `stop` was asked for, on `timeline`.
    var stopRequested: Duration?
    /// The credentials were refused: every other request would be too.
    var refused: String?
    /// Writes the store refuses now, being tried again: the status says `waitingToWrite`
    /// until they are taken.
    var refusedWrites = 0
    /// Set when `stop`'s patience has run out: the lookups in hand are cancelled.
    private var cutShort = false
    private var running = false
    /// When `run()` began, on `timeline`.
    private var started: Duration = .zero
    private var finished: [CheckedContinuation<Void, Never>] = []

    /// `catalogue`: asked first, about every record due (`queue` must answer from it, as the
    /// store does). `asksDiscogs` false: the catalogue only (no account).
    public init(
        queue: any LookupQueue, lookup: DiscogsBarcodeLookup, catalogue: (any ReleaseCatalogue)? = nil,
        asksDiscogs: Bool = true, details: (any ReleaseDetailsQueue)? = nil, policy: Policy = Policy()
    ) {
        self.queue = queue
        self.lookup = lookup
        self.catalogue = catalogue.flatMap { catalogue in (queue as? any CatalogueLookupQueue).map { (catalogue, $0) } }
        self.asksDiscogs = asksDiscogs
        self.policy = policy
        let timeline = lookup.client.rateLimiter.timeline
        wake = WakeSignal(timeline: timeline)
        pauses = InterruptiblePauses(timeline: timeline)
        reachability = Reachability(rule: policy.reachability)
        background = policy.backgroundDetails ? details.map { BackgroundDetails(queue: $0) } : nil
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
    }

    /// Tells an idle or offline worker that there is new work (a scan, an import): an
    /// offline worker tries Discogs again at once.
    public nonisolated func nudge() {
        Task { await self.nudged() }
    }

    /// Stops the worker and returns once `run()` has (at once when it is not running): no
    /// more claims; records pausing between two attempts, or not yet sent, go back to the
    /// queue untouched; the requests in flight may finish for `patience`, and what is still
    /// in hand then is cancelled and goes back too.
    public func stop(patience: Duration = LookupWorker.stopPatience) async {
        stopping = true
        if stopRequested == nil { stopRequested = timeline.now }
        background?.task?.cancel()
        await pauses.interruptAll()
        await wake.signal()
        guard running else { return }
        let timeline = self.timeline
        let end = timeline.now + patience
        let timer = Task {
            guard (try? await timeline.sleep(until: end)) != nil else { return }
            await self.patienceRanOut()
        }
        await withCheckedContinuation { finished.append($0) }
        timer.cancel()
    }

    /// Runs until `stop`, cancellation, or refused credentials. Returns the final status.
    @discardableResult
    public func run() async -> LookupStatus {
        running = true
        started = timeline.now
        await lookup.client.rateLimiter.setObserver { [weak self] seconds in
            Task { await self?.rateLimitChanged(seconds) }
        }
        let final = await withDiscardingTaskGroup(returning: LookupStatus.self) { group in
            while true {
                if let refused {
                    group.cancelAll()  // every other request would be refused too
                    return .unauthorized(message: refused)
                }
                if Task.isCancelled { return .stopped }
                if stopping {
                    // The requests in flight finish (or are cancelled once the patience has
                    // run out) and their records settle or go back to the queue.
                    if cutShort { group.cancelAll() }
                    if inHand.isEmpty || cutShort { return .stopped }
                    await wake.wait(until: timeline.now + policy.claims.recheckInterval)
                    continue
                }
                let (drained, seen) = await claim(into: &group)
                await publishProgress(drained: drained)
                if drained, inHand.isEmpty, !reachability.isUnreachable { startBackgroundDetails() }
                await wake.wait(until: seen.now + policy.claims.nextLook(seen))
            }
        }
        background?.task?.cancel()
        await background?.task?.value
        publish(final)
        eventSink.finish()
        running = false
        for waiter in finished { waiter.resume() }
        finished = []
        return final
    }

    // MARK: Claims and status

    /// Claims records while the claim policy allows, each looked up in a task of `group`.
    /// Returns whether the queue had nothing more due, and the last situation looked at: the
    /// next look is timed from it.
    private func claim(into group: inout DiscardingTaskGroup) async -> (drained: Bool, seen: ClaimPolicy.Situation) {
        await answerFromCatalogue()
        var seen = await situation()
        guard asksDiscogs else {
            // The catalogue only: what it cannot answer waits for an account.
            if inHand.isEmpty { eventSink.yield(.nothingDue) }
            return (true, seen)
        }
        while !stopping, refused == nil, policy.claims.mayClaim(seen) {
            // Whether no record was in hand as the queue was asked: a record given back
            // while the claim waited (refused credentials) is due again.
            let noneInHand = inHand.isEmpty
            let job: LookupJob?
            do {
                if let asked = catalogueAsked {
                    // Discogs is asked only about what the catalogue does not know.
                    job = try await asked.queue.claimNext(now: timeline.date, lease: policy.claims.lease.inSeconds, notIn: asked.edition)
                } else {
                    job = try await queue.claimNext(now: timeline.date, lease: policy.claims.lease.inSeconds)
                }
            } catch {
                return (false, seen)  // the store could not be read: try again later rather than spin
            }
            guard let job else {
                // Nothing due and nothing in hand: the queue is drained for now.
                if noneInHand, inHand.isEmpty, refused == nil { eventSink.yield(.nothingDue) }
                return (true, seen)
            }
            inHand[job.recordID] = .some(nil)
            group.addTask { await self.process(job) }
            seen = await situation()
        }
        return (false, seen)
    }

    /// What the claim policy decides by.
    private func situation() async -> ClaimPolicy.Situation {
        let slow = inHand.isEmpty ? 0 : await lookup.client.rateLimiter.inFlight(longerThan: policy.claims.slowAfter)
        return ClaimPolicy.Situation(
            inHand: inHand.count, pausing: pausing, slow: slow, answered: reachability.answered,
            now: timeline.now, started: started, probeAt: reachability.probeAt)
    }

    private func publishProgress(drained: Bool) async {
        if refused != nil || refusedWrites > 0 { return }
        if reachability.isUnreachable {
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
        reachability.probeNow()
        await wake.signal()
    }

    private func patienceRanOut() async {
        cutShort = true
        await wake.signal()
    }

    /// From the rate limiter: a long wait starts (seconds > 0) or ends (0).
    private func rateLimitChanged(_ seconds: Double) async {
        if seconds >= 1 {
            if !reachability.isUnreachable, refused == nil { publish(.rateLimited(seconds: Int(seconds.rounded(.up)))) }
        } else if case .rateLimited = status {
            publish(.working(waiting: max(0, await waiting() - inHand.count)))
        }
    }

    func waiting() async -> Int {
        (try? await queue.waitingCount()) ?? 0
    }

    func publish(_ new: LookupStatus) {
        guard new != status else { return }
        status = new
        eventSink.yield(.status(new))
    }
}
