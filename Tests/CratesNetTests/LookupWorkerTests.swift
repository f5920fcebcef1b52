import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// The worker draining an in-memory twin of the queue, through the real libcurl transport
/// and the loopback server, on virtual time: the product's timings, and a clock that moves
/// only through the pauses the test waits out.
@Suite struct LookupWorkerTests {
    /// Runs a worker until every record has left the waiting states (or `defaultWaitDeadline`
    /// passes), moving the clock on through its pauses, then stops it.
    private func drain(
        _ queue: InMemoryLookupQueue, client: DiscogsClient, clock: TestClock, policy: LookupWorker.Policy = .noHedge
    ) async throws -> (LookupWorker, LookupStatus) {
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client), policy: policy)
        let running = Task { await worker.run() }
        try await advancing(clock, worker, until: "every record out of the waiting states", lastSeen: { "\(await queue.all.map(\.state))" }) {
            await queue.all.allSatisfy { ![.pending, .lookingUp].contains($0.state) }
        }
        await worker.stop()
        let final = await running.value
        #expect(final == .stopped, "\(final)")
        return (worker, final)
    }

    @Test func matchAmbiguousNotFoundSkippedAndSpacedForm() async throws {
        let server = try await DiscogsTestServer.start()
        let queue = InMemoryLookupQueue()
        let twice = await queue.enqueue(Fixtures.gtin("5099750442227"))  // 13 digits: the same release twice
        let spaced = await queue.enqueue(Fixtures.gtin("0727361626525"))  // only "7 27361 62652 5" is on Discogs
        let upc = await queue.enqueue(Fixtures.gtin("0074643260619"))  // found by its 12-digit UPC-A
        let several = await queue.enqueue(Fixtures.gtin("5012345678900"))
        let missing = await queue.enqueue(Fixtures.gtin("5012345678917"))
        // A book its owner chose to add is searched like any barcode; a shop's price label
        // (restricted circulation) never is.
        let isbn = await queue.enqueue(Fixtures.gtin("9780306406157"))
        let priceLabel = await queue.enqueue(Fixtures.gtin("2012345678903"))
        let clock = TestClock()
        let (worker, final) = try await drain(queue, client: try virtualClient(server, clock: clock), clock: clock, policy: LookupWorker.Policy())
        #expect(final == .stopped)

        guard case .matched(let holovr)? = await queue.entry(twice)?.outcome else { Issue.record("not matched"); return }
        #expect(holovr.id == 10_507_194 && holovr.artist == "HOLOVR" && holovr.genres == ["Electronic"])
        // Completed from the search result: one request each, the details to come.
        #expect(!holovr.hasFullDetails)
        guard case .matched(let hammerfall)? = await queue.entry(spaced)?.outcome else { Issue.record("not matched"); return }
        #expect(hammerfall.title == "Glory To The Brave" && hammerfall.labels.first?.catno == "NB 265-2")
        guard case .matched(let persuader)? = await queue.entry(upc)?.outcome else { Issue.record("not matched"); return }
        #expect(persuader.id == 1)
        guard case .ambiguous(let candidates)? = await queue.entry(several)?.outcome else { Issue.record("not ambiguous"); return }
        #expect(candidates.count == 2)
        #expect(await queue.entry(missing)?.outcome == .notFound)
        #expect(await queue.entry(isbn)?.outcome == .notFound)
        guard case .skipped(let reason)? = await queue.entry(priceLabel)?.outcome else { Issue.record("not skipped"); return }
        #expect(reason.contains("restricted-circulation"))

        let stats = try await server.stats()
        // Every form at most once, none for the price label, and the forms in order until one hit.
        #expect(Set(stats.searches).count == stats.searches.count)
        #expect(stats.searches.contains("9780306406157"))
        #expect(!stats.searches.contains { $0.hasPrefix("201") })
        let forms = DiscogsBarcodeQuery(gtin: Fixtures.gtin("0727361626525")).forms
        let hit = try #require(forms.firstIndex(of: "7 27361 62652 5"))
        #expect(Array(stats.searches.filter { forms.contains($0) }) == Array(forms[...hit]))
        #expect(stats.searches.filter { DiscogsBarcodeQuery(gtin: Fixtures.gtin("5012345678917")).forms.contains($0) }.count
            == DiscogsBarcodeQuery(gtin: Fixtures.gtin("5012345678917")).forms.count)
        #expect(stats.releases.isEmpty, "every title split cleanly: no release fetched")
        let counted = await worker.statistics
        #expect(counted.requests == stats.requests)
        #expect(counted.matched == 3 && counted.ambiguous == 1 && counted.notFound == 2 && counted.skipped == 1)
    }

    @Test func unauthorizedStopsTheWorkerAndLosesNothing() async throws {
        let server = try await DiscogsTestServer.start()
        let queue = InMemoryLookupQueue()
        let a = await queue.enqueue(Fixtures.gtin("5099750442227"))
        let b = await queue.enqueue(Fixtures.gtin("0727361626525"))
        let client = try virtualClient(server, clock: TestClock(), credentials: .personalToken("revoked"))
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client))
        let final = await worker.run()  // returns by itself
        guard case .unauthorized(let message) = final else { Issue.record("got \(final)"); return }
        #expect(message.contains("Invalid consumer token"))
        #expect(final.description.contains("crates auth"))
        #expect(await queue.entry(a)?.state == .pending)
        #expect(await queue.entry(b)?.state == .pending)
        let stats = try await server.stats()
        #expect(stats.requests == 1, "\(stats.searches)")
    }

    /// A 5xx on every attempt of the run: tried again after each of the pauses (1 s, 2 s, 4 s,
    /// 8 s, 8 s, 8 s, 8 s), then failed with a retry time 30 s on; looked up again once due,
    /// and failed with a retry time twice as far. A release deleted since Discogs indexed it is
    /// matched from its search result (its details will answer 404 later).
    @Test func failuresAreRetriedWithBackoff() async throws {
        let server = try await DiscogsTestServer.start()
        let queue = InMemoryLookupQueue()
        let html500 = await queue.enqueue(Fixtures.gtin("5000000000012"))
        let deleted = await queue.enqueue(Fixtures.gtin("5000000000067"))
        let clock = TestClock()
        let client = try virtualClient(server, clock: clock)
        let start = client.rateLimiter.timeline.date
        let (_, _) = try await drain(queue, client: client, clock: clock)
        guard case .matched(let gone)? = await queue.entry(deleted)?.outcome else { Issue.record("not matched"); return }
        #expect(gone.id == 2_147_483_647 && !gone.hasFullDetails)
        let stats = try await server.lookupStats()
        #expect(stats.count("barcode=5000000000012") == 8, "\(stats.order)")  // tried again after each of 7 pauses
        let e = try #require(await queue.entry(html500))
        guard case .failed(let message, let retryAt)? = e.outcome else { Issue.record("\(String(describing: e.outcome))"); return }
        #expect(message.contains("HTTP 500"), "\(message)")
        #expect(e.attempts == 1)
        // The pauses, 39 s of virtual time, and then the first retry delay, 30 s.
        #expect(abs(retryAt.timeIntervalSince(start) - 69) < 0.5, "\(retryAt.timeIntervalSince(start))")

        // Due again once the clock has passed its retry time: looked up again, the attempts
        // count grows, and the retry delay doubles.
        clock.advance(by: .seconds(31))
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client), policy: .noHedge)
        let running = Task { await worker.run() }
        try await advancing(clock, worker, until: "the record failed a second time") {
            await queue.entry(html500).map { $0.attempts == 2 && $0.state == .failed } ?? false
        }
        await worker.stop()
        #expect(await running.value == .stopped)
        guard case .failed(_, let later)? = await queue.entry(html500)?.outcome else { Issue.record("not failed"); return }
        #expect(abs(later.timeIntervalSince(start) - (70 + 39 + 60)) < 0.5, "\(later.timeIntervalSince(start))")
        #expect(try await server.lookupStats().count("barcode=5000000000012") == 16)
    }

    @Test func offlineFailsWithRetryAndSaysSo() async throws {
        // A port that was just in use and is now closed: the server is gone (stop() returns
        // once it has exited).
        let gone = try await DiscogsTestServer.start()
        let port = gone.port
        await gone.stop()
        let queue = InMemoryLookupQueue()
        await queue.enqueue(Fixtures.gtin("5099750442227"))
        await queue.enqueue(Fixtures.gtin("0727361626525"))
        let clock = TestClock()
        let client = DiscogsClient(
            transport: try testTransport(), endpoints: DiscogsEndpoints(api: "http://127.0.0.1:\(port)", web: "http://127.0.0.1:\(port)"),
            credentials: .personalToken("t"), rateLimiter: RateLimiter(configuration: .authenticated, clock: clock))
        // Refused connections, in a row, for 3 s of the pauses between them: unreachable.
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client), policy: .noHedge)
        let updates = Task {
            var seen: [LookupStatus] = []
            for await event in worker.events {
                guard case .status(let s) = event else { continue }
                seen.append(s)
                if case .offline = s { break }
            }
            return seen
        }
        let running = Task { await worker.run() }
        try await advancing(clock, worker, until: "the worker offline") {
            if case .offline = await worker.status { return true } else { return false }
        }
        await worker.stop()
        #expect(await running.value == .stopped)
        let seen = await updates.value
        guard case .offline(let waiting)? = seen.last else { Issue.record("no offline status: \(seen)"); return }
        #expect(waiting == 2)
        #expect(seen.last?.description == "Discogs: offline, 2 lookups waiting")
        #expect(await queue.all.allSatisfy { [.failed, .pending].contains($0.state) })
    }

    /// `stop` lets a request in flight finish for its patience, on the worker's clock, then
    /// cancels it: the record goes back to the queue untouched, and `stop` returns once `run`
    /// has.
    @Test func stopCancelsWhatIsInHandOnceItsPatienceIsOver() async throws {
        let server = try await DiscogsTestServer.start(["--generate"])
        let queue = InMemoryLookupQueue()
        let id = await queue.enqueue(ean(1))
        try await server.hold(match: "barcode=" + ean(1).canonical, count: 1)
        let clock = TestClock()
        // A transfer timeout far beyond the test's deadline: only a cancel ends the request.
        let client = try virtualClient(server, clock: clock, timeout: 600)
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client))
        let running = Task { await worker.run() }
        try await waitUntil("the request held") { try await server.lookupStats().held == 1 }
        let stopped = LockBox(false)
        Task {
            await worker.stop(patience: .seconds(5))
            stopped.set(true)
        }
        try await waitUntil("the patience counted on the clock") { clock.sleeping.contains(.seconds(5)) }
        #expect(await queue.entry(id)?.state == .lookingUp, "in hand while the patience lasts")
        clock.advance(by: .seconds(5))
        try await waitUntil("stop returned") { stopped.value }
        #expect(await running.value == .stopped)
        #expect(await queue.entry(id)?.state == .pending, "given back untouched")
        #expect(await queue.entry(id)?.attempts == 0)
        try await server.release()
    }

    @Test func aNudgeWakesAnIdleWorker() async throws {
        let server = try await DiscogsTestServer.start()
        let queue = InMemoryLookupQueue()
        // On a clock that does not move, only a nudge can wake it.
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: TestClock())))
        let running = Task { await worker.run() }
        try await waitUntil("the worker idle") { await worker.status == .idle }
        let id = await queue.enqueue(Fixtures.gtin("5099750442227"))
        worker.nudge()
        try await waitUntil("the nudged record matched") { await queue.entry(id)?.state == .matched }
        await worker.stop()
        #expect(await running.value == .stopped)
    }

    /// A tight window (5 requests a minute) and 429s injected on top: every lookup ends with
    /// its real outcome, none lost. The server's window is the limiter's size but of no
    /// length: the virtual clock decides when a slot frees.
    @Test func rateLimitedLookupsAreNeverLost() async throws {
        let server = try await DiscogsTestServer.start(["--limit", "5", "--window", "0"])
        try await server.inject("429", count: 2, match: "/database/search")
        let queue = InMemoryLookupQueue()
        var ids: [Int64] = []
        for digits in ["5099750442227", "0727361626525", "0074643260619", "5012345678900", "5012345678917", "5099750442227"] {
            ids.append(await queue.enqueue(Fixtures.gtin(digits)))
        }
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 5, window: 60), clock: clock)
        _ = try await drain(queue, client: try testClient(server, limiter: limiter), clock: clock)
        let states = await queue.all.map(\.state)
        #expect(states == [.matched, .matched, .matched, .ambiguous, .notFound, .matched])
        let stats = try await server.stats()
        #expect(await limiter.statistics.maxInWindow <= 5)
        #expect(stats.throttled == 0)  // the server's own window never refused
        #expect(await limiter.statistics.throttled == 2)  // the injected ones were honoured
    }
}
