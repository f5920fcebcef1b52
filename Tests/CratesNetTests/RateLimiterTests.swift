import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

@Suite struct RateLimiterTests {
    /// Sends `count` requests back to back, each answered `latency` seconds after it left,
    /// with the given response headers; returns the times they were sent.
    private func run(
        _ limiter: RateLimiter, clock: TestClock, count: Int, latency: Double = 0,
        headers: (Int) -> HTTPHeaders? = { _ in nil }
    ) async throws -> [Double] {
        var sent: [Double] = []
        for i in 0..<count {
            let ticket = try await limiter.acquire()
            sent.append(clock.elapsed.inSeconds)
            clock.advance(by: .seconds(latency))
            await limiter.complete(ticket, status: 200, headers: headers(i))
        }
        return sent
    }

    @Test func aFullWindowGoesAtOnceThenOneSlotAtATime() async throws {
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 5, window: 10, margin: 0), clock: clock)
        let sent = try await run(limiter, clock: clock, count: 7)
        #expect(sent[0..<5].allSatisfy { $0 == 0 })
        #expect(sent[5] == 10)  // the first stamp has left the window
        #expect(sent[6] == 10)
        #expect(clock.waits == [.seconds(10)])
    }

    /// Whatever the latencies, no window of `window` seconds ever holds more than `limit`
    /// answered requests: the property the server's 429 checks.
    @Test(arguments: [0.0, 0.05, 0.4, 1.3])
    func neverMoreThanTheLimitInAnyWindow(latency: Double) async throws {
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 20, window: 5, margin: 0.01), clock: clock)
        let sent = try await run(limiter, clock: clock, count: 120, latency: latency)
        let arrivals = sent  // the server counts a request when it arrives: at or after `sent`
        for (i, t) in arrivals.enumerated() {
            let inWindow = arrivals[..<i].filter { t - $0 < 5 }.count + 1
            #expect(inWindow <= 20)
        }
        // …and runs at the allowed rate: request i+20 leaves one window (plus the margin)
        // after request i was answered, so 120 requests take 5 windows, each stretched by
        // one latency, plus the 19 latencies of the last burst; unless the latency itself is
        // the bottleneck (20 answers take longer than a window).
        let span = try #require(sent.last) - sent[0]
        let expected = max(5 * (5 + latency + 0.01) + 19 * latency, 119 * latency)
        #expect(abs(span - expected) < 0.001)
    }

    @Test func headersLowerTheLimitAndCountOthersRequests() async throws {
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 60, window: 60, margin: 0), clock: clock)
        // Discogs says: 25 allowed, 20 used already (another process), 5 remaining.
        let first = try await limiter.acquire()
        await limiter.complete(first, status: 200, headers: HTTPHeaders([("X-Discogs-Ratelimit", "25"), ("x-discogs-ratelimit-used", "20"), ("X-DISCOGS-RATELIMIT-REMAINING", "5")]))
        #expect(await limiter.limit == 25)
        for _ in 0..<5 {
            let t = try await limiter.acquire()
            await limiter.complete(t, status: 200, headers: nil)
        }
        #expect(clock.waits.isEmpty)
        _ = try await limiter.acquire()  // the 26th in the window must wait a whole window
        #expect(clock.waits == [.seconds(60)])
    }

    /// What an import's time left is made of: a full window makes the next request wait,
    /// however few are left.
    @Test func secondsUntilSentCountsTheWaitForTheWindow() async throws {
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 60, window: 60, margin: 0), clock: clock)
        #expect(await limiter.secondsUntilSent(0) == 0)
        #expect(await limiter.secondsUntilSent(60) == 0, "a fresh window sends 60 at once")
        #expect(await limiter.secondsUntilSent(61) == 60)
        #expect(await limiter.secondsUntilSent(300) == 240, "then 60 a window, worked out without 300 steps")
        // 60 requests over 10 s fill the window: the 6 left wait for the first to leave it.
        for i in 0..<60 {
            let ticket = try await limiter.acquire()
            if i % 6 == 5 { clock.advance(by: .seconds(1)) }
            await limiter.complete(ticket, status: 200, headers: nil)
        }
        #expect(await limiter.secondsUntilSent(6) == 51, "the first answered at 0, now is 10: it leaves at 60, then one a second")
        #expect(await limiter.secondsUntilSent(1) == 50)
        // Requests answered elsewhere on the account (the headers) count too.
        let other = RateLimiter(configuration: .init(limit: 60, window: 60, margin: 0), clock: clock)
        let t = try await other.acquire()
        await other.complete(t, status: 200, headers: HTTPHeaders([("x-discogs-ratelimit", "60"), ("x-discogs-ratelimit-remaining", "0")]))
        #expect(await other.secondsUntilSent(1) == 60)
    }

    @Test func remainingZeroFillsTheWindow() async throws {
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 60, window: 60, margin: 0), clock: clock)
        let t = try await limiter.acquire()
        await limiter.complete(t, status: 200, headers: HTTPHeaders([("x-discogs-ratelimit", "60"), ("x-discogs-ratelimit-remaining", "0")]))
        _ = try await limiter.acquire()
        #expect(clock.waits == [.seconds(60)])
    }

    @Test func a429PausesForRetryAfterOrAWholeWindow() async throws {
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 60, window: 60, margin: 0), clock: clock)
        let a = try await limiter.acquire()
        await limiter.complete(a, status: 429, headers: HTTPHeaders([("Retry-After", "7")]))
        let b = try await limiter.acquire()
        #expect(clock.waits == [.seconds(7)])
        await limiter.complete(b, status: 429, headers: nil)
        _ = try await limiter.acquire()
        #expect(clock.waits == [.seconds(7), .seconds(60)])
        #expect(await limiter.statistics.throttled == 2)
    }

    @Test func longWaitsAreReportedToTheObserver() async throws {
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 30, margin: 0), clock: clock)
        let seen = LockBox<[Double]>()
        await limiter.setObserver { seen.append($0) }
        _ = try await run(limiter, clock: clock, count: 2)
        #expect(seen.all == [30, 0])
    }

    @Test func stampsAreTakenWhenTheAnswerArrives() async throws {
        // A request answered 3 s after it left frees its slot 3 s later than it would if it
        // were stamped when sent: the server may have counted it late.
        let clock = TestClock(jumps: true)
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 10, margin: 0), clock: clock)
        let sent = try await run(limiter, clock: clock, count: 2, latency: 3)
        #expect(sent == [0, 13])
    }
}
