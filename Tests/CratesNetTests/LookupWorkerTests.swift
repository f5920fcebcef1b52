import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// The worker draining an in-memory twin of the queue, through the real libcurl transport
/// and the loopback server.
@Suite struct LookupWorkerTests {
    /// Fast timings so that retries come due within a test: two in-run retries, 20 and 40 ms
    /// after a failure.
    static var policy: LookupWorker.Policy {
        var p = LookupWorker.Policy.fast(pauses: 2)
        p.retryBase = 30
        return p
    }

    /// Runs a worker until every record has left the waiting states (or `defaultWaitDeadline`
    /// passes), then stops it.
    private func drain(
        _ queue: InMemoryLookupQueue, client: DiscogsClient, policy: LookupWorker.Policy = policy
    ) async throws -> (LookupWorker, LookupStatus) {
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client), policy: policy)
        let running = Task { await worker.run() }
        try await waitUntil("every record out of the waiting states", lastSeen: { "\(await queue.all.map(\.state))" }) {
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
        let twice = await queue.enqueue(try gtin("5099750442227"))  // 13 digits: the same release twice
        let spaced = await queue.enqueue(try gtin("0727361626525"))  // only "7 27361 62652 5" is on Discogs
        let upc = await queue.enqueue(try gtin("0074643260619"))  // found by its 12-digit UPC-A
        let several = await queue.enqueue(try gtin("5012345678900"))
        let missing = await queue.enqueue(try gtin("5012345678917"))
        // A book its owner chose to add is searched like any barcode; a shop's price label
        // (restricted circulation) never is.
        let isbn = await queue.enqueue(try gtin("9780306406157"))
        let priceLabel = await queue.enqueue(try gtin("2012345678903"))
        let (worker, final) = try await drain(queue, client: try testClient(server))
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
        let forms = DiscogsBarcodeQuery(gtin: try gtin("0727361626525")).forms
        let hit = try #require(forms.firstIndex(of: "7 27361 62652 5"))
        #expect(Array(stats.searches.filter { forms.contains($0) }) == Array(forms[...hit]))
        #expect(stats.searches.filter { DiscogsBarcodeQuery(gtin: try! gtin("5012345678917")).forms.contains($0) }.count
            == DiscogsBarcodeQuery(gtin: try gtin("5012345678917")).forms.count)
        #expect(stats.releases.isEmpty, "every title split cleanly: no release fetched")
        let counted = await worker.statistics
        #expect(counted.requests == stats.requests)
        #expect(counted.matched == 3 && counted.ambiguous == 1 && counted.notFound == 2 && counted.skipped == 1)
    }

    @Test func unauthorizedStopsTheWorkerAndLosesNothing() async throws {
        let server = try await DiscogsTestServer.start()
        let queue = InMemoryLookupQueue()
        let a = await queue.enqueue(try gtin("5099750442227"))
        let b = await queue.enqueue(try gtin("0727361626525"))
        let worker = LookupWorker(
            queue: queue, lookup: DiscogsBarcodeLookup(client: try testClient(server, credentials: .personalToken("revoked"))), policy: Self.policy)
        let final = await worker.run()  // returns by itself
        guard case .unauthorized(let message) = final else { Issue.record("got \(final)"); return }
        #expect(message.contains("Invalid consumer token"))
        #expect(final.description.contains("crates auth"))
        #expect(await queue.entry(a)?.state == .pending)
        #expect(await queue.entry(b)?.state == .pending)
        let stats = try await server.stats()
        #expect(stats.requests == 1, "\(stats.searches)")
    }

    /// A 5xx or a timeout on every attempt of the run: failed with a retry time from the
    /// backoff, then looked up again once due. A release deleted since Discogs indexed it is
    /// matched from its search result (its details will answer 404 later).
    @Test func failuresAreRetriedWithBackoff() async throws {
        // The slow answer comes long after the client's 5 s timeout, and 5 s is far more than
        // a loaded machine takes to answer any other request: no answer times out by chance.
        let server = try await DiscogsTestServer.start(["--slow", "120"])
        let queue = InMemoryLookupQueue()
        let html500 = await queue.enqueue(try gtin("5000000000012"))
        let deleted = await queue.enqueue(try gtin("5000000000067"))
        let slow = await queue.enqueue(try gtin("5000000000050"))
        let start = Date()
        let (_, _) = try await drain(queue, client: try testClient(server, timeout: 5))
        let drained = Date()
        guard case .matched(let gone)? = await queue.entry(deleted)?.outcome else { Issue.record("not matched"); return }
        #expect(gone.id == 2_147_483_647 && !gone.hasFullDetails)
        let stats = try await server.lookupStats()
        #expect(stats.count("barcode=5000000000012") == 3, "\(stats.order)")  // tried again twice in the run
        for id in [html500, slow] {
            let e = try #require(await queue.entry(id))
            guard case .failed(let message, let retryAt)? = e.outcome else { Issue.record("\(id): \(String(describing: e.outcome))"); continue }
            #expect(!message.isEmpty)
            #expect(e.attempts == 1)
            // First failure: retryBase (30 s) after the attempt, which came between the start
            // and the end of the drain (however long that took).
            #expect(retryAt >= start.addingTimeInterval(30) && retryAt <= drained.addingTimeInterval(30), "\(retryAt)")
        }
        #expect(LookupWorker.Policy().retryDelay(attempts: 3) == 240)
        #expect(LookupWorker.Policy().retryDelay(attempts: 40) == 6 * 3600)

        // Due again: looked up again, and the attempts count grows.
        await queue.makeFailedDue()
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try testClient(server, timeout: 5)), policy: Self.policy)
        let running = Task { await worker.run() }
        try await waitUntil("every record but the deleted one failed a second time") {
            await queue.all.filter { $0.recordID != deleted }.allSatisfy { $0.attempts == 2 && $0.state == .failed }
        }
        await worker.stop()
        #expect(await running.value == .stopped)
        guard case .failed(_, let later)? = await queue.entry(html500)?.outcome else { Issue.record("not failed"); return }
        #expect(later.timeIntervalSince(start) > 59)  // 60 s after the second attempt
    }

    @Test func offlineFailsWithRetryAndSaysSo() async throws {
        // A port that was just in use and is now closed: the server is gone (stop() returns
        // once it has exited).
        let gone = try await DiscogsTestServer.start()
        let port = gone.port
        await gone.stop()
        let queue = InMemoryLookupQueue()
        await queue.enqueue(try gtin("5099750442227"))
        await queue.enqueue(try gtin("0727361626525"))
        let client = DiscogsClient(
            transport: try testTransport(), endpoints: DiscogsEndpoints(api: "http://127.0.0.1:\(port)", web: "http://127.0.0.1:\(port)"),
            credentials: .personalToken("t"), rateLimiter: RateLimiter(configuration: .authenticated))
        // Three pauses: the connections fail for longer than `unreachableAfterSeconds`
        // within the first record's lookup.
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client), policy: .fast(pauses: 3))
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
        try await waitUntil("the worker offline") { if case .offline = await worker.status { return true } else { return false } }
        await worker.stop()
        #expect(await running.value == .stopped)
        let seen = await updates.value
        guard case .offline(let waiting)? = seen.last else { Issue.record("no offline status: \(seen)"); return }
        #expect(waiting == 2)
        #expect(seen.last?.description == "Discogs: offline, 2 lookups waiting")
        #expect(await queue.all.allSatisfy { [.failed, .pending].contains($0.state) })
    }

    @Test func aNudgeWakesAnIdleWorker() async throws {
        let server = try await DiscogsTestServer.start()
        let queue = InMemoryLookupQueue()
        var policy = Self.policy
        policy.recheckInterval = 600  // only a nudge can wake it in time
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try testClient(server)), policy: policy)
        let running = Task { await worker.run() }
        try await waitUntil("the worker idle") { await worker.status == .idle }
        let id = await queue.enqueue(try gtin("5099750442227"))
        worker.nudge()
        try await waitUntil("the nudged record matched") { await queue.entry(id)?.state == .matched }
        await worker.stop()
        #expect(await running.value == .stopped)
    }

    /// A tight window (5 requests per second) and 429s injected on top: every lookup ends
    /// with its real outcome, none lost.
    @Test func rateLimitedLookupsAreNeverLost() async throws {
        let server = try await DiscogsTestServer.start(["--limit", "5", "--window", "1"])
        try await server.inject("429", count: 2, match: "/database/search")
        let queue = InMemoryLookupQueue()
        var ids: [Int64] = []
        for digits in ["5099750442227", "0727361626525", "0074643260619", "5012345678900", "5012345678917", "5099750442227"] {
            ids.append(await queue.enqueue(try gtin(digits)))
        }
        let limiter = RateLimiter(configuration: .init(limit: 5, window: 1))
        _ = try await drain(queue, client: try testClient(server, limiter: limiter))
        let states = await queue.all.map(\.state)
        #expect(states == [.matched, .matched, .matched, .ambiguous, .notFound, .matched])
        let stats = try await server.stats()
        #expect(stats.maxInWindow <= 5)
        #expect(stats.throttled == 0)  // the server's own window never refused
        #expect(await limiter.statistics.throttled == 2)  // the injected ones were honoured
    }
}
