/// Paces requests so that they run at the rate Discogs allows without tripping 429s, and
/// decides who goes first when several wait: a person waiting on the screen, then the
/// lookups, then background work (see `Priority`).
///
/// Discogs counts requests over a moving window (60 s; 60 requests authenticated, 25
/// anonymous) and reports `X-Discogs-Ratelimit` (the limit), `-Used` and `-Remaining` on
/// every response. The limiter keeps its own record of its requests and lets a request go
/// only while fewer than `limit` of them lie inside the window.
///
/// Why it cannot trip the server's window, with several requests in flight: a request
/// counts from the moment it is sent (an open stamp, which never leaves the window) until
/// its answer has arrived, when it is stamped with that time and then counts for a whole
/// window more. The server counted it somewhere in between, so for every request the
/// limiter's window ends later than the server's, and the limiter never has fewer requests
/// in its window than the server has in its own. Requests made by someone else on the same
/// account (another process) show up as a `-Used` higher than the limiter's own count, and
/// are added as if made now (the cautious guess, as their times are unknown). A 429 all the
/// same pauses every request for `Retry-After` when sent, else a whole window.
public actor RateLimiter {
    /// A reservation: given by `acquire`, handed back to `complete`.
    public struct Ticket: Sendable, Hashable {
        fileprivate let id: Int
    }

    /// Who goes first when several requests wait for the window (highest first; in order of
    /// arrival within one priority).
    public enum Priority: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Work nobody waits for (a release's full details, fetched while nothing else is
        /// due): never ahead of a waiting request of another priority, and only within
        /// `Configuration.backgroundShare` of the window, so that a new scan still finds
        /// room at once.
        case background
        /// The lookup queue.
        case lookup
        /// A person waiting on the screen (the details they opened): ahead of the queue.
        case interactive

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    public struct Configuration: Sendable {
        /// Requests allowed per window until the server says otherwise.
        public var limit: Int
        /// The window's length in seconds (Discogs: 60).
        public var window: Double
        /// Extra wait after a slot frees, for timer granularity.
        public var margin: Double
        /// The part of the window background requests may fill: the rest stays free for
        /// lookups and people.
        public var backgroundShare: Double

        public init(limit: Int, window: Double = 60, margin: Double = 0.01, backgroundShare: Double = 0.75) {
            self.limit = max(1, limit)
            self.window = window
            self.margin = margin
            self.backgroundShare = min(1, max(0, backgroundShare))
        }

        /// Discogs' published limit with credentials: 60 requests per minute.
        public static let authenticated = Configuration(limit: 60)
        /// Without credentials: 25 per minute.
        public static let anonymous = Configuration(limit: 25)
    }

    /// Counters for status lines, the benchmark and the tests.
    public struct Statistics: Sendable, Hashable {
        public var sent = 0
        public var throttled = 0
        /// Seconds spent waiting for a slot, summed over the requests.
        public var waited = 0.0
        /// The most requests the window held at once, open ones included.
        public var maxInWindow = 0
        /// The most requests sent and not yet answered at once.
        public var maxOpen = 0
    }

    private struct Stamp {
        var id: Int
        var time: Double
        /// Sent, not yet answered: counts as in the window until answered.
        var open: Bool
    }

    private struct Waiter {
        var id: Int
        var priority: Priority
        var since: Double
        var continuation: CheckedContinuation<Ticket, any Error>
    }

    public private(set) var configuration: Configuration
    public private(set) var statistics = Statistics()
    /// The limiter's clock, which the lookup worker tells time by too.
    public nonisolated let timeline: Timeline
    /// Oldest first: closed stamps by answer time, open ones by sending time (an open stamp
    /// is never older than it will be once answered).
    private var stamps: [Stamp] = []
    private var nextID = 0
    private var pausedUntil = -Double.infinity
    private var waiters: [Waiter] = []
    private var timer: Task<Void, Never>?
    private var timerDeadline = Double.infinity
    /// The lowest priorities followed (`waits(from:)`) for which a wait of 2 s or more is
    /// under way: a request of that priority or above is held back.
    private var waitsUnderWay: Set<Priority> = []
    private var observer: (@Sendable (Double) -> Void)?
    /// The end of the wait last reported to the followers from each priority (on
    /// `timeline`), while one is under way.
    private var reportedDeadlines: [Priority: Duration] = [:]
    private var followers: [Int: (from: Priority, continuation: AsyncStream<Duration?>.Continuation)] = [:]

    /// `clock`: the system's by default; a test's, for virtual time.
    public init(configuration: Configuration, clock: any Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        timeline = Timeline(clock)
    }

    /// Seconds on the limiter's clock since it was made.
    private func clockSeconds() -> Double { timeline.now.inSeconds }

    /// How long from now until `requests` more requests of `priority` will all have been
    /// sent, if nothing else is sent meanwhile: the requests in the window now leave it a
    /// window after they were answered (an unanswered one as if answered now), and each new
    /// one takes a place until it leaves in turn. A full window makes even one request wait
    /// most of a minute; a fresh one sends `limit` at once (background work: its share of
    /// the window, `Configuration.backgroundShare`).
    public func secondsUntilSent(_ requests: Int, priority: Priority = .lookup) -> Double {
        guard requests > 0 else { return 0 }
        let now = clockSeconds()
        prune(now: now)
        let limit = room(for: priority)
        // Times at which each request in the window was (or will be) answered, oldest first.
        var times = stamps.map { $0.open ? now : $0.time }.sorted()
        let window = configuration.window + configuration.margin
        var last = max(now, pausedUntil)
        // Once the requests in the window now have left it, the new ones repeat a pattern:
        // each goes a window after the one `limit` places before it. Worked out one by one
        // that far, then by that rule (an import of a million lines costs no more).
        let steps = min(requests, times.count + limit)
        for _ in 0..<steps {
            var start = last
            if times.count >= limit { start = max(start, times[times.count - limit] + window) }
            times.append(start)
            last = start
        }
        let rest = requests - steps
        if rest > 0 { last = times[times.count - limit + (rest - 1) % limit] + window * Double((rest - 1) / limit + 1) }
        return last - now
    }

    /// The limit in force (from the last response's `X-Discogs-Ratelimit`, else configured).
    public var limit: Int { configuration.limit }

    /// Requests in the window now, open ones included.
    public var inWindow: Int {
        prune(now: clockSeconds())
        return stamps.count
    }

    /// Requests sent and not yet answered.
    public var inFlight: Int {
        stamps.count { $0.open }
    }

    /// Requests sent at least `duration` ago and not yet answered: slow answers.
    public func inFlight(longerThan duration: Duration) -> Int {
        let now = clockSeconds()
        return stamps.count { $0.open && now - $0.time >= duration.inSeconds }
    }

    /// Requests waiting for a slot, at `priority`.
    public func waiting(_ priority: Priority) -> Int {
        waiters.count { $0.priority == priority }
    }

    /// Called with the seconds about to be waited when a wait of 2 s or more starts for a
    /// lookup or a person (not for background work), and with 0 when it ends: the status
    /// line's "rate limit: resuming in 8 s". The waits `waits(from: .lookup)` hears.
    public func setObserver(_ observer: (@Sendable (Double) -> Void)?) {
        self.observer = observer
    }

    /// The waits of 2 s or more that hold back a request of `priority` or above, as they
    /// start, move and end: when the wait ends, on `timeline`, or nil once such requests go
    /// again. A follower first hears the wait under way, if any. From `.lookup` (the
    /// default): the waits of a lookup or a person, the same moments as `setObserver`'s,
    /// never background work's, which a status line would show as if the queue were held
    /// back. From `.background`: every wait, for the progress of background work itself
    /// (`crates value --refresh`). A progress line counts the seconds down from them ("rate
    /// limit: resuming in 36 s") instead of going quiet.
    public func waits(from priority: Priority = .lookup) -> AsyncStream<Duration?> {
        let (stream, continuation) = AsyncStream<Duration?>.makeStream(bufferingPolicy: .bufferingNewest(8))
        nextID += 1
        let id = nextID
        followers[id] = (priority, continuation)
        continuation.onTermination = { _ in Task { await self.unfollow(id) } }
        if let deadline = reportedDeadlines[priority] { continuation.yield(deadline) }
        return stream
    }

    private func unfollow(_ id: Int) {
        followers[id] = nil
    }

    /// A waiter of `priority` may not go before `until`: a wait for the followers from that
    /// priority and below, once it lasts 2 s or more (then a later end moves it).
    private func waitHolds(_ priority: Priority, until: Double, now: Double) {
        for floor in Priority.allCases where floor <= priority {
            if !waitsUnderWay.contains(floor) {
                guard until - now >= 2 else { continue }
                waitsUnderWay.insert(floor)
                if floor == .lookup { observer?(until - now) }
            }
            reportWait(.seconds(until), from: floor)
        }
    }

    /// The waits of the followers from each priority in `floors` are over.
    private func waitsEnd(_ floors: [Priority]) {
        for floor in floors where waitsUnderWay.contains(floor) {
            waitsUnderWay.remove(floor)
            if floor == .lookup { observer?(0) }
            reportWait(nil, from: floor)
        }
    }

    /// Tells the followers from `floor` that the wait ends at `deadline` (nil: it ended).
    private func reportWait(_ deadline: Duration?, from floor: Priority) {
        guard deadline != reportedDeadlines[floor] else { return }
        reportedDeadlines[floor] = deadline
        for follower in followers.values where follower.from == floor { follower.continuation.yield(deadline) }
    }

    /// Waits until a request may be sent, and reserves its place in the window. Waiters go
    /// in order of priority, then of arrival. Throws `CancellationError` when the task is
    /// cancelled while it waits, or when the task's `RateWaitStop` stops.
    public func acquire(priority: Priority = RequestPriority.current) async throws -> Ticket {
        try Task.checkCancellation()
        nextID += 1
        let id = nextID
        let waitStop = RateWaitStop.current
        let watch = waitStop?.onStop { Task { await self.cancel(id) } }
        if waitStop != nil, watch == nil { throw CancellationError() }
        defer { if let watch { waitStop?.remove(watch) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiters.append(Waiter(id: id, priority: priority, since: clockSeconds(), continuation: continuation))
                pump()
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Records that the request of `ticket` was answered, with the response's headers (any
    /// case) and status. A 429 pauses every request.
    public func complete(_ ticket: Ticket, status: Int?, headers: HTTPHeaders?) {
        let now = clockSeconds()
        if let i = stamps.firstIndex(where: { $0.id == ticket.id }) {
            var stamp = stamps.remove(at: i)
            stamp.time = now
            stamp.open = false
            stamps.append(stamp)  // now is later than every stamp's time: still in order
        }
        prune(now: now)
        if let headers {
            if let reported = headers["X-Discogs-Ratelimit"].flatMap({ Int($0.trimmingCharacters(in: " ")) }), reported > 0 {
                configuration.limit = reported
            }
            var used = headers["X-Discogs-Ratelimit-Used"].flatMap { Int($0.trimmingCharacters(in: " ")) }
            if let remaining = headers["X-Discogs-Ratelimit-Remaining"].flatMap({ Int($0.trimmingCharacters(in: " ")) }) {
                used = max(used ?? 0, configuration.limit - remaining)
            }
            if let used, used > stamps.count {
                // Someone else spends this account's requests: count theirs as made now.
                for _ in 0..<(used - stamps.count) {
                    nextID += 1
                    stamps.append(Stamp(id: nextID, time: now, open: false))
                }
            }
        }
        if status == 429 {
            statistics.throttled += 1
            let retryAfter = headers?["Retry-After"].flatMap { Double($0.trimmingCharacters(in: " ")) }
            pausedUntil = max(pausedUntil, now + (retryAfter ?? configuration.window))
        }
        pump()
    }

    /// Gives back a reservation whose request got no answer (a connection error, a
    /// timeout, a cancelled transfer): it still counts, as it may have reached the server.
    public func abandon(_ ticket: Ticket) {
        complete(ticket, status: nil, headers: nil)
    }

    // MARK: Scheduling

    /// Grants every waiter that may go now, best first; arms the timer for the first one
    /// that may not.
    private func pump() {
        let now = clockSeconds()
        prune(now: now)
        while let index = bestWaiter() {
            let waiter = waiters[index]
            guard let until = earliestStart(for: waiter.priority, now: now) else {
                // The window is full up to an unanswered request: its answer pumps again.
                return
            }
            if until > now {
                // A later end (a 429's pause) moves the countdown; the observer heard the start.
                waitHolds(waiter.priority, until: until, now: now)
                arm(until)
                return
            }
            waiters.remove(at: index)
            nextID += 1
            stamps.append(Stamp(id: nextID, time: now, open: true))
            statistics.sent += 1
            statistics.waited += max(0, now - waiter.since)
            statistics.maxInWindow = max(statistics.maxInWindow, stamps.count)
            statistics.maxOpen = max(statistics.maxOpen, stamps.count { $0.open })
            waitsEnd(Priority.allCases.filter { $0 <= waiter.priority })
            waiter.continuation.resume(returning: Ticket(id: nextID))
        }
    }

    /// The waiter to serve next: the highest priority, the first to come within it.
    private func bestWaiter() -> Int? {
        var best: Int?
        for (i, w) in waiters.enumerated() where best.map({ w.priority > waiters[$0].priority }) ?? true {
            best = i
        }
        return best
    }

    /// When a request of `priority` may go; nil when the window is full up to a request
    /// still unanswered (whose answer decides).
    private func earliestStart(for priority: Priority, now: Double) -> Double? {
        let room = room(for: priority)
        var until = pausedUntil
        if stamps.count >= room {
            // A slot frees when enough answered requests have left the window, oldest first;
            // an unanswered one leaves it only after its answer, a whole window later.
            let leaving = stamps.count - room + 1
            guard let freeing = stamps.lazy.filter({ !$0.open }).dropFirst(leaving - 1).first else {
                return until > now ? until : nil
            }
            until = max(until, freeing.time + configuration.window + configuration.margin)
        }
        return until
    }

    /// The requests of `priority` the window may hold: all of it, or background work's share.
    private func room(for priority: Priority) -> Int {
        priority == .background
            ? max(1, Int((Double(configuration.limit) * configuration.backgroundShare).rounded(.down)))
            : max(1, configuration.limit)
    }

    /// One timer at a time, for the earliest moment a waiter may go.
    private func arm(_ deadline: Double) {
        if timer != nil, timerDeadline <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        timer = Task { [timeline] in
            try? await timeline.sleep(until: .seconds(deadline))
            self.timerFired(deadline)
        }
    }

    private func timerFired(_ deadline: Double) {
        if deadline == timerDeadline {
            timer = nil
            timerDeadline = .infinity
        }
        pump()
    }

    private func cancel(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
        // No request left that a wait held back: over for those who follow it.
        waitsEnd(Priority.allCases.filter { floor in !waiters.contains { $0.priority >= floor } })
        pump()
    }

    private func prune(now: Double) {
        stamps.removeAll { !$0.open && $0.time + configuration.window <= now }
    }
}

/// The priority of the Discogs requests a task makes, for the rate limiter: a task-local
/// value, so that the code between a use case and `DiscogsClient` needs no parameter for it.
///
///     try await RequestPriority.at(.interactive) { () async throws(DiscogsError) in try await client.release(id: id) }
public enum RequestPriority {
    @TaskLocal public static var current: RateLimiter.Priority = .lookup

    /// Runs `body` with its requests at `priority`, their waits for the window ended by
    /// `waitStop` when given (see `RateWaitStop`), keeping its typed error (`withValue`
    /// rethrows untyped; only a `DiscogsError` can come through it).
    public static func at<T>(
        _ priority: RateLimiter.Priority, waitsEndedBy waitStop: RateWaitStop? = nil, _ body: () async throws(DiscogsError) -> T
    ) async throws(DiscogsError) -> T {
        do {
            return try await $current.withValue(priority) {
                try await RateWaitStop.$current.withValue(waitStop ?? RateWaitStop.current) { try await body() }
            }
        } catch let error as DiscogsError {
            throw error
        } catch {
            throw .transport(.cancelled)
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return s
    }
}
