import CratesCore
import CratesNet
import Foundation

/// Runs a lookup worker until a goal is met: the one driver behind `crates import`'s lookups
/// and `crates add --wait`, built on the worker's event stream (no polling).
///
/// It ends when the goal is met, when the credentials are refused (the worker stops), when
/// Discogs cannot be reached (the worker says so only after requests failed in a row for a
/// few seconds: one timeout or dropped connection is tried again within the run, and never
/// ends the drive; the records wait in the queue for later), when the time runs out, or when
/// the task driving it is cancelled (Ctrl-C, SIGTERM and SIGHUP cancel a command's root
/// task): then the worker is cancelled, and the lookups in hand go back to the queue
/// untouched.
public struct LookupDriver: Sendable {
    public enum Goal: Sendable {
        /// Nothing is due any more (failed lookups wait for their retry time).
        case queueDrained
        /// These records are settled: matched, ambiguous, not found, skipped or failed; or
        /// none of those left is this worker's to settle: the queue has nothing due while
        /// nothing is in hand (a record added already matched, set aside, deleted, or held
        /// by another process's claim). Waiting longer would wait for nothing.
        case settled(Set<Int64>)
    }

    /// Why the drive ended before its goal.
    public enum Stop: Hashable, Sendable {
        case interrupted
        case unauthorized(String)
        case offline
        case timedOut
    }

    public struct Run: Sendable {
        public var counts = LookupCounts()
        /// The records whose lookup failed in this drive (after the retries within it), in
        /// order: they wait in the queue for their retry time.
        public var failed: [Int64] = []
        /// Nil: the goal was met.
        public var stop: Stop?
    }

    public let worker: LookupWorker

    public init(worker: LookupWorker) {
        self.worker = worker
    }

    /// Drives the worker. `progress` is called after each settled lookup and status change.
    public func run(
        until goal: Goal, timeout: Duration? = nil,
        progress: @escaping @Sendable (LookupCounts, LookupStatus) async -> Void = { _, _ in }
    ) async -> Run {
        let worker = self.worker
        let running = Task { await worker.run() }
        let ended = LockedBox<Stop?>(nil)
        // The drive itself is not cancelled (an event stream ends for a cancelled consumer,
        // and the lookups settled while stopping would go uncounted): the cancellation is
        // heard here and handed to the worker's task.
        return await withTaskCancellationHandler {
            await uncancelled { await drive(until: goal, timeout: timeout, running: running, ended: ended, progress: progress) }
        } onCancel: {
            ended.withLock { $0 = $0 ?? .interrupted }
            // Cancelling, not stopping: a stop would wait for the lookup in hand, which may
            // wait a whole minute for the rate limit. Cancelled, the worker gives it back.
            running.cancel()
        }
    }

    private func drive(
        until goal: Goal, timeout: Duration?, running: Task<LookupStatus, Never>, ended: LockedBox<Stop?>,
        progress: @escaping @Sendable (LookupCounts, LookupStatus) async -> Void
    ) async -> Run {
        let worker = self.worker
        let timer = timeout.map { limit in
            Task {
                try await worker.timeline.sleep(for: limit)
                ended.withLock { $0 = $0 ?? .timedOut }
                running.cancel()
            }
        }
        defer { timer?.cancel() }

        var run = Run()
        var waitingFor: Set<Int64>?
        if case .settled(let ids) = goal { waitingFor = ids }
        var metGoal = waitingFor?.isEmpty ?? false
        var status = LookupStatus.starting
        if metGoal { running.cancel() }
        // One iterator for both loops below: a stream has one consumer.
        var events = worker.events.makeAsyncIterator()
        while let event = await events.next() {
            switch event {
            case .settled(let id, let outcome, let requests):
                run.counts.count(outcome, requests: requests)
                if outcome == .failed { run.failed.append(id) }
                if waitingFor?.remove(id) != nil, waitingFor?.isEmpty == true { metGoal = true }
            case .nothingDue:
                // Either goal: nothing this worker could settle is left.
                metGoal = true
            case .status(let new):
                status = new
                switch new {
                case .idle:
                    if case .queueDrained = goal { metGoal = true }
                case .unauthorized(let message):
                    ended.withLock { $0 = $0 ?? .unauthorized(message) }
                case .offline:
                    ended.withLock { $0 = $0 ?? .offline }
                case .starting, .working, .rateLimited, .waitingToWrite, .stopped:
                    break
                }
            }
            await progress(run.counts, status)
            if metGoal || ended.withLock({ $0 }) != nil { break }
        }
        if metGoal {
            // Nothing in hand once the queue is drained; a lookup of another record may be
            // (add --wait): it may finish for a few seconds, then goes back to the queue.
            await worker.stop()
            _ = await running.value
        } else {
            running.cancel()
            _ = await running.value
        }
        // Lookups settled while stopping still count.
        while let event = await events.next() {
            if case .settled(let id, let outcome, let requests) = event {
                run.counts.count(outcome, requests: requests)
                if outcome == .failed { run.failed.append(id) }
                waitingFor?.remove(id)
            }
        }
        if waitingFor?.isEmpty == true { metGoal = true }
        run.stop = metGoal ? nil : (ended.withLock { $0 } ?? .interrupted)
        return run
    }
}
