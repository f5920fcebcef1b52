import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// The limiter with several requests waiting and in flight, on virtual time that moves only
/// when the test says (`TestClock`).
@Suite struct RateLimiterPriorityTests {
    /// Starts an acquire in a task and waits until it is in line (or granted at once).
    private func line(_ limiter: RateLimiter, _ priority: RateLimiter.Priority, order: Order) async -> Task<Void, any Error> {
        let before = await limiter.waiting(priority)
        let task = Task {
            let ticket = try await limiter.acquire(priority: priority)
            await limiter.complete(ticket, status: 200, headers: nil)
            order.append(priority)  // once answered: the next slot's time is known
        }
        _ = try? await waitUntil("the request waits or is answered") { await limiter.waiting(priority) > before || order.all.contains(priority) }
        return task
    }

    @Test func waitersGoByPriorityThenInOrderOfArrival() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 10, margin: 0, backgroundShare: 1), clock: clock)
        let first = try await limiter.acquire()
        await limiter.complete(first, status: 200, headers: nil)
        let order = Order()
        var tasks: [Task<Void, any Error>] = []
        for priority in [RateLimiter.Priority.background, .lookup, .interactive, .lookup, .background] {
            tasks.append(await line(limiter, priority, order: order))
        }
        #expect(order.all.isEmpty, "the window is full: everyone waits")
        for expected in 1...5 {
            clock.advance(by: .seconds(11))
            try await waitUntil("order.all.count == expected") { order.all.count == expected }
        }
        for task in tasks { try await task.value }
        #expect(order.all == [.interactive, .lookup, .lookup, .background, .background])
    }

    /// A request in flight counts in the window from the moment it is sent: with three sent
    /// and none answered, a fourth waits, and goes a whole window after the first answer.
    @Test func requestsInFlightFillTheWindow() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 3, window: 10, margin: 0), clock: clock)
        var open: [RateLimiter.Ticket] = []
        for _ in 0..<3 { open.append(try await limiter.acquire()) }
        #expect(await limiter.inWindow == 3)
        let order = Order()
        let fourth = await line(limiter, .lookup, order: order)
        clock.advance(by: .seconds(100))  // time alone frees nothing: the three are unanswered
        #expect(await limiter.waiting(.lookup) == 1)
        await limiter.complete(open[0], status: 200, headers: nil)  // answered at 100
        #expect(await limiter.waiting(.lookup) == 1, "answered now, it counts for a window more")
        clock.advance(by: .seconds(9))
        #expect(await limiter.waiting(.lookup) == 1)
        clock.advance(by: .seconds(1))  // 110: the first answer leaves the window
        try await fourth.value
        #expect(order.all == [.lookup])
        let statistics = await limiter.statistics
        #expect(statistics.maxOpen == 3 && statistics.maxInWindow == 3 && statistics.sent == 4)
    }

    /// Background requests leave part of the window free, so that a new scan's lookup goes
    /// at once even after a burst of background work.
    @Test func backgroundLeavesRoomForLookups() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 4, window: 10, margin: 0, backgroundShare: 0.5), clock: clock)
        for _ in 0..<2 {
            let t = try await limiter.acquire(priority: .background)
            await limiter.complete(t, status: 200, headers: nil)
        }
        let order = Order()
        let third = await line(limiter, .background, order: order)
        #expect(await limiter.waiting(.background) == 1, "half the window is background's share")
        let lookup = try await limiter.acquire(priority: .lookup)  // at once
        await limiter.complete(lookup, status: 200, headers: nil)
        clock.advance(by: .seconds(11))
        try await third.value
        #expect(order.all == [.background])
    }

    @Test func aCancelledWaiterLeavesTheLine() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 10, margin: 0), clock: clock)
        let first = try await limiter.acquire()
        await limiter.complete(first, status: 200, headers: nil)
        let waiting = Task { try await limiter.acquire(priority: .interactive) }
        try await waitUntil("await limiter.waiting(.interactive) == 1") { await limiter.waiting(.interactive) == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        #expect(await limiter.waiting(.interactive) == 0)
        let order = Order()
        let next = await line(limiter, .lookup, order: order)
        clock.advance(by: .seconds(11))
        try await next.value
        #expect(order.all == [.lookup])
    }

    @Test("a RateWaitStop ends its task's wait for the window, not a ticket already given; a wait after it ends at once")
    func aStoppedWaitLeavesTheLine() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 10, margin: 0), clock: clock)
        let waitStop = RateWaitStop()
        // Given at once: the stop does not take it back.
        let first = try await RateWaitStop.$current.withValue(waitStop) { try await limiter.acquire() }
        let waiting = Task { try await RateWaitStop.$current.withValue(waitStop) { try await limiter.acquire() } }
        try await waitUntil("await limiter.waiting(.lookup) == 1") { await limiter.waiting(.lookup) == 1 }
        waitStop.stop()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        #expect(await limiter.waiting(.lookup) == 0)
        await #expect(throws: CancellationError.self) {
            _ = try await RateWaitStop.$current.withValue(waitStop) { try await limiter.acquire() }
        }
        // Another task's wait goes on, and gets its turn when the window has room.
        await limiter.complete(first, status: 200, headers: nil)
        let other = Task { try await limiter.acquire() }
        try await waitUntil("await limiter.waiting(.lookup) == 1") { await limiter.waiting(.lookup) == 1 }
        clock.advance(by: .seconds(11))
        _ = try await other.value
    }

    @Test func onlyALookupOrAPersonWaitingIsReported() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 30, margin: 0, backgroundShare: 1), clock: clock)
        let seen = LockBox<[Double]>()
        await limiter.setObserver { seen.append($0) }
        let first = try await limiter.acquire()
        await limiter.complete(first, status: 200, headers: nil)
        let order = Order()
        let background = await line(limiter, .background, order: order)
        #expect(seen.all.isEmpty)
        let lookup = await line(limiter, .lookup, order: order)
        #expect(seen.all == [30])
        clock.advance(by: .seconds(31))
        try await lookup.value
        #expect(seen.all == [30, 0])
        clock.advance(by: .seconds(31))
        try await background.value
        #expect(seen.all == [30, 0])
    }

    @Test("a follower from background priority hears background work's waits too; one from a lookup's never does")
    func backgroundWorkHearsItsOwnWaits() async throws {
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 30, margin: 0, backgroundShare: 1), clock: clock)
        let first = try await limiter.acquire()
        await limiter.complete(first, status: 200, headers: nil)
        let (lookups, background) = (LockBox<[Duration?]>(), LockBox<[Duration?]>())
        let fromLookups = await limiter.waits()
        let fromBackground = await limiter.waits(from: .background)
        let followers = [
            Task { for await wait in fromLookups { lookups.append(wait) } },
            Task { for await wait in fromBackground { background.append(wait) } },
        ]
        let order = Order()
        let backgroundWork = await line(limiter, .background, order: order)
        try await waitUntil("background work's wait heard", lastSeen: { "\(background.all)" }) { background.all == [.seconds(30)] }
        clock.advance(by: .seconds(30))
        try await backgroundWork.value
        try await waitUntil("its end heard", lastSeen: { "\(background.all)" }) { background.all == [.seconds(30), nil] }
        let lookup = await line(limiter, .lookup, order: order)
        try await waitUntil("a lookup's wait heard by both", lastSeen: { "\(lookups.all) \(background.all)" }) {
            lookups.all == [.seconds(60)] && background.all == [.seconds(30), nil, .seconds(60)]
        }
        clock.advance(by: .seconds(30))
        try await lookup.value
        // In order: had the lookups' follower heard background work's wait, it would come first.
        try await waitUntil("the lookup's end heard by both", lastSeen: { "\(lookups.all) \(background.all)" }) {
            lookups.all == [.seconds(60), nil] && background.all == [.seconds(30), nil, .seconds(60), nil]
        }
        for follower in followers { follower.cancel() }
    }
}

/// Priorities in the order they were granted.
typealias Order = LockBox<[RateLimiter.Priority]>
