import CratesCore
import CratesNet
import CratesTestSupport
import Foundation
import Testing

@testable import CratesApp

/// Progress that never goes quiet: while Discogs' rate limit holds requests back, the import's
/// bar and the sync's line count the seconds down. The limiter tells when a wait starts and
/// ends (`RateLimiter.waits()`); the countdown ticks on the limiter's clock, here a test's.
@Suite("RateWaitCountdown: rate waits counted down on the limiter's clock")
struct RateWaitCountdownTests {
    /// A limiter of 2 requests a minute on `clock`, both spent: the next request waits.
    private func fullWindow(_ clock: TestClock) async throws -> RateLimiter {
        let limiter = RateLimiter(configuration: .init(limit: 2), clock: clock)
        for _ in 0..<2 {
            let ticket = try await limiter.acquire()
            await limiter.complete(ticket, status: 200, headers: nil)
        }
        return limiter
    }

    @Test("a wait: its seconds as it starts, one fewer each second on the limiter's clock, then nil when requests go again")
    func countsDown() async throws {
        let clock = TestClock()
        let limiter = try await fullWindow(clock)
        let shown = LockBox<[Int?]>()
        let countdown = RateWaitCountdown(limiter: limiter) { shown.append($0) }
        let request = Task { try await limiter.acquire() }
        // The window's 60 s (and its margin) from the last answer.
        try await waitUntil("the wait shown", lastSeen: { "\(shown.all)" }) { shown.all == [61] }
        clock.advance(by: .seconds(1))
        try await waitUntil("one second fewer", lastSeen: { "\(shown.all)" }) { shown.all == [61, 60] }
        clock.advance(by: .seconds(30))
        try await waitUntil("thirty fewer", lastSeen: { "\(shown.all)" }) { shown.all.last == 30 }
        clock.advance(by: .seconds(30))
        _ = try await request.value
        try await waitUntil("the wait over", lastSeen: { "\(shown.all)" }) { shown.last == .some(nil) }
        #expect(shown.all.compactMap { $0 } == shown.all.compactMap { $0 }.sorted(by: >), "only ever down: \(shown.all)")
        await countdown.stop()
    }

    @Test("what the import's bar and the sync's line say during a wait, and the sync's bar with the time left")
    func progressLines() {
        #expect(StatusWording.rateLimit(seconds: 36) == "rate limit: resuming in 36 s")
        #expect(
            SyncStatus.pushing(done: 53, total: 199).progressLine(secondsLeft: 150, rateWait: 36)
                == "sync: pushing [####------------] 53/199 · rate limit: resuming in 36 s · 3 min left")
        #expect(
            SyncStatus.reading(done: 300, total: 5000).progressLine(secondsLeft: 45, rateWait: nil)
                == "sync: reading [----------------] 300/5,000 · 45 s left")
        #expect(SyncTimeLeft.requestsLeft(.reading(done: 300, total: 5000)) == 47)
        #expect(SyncTimeLeft.requestsLeft(.pushing(done: 53, total: 199)) == 146)
        // `crates value --refresh` draws the same line: one request each.
        #expect(
            SyncStatus.pricing(done: 3, total: 12).progressLine(secondsLeft: 9, rateWait: nil)
                == "value: asking Discogs [####------------] 3/12 · 9 s left")
        #expect(SyncTimeLeft.requestsLeft(.pricing(done: 3, total: 12)) == 9)
    }

    /// What a `SyncTimeLeft` told, as the command line's progress line keeps it.
    final class Told: Sendable {
        let secondsLeft = LockBox<[Double?]>()
        let rateWaits = LockBox<[Int?]>()
        var rateWait: Int? { rateWaits.last ?? nil }
        var left: Double? { secondsLeft.last ?? nil }

        func follow(_ limiter: RateLimiter, priority: RateLimiter.Priority = .lookup) -> SyncTimeLeft {
            SyncTimeLeft(
                limiter: limiter, priority: priority, timeLeft: { self.secondsLeft.append($0) },
                rateWait: { self.rateWaits.append($0) })
        }
    }

    @Test("a sync's time left follows the limiter: the rate wait told while requests wait, gone after")
    func syncLineFollowsTheLimiter() async throws {
        let clock = TestClock()
        let limiter = try await fullWindow(clock)
        let told = Told()
        let line = told.follow(limiter)
        line.show(.pushing(done: 2, total: 5))
        let request = Task { try await limiter.acquire() }
        try await waitUntil("the wait told") { told.rateWait == 61 }
        clock.advance(by: .seconds(61))
        _ = try await request.value
        try await waitUntil("the wait over") { told.rateWaits.last == .some(nil) }
        await line.finish()
    }

    @Test("`crates value --refresh`'s time left, at background priority: its rate waits counted down, the time left at background's share of the window and falling with the wait; a sync's hears none of it")
    func backgroundLineFollowsItsWaits() async throws {
        let clock = TestClock()
        // 4 requests a minute, background work 3 of them (its share, 0.75): 3 sent fill it.
        let limiter = RateLimiter(configuration: .init(limit: 4), clock: clock)
        for _ in 0..<3 {
            let ticket = try await limiter.acquire(priority: .background)
            await limiter.complete(ticket, status: 200, headers: nil)
        }
        let told = Told()
        let syncTold = Told()
        let line = told.follow(limiter, priority: .background)
        let sync = syncTold.follow(limiter)
        line.show(.pricing(done: 3, total: 10))
        // 7 left, 3 a window (60 s and its margin): 3 at 60.01 s, 3 at 120.02 s, the last at
        // 180.03 s. (At a lookup's 4 a window, it would be 120.02 s.)
        func left(_ seconds: Double) -> Bool { told.left.map { abs($0 - seconds) < 0.001 } == true }
        try await waitUntil("the time left at background's share", lastSeen: { "\(told.secondsLeft.all)" }) { left(180.03) }
        let request = Task { try await limiter.acquire(priority: .background) }
        try await waitUntil("the wait told", lastSeen: { "\(told.rateWaits.all)" }) { told.rateWait == 61 }
        clock.advance(by: .seconds(30))
        try await waitUntil("the wait and the time left fall together", lastSeen: { "\(told.rateWaits.all) \(told.secondsLeft.all)" }) {
            told.rateWait == 31 && left(150.03)
        }
        #expect(syncTold.rateWaits.all.isEmpty, "a sync's (a lookup's priority) never hears background work's waits")
        clock.advance(by: .seconds(31))
        _ = try await request.value
        try await waitUntil("the wait over") { told.rateWaits.last == .some(nil) }
        await line.finish()
        await sync.finish()
    }
}
