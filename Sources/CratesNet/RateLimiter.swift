/// Paces requests so that they run at the rate Discogs allows without tripping 429s.
///
/// Discogs counts requests over a moving window (60 s; 60 requests authenticated, 25
/// anonymous) and reports `X-Discogs-Ratelimit` (the limit), `-Used` and `-Remaining` on
/// every response. The limiter keeps its own record of when its requests were answered and
/// lets a request go only while fewer than `limit` of them lie inside the window.
///
/// Why it cannot trip the server's window: a request is stamped when its response has
/// arrived, which is after the server counted it, so the limiter's window always ends later
/// than the server's for the same request. Requests made by someone else on the same account
/// (another process) show up as a `-Used` higher than the limiter's own count, and are added
/// as if made now (the cautious guess, as their times are unknown). A 429 all the same pauses
/// every request for `Retry-After` when sent, else a whole window.
public actor RateLimiter {
    /// A reservation: given by `acquire`, handed back to `complete`.
    public struct Ticket: Sendable, Hashable {
        fileprivate let id: Int
    }

    public struct Configuration: Sendable {
        /// Requests allowed per window until the server says otherwise.
        public var limit: Int
        /// The window's length in seconds (Discogs: 60; the benchmark scales it down).
        public var window: Double
        /// Extra wait after a slot frees, for timer granularity.
        public var margin: Double

        public init(limit: Int, window: Double = 60, margin: Double = 0.01) {
            self.limit = max(1, limit)
            self.window = window
            self.margin = margin
        }

        /// Discogs' published limit with credentials: 60 requests per minute.
        public static let authenticated = Configuration(limit: 60)
        /// Without credentials: 25 per minute.
        public static let anonymous = Configuration(limit: 25)
    }

    /// Counters for status lines and the benchmark.
    public struct Statistics: Sendable, Hashable {
        public var sent = 0
        public var throttled = 0
        /// Seconds spent waiting for a slot.
        public var waited = 0.0
    }

    private struct Stamp {
        var id: Int
        var time: Double
        /// Sent, not yet answered: counts as in the window until answered.
        var open: Bool
    }

    public private(set) var configuration: Configuration
    public private(set) var statistics = Statistics()
    private let clock: any RateLimitClock
    private var stamps: [Stamp] = []
    private var nextID = 0
    private var pausedUntil = -Double.infinity
    private var observer: (@Sendable (Double) -> Void)?

    public init(configuration: Configuration, clock: any RateLimitClock = SystemRateLimitClock()) {
        self.configuration = configuration
        self.clock = clock
    }

    /// The limit in force (from the last response's `X-Discogs-Ratelimit`, else configured).
    public var limit: Int { configuration.limit }

    /// Called with the seconds about to be waited when a wait of 2 s or more starts, and with
    /// 0 when it ends: the status line's "rate-limited".
    public func setObserver(_ observer: (@Sendable (Double) -> Void)?) {
        self.observer = observer
    }

    /// Waits until a request may be sent, and reserves its place in the window.
    public func acquire() async throws -> Ticket {
        var reported = false
        defer { if reported { observer?(0) } }
        while true {
            let now = clock.now()
            prune(now: now)
            var until = pausedUntil
            if stamps.count >= configuration.limit {
                // The slot frees when the oldest stamp that keeps the window full leaves it.
                // An open (unanswered) stamp has no final time yet: look again shortly.
                let blocking = stamps[stamps.count - configuration.limit]
                until = max(until, blocking.open ? now + 0.05 : blocking.time + configuration.window + configuration.margin)
            }
            if until <= now {
                nextID += 1
                stamps.append(Stamp(id: nextID, time: now, open: true))
                statistics.sent += 1
                return Ticket(id: nextID)
            }
            if until - now >= 2, !reported {
                reported = true
                observer?(until - now)
            }
            statistics.waited += until - now
            try await clock.sleep(until: until)
        }
    }

    /// Records that the request of `ticket` was answered, with the response's headers (any
    /// case) and status. A 429 pauses every request.
    public func complete(_ ticket: Ticket, status: Int?, headers: HTTPHeaders?) {
        let now = clock.now()
        if let i = stamps.firstIndex(where: { $0.id == ticket.id }) {
            stamps[i].time = now
            stamps[i].open = false
            stamps.sort { $0.time < $1.time }
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
    }

    /// Gives back a reservation whose request never reached the server (a connection error):
    /// it still counts, as it may have reached it.
    public func abandon(_ ticket: Ticket) {
        complete(ticket, status: nil, headers: nil)
    }

    private func prune(now: Double) {
        stamps.removeAll { !$0.open && $0.time + configuration.window <= now }
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
