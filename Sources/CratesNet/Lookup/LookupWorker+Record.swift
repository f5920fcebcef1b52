import CratesCore

/// One record, from its claim to its stored outcome.
extension LookupWorker {
    /// Looks one job up and stores its outcome (or gives it back).
    nonisolated func process(_ job: LookupJob) async {
        var retry = retry(pauses: policy.retryPauses, sleep: { [weak self] pause in await self?.pause(job.recordID, pause) ?? false })
        if let after = policy.hedgeAfter {
            retry.hedgeAfter = after.inSeconds
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
            // Unreachable: due again at once, for the next run or the next probe; a record
            // the catalogue does not know says so while it waits.
            let unreachable = await reachability.isUnreachable
            let delay = unreachable ? .zero : policy.retryLater.delay(job.attempts)
            let edition = await catalogueAsked?.edition
            let message = unreachable ? edition?.waitingForDiscogs ?? error.description : error.description
            outcome = .failed(message: message, retryAt: timeline.date.addingTimeInterval(delay.inSeconds))
        }
        if await write({ [queue] in try await queue.complete(job, with: outcome) }) {
            await settled(job.recordID, outcome, requests: retry.requests)
        } else {
            await unsettled(requests: retry.requests)
        }
        await jobEnded(job.recordID)
    }

    /// The requests of a lookup or a fetch, sent again after transient failures: each end
    /// tells whether Discogs can be reached, and each new attempt asks whether to go on.
    nonisolated func retry(pauses: [Duration], sleep: (@Sendable (Double) async -> Bool)? = nil) -> RequestRetry {
        var retry = RequestRetry(
            pauses: pauses.map(\.inSeconds),
            report: { [weak self] error in await self?.requestEnded(error) },
            decide: { [weak self] in await self?.decision() ?? .stop })
        retry.timeline = timeline
        if let sleep { retry.sleep = sleep }
        return retry
    }

    /// Counted and reported only once stored.
    private func settled(_ recordID: Int64, _ outcome: LookupOutcome, requests: Int) {
        statistics.count(outcome.kind, requests: requests)
        if case .matched(let release) = outcome, !release.hasFullDetails { background?.mayBeWaiting = true }
        eventSink.yield(.settled(recordID: recordID, outcome: outcome.kind, requests: requests))
    }

    /// An outcome found but never written (see `write`): its requests count, the lookup not.
    private func unsettled(requests: Int) {
        statistics.requests += requests
    }

    /// Records pausing between two attempts now.
    var pausing: Int { inHand.values.count { $0 != nil } }

    /// How long each pause under way has left, its end fixed before it began: what a test
    /// on virtual time moves the clock on by.
    var pausesLeft: [Duration] {
        let now = timeline.now
        return inHand.values.compactMap { $0.map { $0 - now } }.sorted()
    }

    private func jobEnded(_ recordID: Int64) async {
        inHand[recordID] = nil
        await wake.signal()
    }

    // MARK: Writing

    /// Writes to the store until it takes the write (`StoreWriteRetry`). Returns whether it
    /// was written: false only when this task is cancelled and an attempt failed, or when
    /// `stop` was asked for more than `Policy.writeGraceAfterStop` ago.
    @discardableResult
    nonisolated func write(_ update: @escaping @Sendable () async throws -> Void) async -> Bool {
        await StoreWriteRetry(pauses: policy.storeRetry, timeline: timeline).write(
            update,
            refused: { [weak self] reason, first, cancelled in
                await self?.writeRefused(reason, first: first, cancelled: cancelled) ?? true
            },
            taken: { [weak self] in await self?.writeTaken() })
    }

    /// A write the store refused: the status says why; true when the worker gives up on it.
    private func writeRefused(_ reason: String, first: Bool, cancelled: Bool) -> Bool {
        if first { refusedWrites += 1 }
        publish(.waitingToWrite(reason: reason))
        let graceOver = stopRequested.map { timeline.now - $0 > policy.writeGraceAfterStop } ?? false
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

    // MARK: Between attempts

    /// Between two attempts of a record: it does not count as in flight meanwhile.
    private func pause(_ recordID: Int64, _ seconds: Double) async -> Bool {
        let end = timeline.now + .seconds(seconds)
        inHand[recordID] = .some(end)
        await wake.signal()  // room for another record
        let completed = await pauses.sleep(until: end)
        if inHand[recordID] != nil { inHand[recordID] = .some(nil) }
        return completed
    }

    /// Whether a slow answer may be asked for again now: the room it takes in the window
    /// would otherwise go unused (no record waits in the queue beyond those in hand, no
    /// request waits for the window, and the window is not full).
    private func mayHedge() async -> Bool {
        guard !stopping, !reachability.isUnreachable, refused == nil else { return false }
        let limiter = lookup.client.rateLimiter
        guard await limiter.waiting(.lookup) == 0, await limiter.waiting(.interactive) == 0,
            await limiter.inWindow < limiter.limit
        else { return false }
        return await waiting() <= inHand.count
    }

    private func decision() -> RequestRetry.Decision {
        if stopping || refused != nil { return .stop }
        return reachability.isUnreachable ? .giveUp : .retry
    }

    private func credentialsRefused(_ message: String) async {
        if refused == nil { refused = message }
        await wake.signal()
    }

    /// Every request's end, from every record (see `Reachability`).
    private func requestEnded(_ error: DiscogsError?) async {
        switch reachability.note(error, at: timeline.now, probing: inHand.count <= 1) {
        case .unchanged:
            break
        case .reachable:
            await wake.signal()  // room for the other records
        case .unreachable:
            await pauses.cutShort()
            await wake.signal()
        }
    }
}
