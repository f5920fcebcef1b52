import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// Issue 13 through the real libcurl transport and the loopback server: one request per
/// record, several in flight under one limiter, transient failures retried within the run,
/// and the full details of a release fetched on demand or in the background.
@Suite("Lookups at Discogs' limit")
struct LookupThroughputTests {
    /// Runs `worker` until `done` holds (`defaultWaitDeadline` at most), moving `clock` on
    /// through its pauses and waits for the window, then stops it.
    private func drive(_ worker: LookupWorker, _ clock: TestClock, until done: @escaping @Sendable () async -> Bool) async -> Bool {
        let running = Task { await worker.run() }
        let met = (try? await advancing(clock, worker, until: "the worker reached its goal") { await done() }) != nil
        await finish(worker, running)
        return met
    }

    /// Three pauses within a run (1 s, 2 s, 4 s): a record fails at its fourth failure.
    static var threePauses: LookupWorker.Policy {
        var policy = LookupWorker.Policy.noHedge
        policy.retryPauses = Array(policy.retryPauses.prefix(3))
        return policy
    }

    private func settledAll(_ queue: InMemoryLookupQueue) -> @Sendable () async -> Bool {
        { await queue.all.allSatisfy { ![.pending, .lookingUp].contains($0.state) } }
    }

    @Test("a barcode found at its first form costs one request; the record is completed from the search result")
    func oneRequestPerRecord() async throws {
        let server = try await DiscogsTestServer.start(["--generate"])
        let queue = InMemoryLookupQueue()
        for n in 1...12 { await queue.enqueue(ean(n)) }
        let clock = TestClock()
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock)))
        #expect(await drive(worker, clock, until: settledAll(queue)))

        let stats = try await server.lookupStats()
        #expect(stats.requests == 12)
        #expect(stats.releases.isEmpty)
        #expect(stats.searches.sorted() == (1...12).map { ean($0).canonical }.sorted())
        for entry in await queue.all {
            guard case .matched(let release)? = entry.outcome else {
                Issue.record("record \(entry.recordID): \(String(describing: entry.outcome))")
                continue
            }
            #expect(!release.hasFullDetails)
            #expect(release.artist.hasPrefix("Artist ") && release.title == "Title " + entry.gtin.canonical.drop { $0 == "0" })
            #expect(!release.genres.isEmpty && release.year != nil && release.labels.first?.catno?.hasPrefix("CAT-") == true)
            #expect(release.url?.hasPrefix(server.base + "/Artist-") == true)
        }
        let counted = await worker.statistics
        #expect(counted.matched == 12 && counted.requests == 12)
    }

    @Test("a title that does not split cleanly: the release is fetched in full")
    func ambiguousSplitFetchesTheRelease() async throws {
        // Corpus release 4087807: "Jay-Z - 99 Problems - Prodigy Remix".
        let (server, index) = try await DiscogsTestServer.start(index: ["5012345678900": ["corpus": 4_087_807]])
        defer { withExtendedLifetime(index) {} }
        let queue = InMemoryLookupQueue()
        let id = await queue.enqueue(Fixtures.gtin("5012345678900"))
        let clock = TestClock()
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock)))
        #expect(await drive(worker, clock, until: settledAll(queue)))
        guard case .matched(let release)? = await queue.entry(id)?.outcome else { Issue.record("not matched"); return }
        #expect(release.id == 4_087_807 && release.hasFullDetails)
        #expect(release.artist == "Jay-Z" && release.title == "99 Problems - Prodigy Remix")
        let stats = try await server.lookupStats()
        #expect(stats.searches == ["5012345678900"] && stats.releases == ["4087807"])
        #expect(await worker.statistics.requests == 2)
    }

    @Test("several requests in flight: an answer the server holds back holds back only its own record")
    func oneStalledAnswerDoesNotHoldTheOthers() async throws {
        let server = try await DiscogsTestServer.start(["--generate"])
        let queue = InMemoryLookupQueue()
        let first = await queue.enqueue(ean(1))
        var others: [Int64] = []
        for n in 2...9 { others.append(await queue.enqueue(ean(n))) }
        // The first record is claimed alone (until Discogs has answered once): the second
        // one's answer is held back.
        try await server.hold(match: "barcode=" + ean(2).canonical, count: 1)
        // On a clock that does not move, the held answer is never slow, nor asked for again.
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: TestClock())))
        let running = Task { await worker.run() }

        let othersDone = (try? await waitUntil("the records after the held one matched") {
            let states = await queue.all.filter { $0.recordID != others[0] }.map(\.state)
            return states.allSatisfy { $0 == .matched }
        }) != nil
        #expect(othersDone, "the records after the held one were looked up while it was held")
        #expect(await queue.entry(others[0])?.state == .lookingUp)
        #expect(try await server.lookupStats().held == 1)
        #expect(await queue.entry(first)?.state == .matched)

        try await server.release()
        try await waitUntil("await queue.entry(others[0])?.state == .matched") { await queue.entry(others[0])?.state == .matched }
        await finish(worker, running)
        let stats = try await server.lookupStats()
        #expect(stats.maxInFlight >= 2)
        #expect(stats.requests == 9)
    }

    @Test("at the end of a run, an answer slow to come is asked for again alongside; not before")
    func aSlowAnswerAtTheEndIsAskedForAgain() async throws {
        let server = try await DiscogsTestServer.start(["--generate"])
        let slow = ean(4)
        try await server.hold(match: "barcode=" + slow.canonical, count: 1)  // its first request only
        let queue = InMemoryLookupQueue()
        for n in 1...6 { await queue.enqueue(ean(n)) }
        let clock = TestClock()
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock)))
        let running = Task { await worker.run() }
        // The others are matched while the held answer is not yet slow (the clock stands).
        try await waitUntil("every record but the held one matched") {
            await queue.all.filter { $0.gtin != slow }.allSatisfy { $0.state == .matched }
        }
        #expect(try await server.lookupStats().count("barcode=" + slow.canonical) == 1, "not asked again before it is slow")
        clock.advance(by: .seconds(4))  // `hedgeAfter`: now it is, and nothing else waits
        try await waitUntil("the held record matched") { await queue.entry(4)?.state == .matched }
        await worker.stop()
        _ = await running.value
        let stats = try await server.lookupStats()
        #expect(stats.held == 1, "matched from the second copy while the first was still held")
        #expect(stats.count("barcode=" + slow.canonical) == 2)
        let second = try #require(stats.order.lastIndex { $0.contains("barcode=" + slow.canonical) })
        let others = (1...6).filter { $0 != 4 }.map { "barcode=" + ean($0).canonical }
        #expect(others.allSatisfy { other in stats.position(other).map { $0 < second } ?? false }, "asked again only at the end of the run: \(stats.order)")
        let counted = await worker.statistics.requests
        #expect(counted == stats.requests, "every request sent counted, the second copy too; none that never went: \(stats.order)")
        try await server.release()
    }

    /// A second copy that waits for the window (full: one request in ten minutes) while the
    /// first answer comes is abandoned unsent: the retry counts one request, as the server did.
    @Test("a second copy abandoned before it went is not counted as a request")
    func anAbandonedCopyIsNotCounted() async throws {
        // The server's headers say the same limit: its answer does not widen the window.
        let server = try await DiscogsTestServer.start(["--generate", "--limit", "1", "--window", "600"])
        let record = ean(1)
        try await server.hold(match: "barcode=" + record.canonical, count: 1)
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 600), clock: clock)
        let client = try testClient(server, limiter: limiter)
        let lookup = Task { () throws(DiscogsError) -> Int in
            var retry = RequestRetry()
            retry.timeline = limiter.timeline
            retry.hedge = { true }
            _ = try await retry.send { () throws(DiscogsError) in try await client.searchReleases(barcode: record.canonical) }
            return retry.requests
        }
        try await waitUntil("the first request held") { try await server.lookupStats().held == 1 }
        clock.advance(by: .seconds(4))  // `hedgeAfter`: a second copy goes for the window
        try await waitUntil("the second copy waits for the window") { await limiter.waiting(.lookup) == 1 }
        try await server.release()
        let counted = try await lookup.value
        let stats = try await server.lookupStats()
        #expect(counted == 1, "counted \(counted), sent \(stats.order)")
        #expect(stats.requests == 1, "sent \(stats.order)")
        #expect(await limiter.waiting(.lookup) == 0, "the copy no longer waits")
    }

    /// The server's window is the limiter's size but of no length: the virtual clock decides
    /// when a slot frees.
    @Test("with requests in flight, the limiter never lets more out than the window allows")
    func theWindowHoldsWithRequestsInFlight() async throws {
        let server = try await DiscogsTestServer.start(["--generate", "--limit", "6", "--window", "0"])
        let queue = InMemoryLookupQueue()
        for n in 1...30 { await queue.enqueue(ean(n)) }
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 6, window: 60), clock: clock)
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try testClient(server, limiter: limiter)), policy: .noHedge)
        #expect(await drive(worker, clock, until: settledAll(queue)))
        #expect(await queue.all.allSatisfy { $0.state == .matched })
        let stats = try await server.lookupStats()
        #expect(stats.throttled == 0)
        #expect(stats.requests == 30)
        #expect(clock.elapsed >= .seconds(4 * 60), "30 requests, 6 a window")
        let limited = await limiter.statistics
        #expect(limited.maxInWindow <= 6)
        #expect(limited.maxOpen >= 2, "several requests were in flight at once")
    }

    @Test("5xx, a body that does not parse, a reset connection, a timeout: tried again within the run, the record ends matched")
    func transientFailuresAreRetriedWithinTheRun() async throws {
        // The slow answer comes long after the client's 5 s timeout, and 5 s is far more than
        // a loaded machine takes to answer any other request: only the slow one times out.
        let server = try await DiscogsTestServer.start(["--generate", "--slow", "120"])
        let gtins = (1...5).map(ean)
        try await server.inject("html500", count: 2, match: "barcode=" + gtins[0].canonical)
        try await server.inject("json500", count: 1, match: "barcode=" + gtins[1].canonical)
        try await server.inject("truncated", count: 1, match: "barcode=" + gtins[2].canonical)
        try await server.inject("reset", count: 2, match: "barcode=" + gtins[3].canonical)
        try await server.inject("slow", count: 1, match: "barcode=" + gtins[4].canonical)
        let queue = InMemoryLookupQueue()
        for g in gtins { await queue.enqueue(g) }
        let clock = TestClock()
        let worker = LookupWorker(
            queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock, timeout: 5)), policy: .noHedge)
        #expect(await drive(worker, clock, until: settledAll(queue)))
        for entry in await queue.all {
            #expect(entry.state == .matched, "\(entry.gtin.canonical): \(String(describing: entry.outcome))")
            #expect(entry.attempts == 1, "one lookup, its failures retried within it")
        }
        let stats = try await server.lookupStats()
        #expect(zip(gtins, [3, 2, 2, 3, 2]).allSatisfy { stats.count("barcode=" + $0.canonical) == $1 }, "\(stats.order)")
        let counted = await worker.statistics
        #expect(counted.matched == 5 && counted.failed == 0)
        // libcurl itself sends a request again, once, when a kept-alive connection turns out
        // to be closed: one reset may cost no attempt of crates' own.
        #expect((11...12).contains(counted.requests), "every attempt counted: \(counted)")
    }

    @Test("a search answered with a redirect to another host (a captive portal): tried again within the run; said plainly when it persists")
    func offHostRedirectIsTransient() async throws {
        let server = try await DiscogsTestServer.start(["--generate"])
        let (recovering, failing, clean) = (ean(11), ean(12), ean(13))
        try await server.inject("portal", count: 2, match: "barcode=" + recovering.canonical)
        try await server.inject("portal", count: 4, match: "barcode=" + failing.canonical)
        let queue = InMemoryLookupQueue()
        let a = await queue.enqueue(recovering)
        let b = await queue.enqueue(failing)
        let c = await queue.enqueue(clean)
        let clock = TestClock()
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: clock)), policy: Self.threePauses)
        #expect(await drive(worker, clock, until: settledAll(queue)))
        #expect(await queue.entry(a)?.state == .matched, "a redirect once is tried again, like a 5xx")
        #expect(await queue.entry(c)?.state == .matched)
        guard case .failed(let message, _)? = await queue.entry(b)?.outcome else {
            Issue.record("not failed: \(String(describing: await queue.entry(b)?.outcome))")
            return
        }
        #expect(message == "Discogs' address answered with a redirect to 127.0.0.2: a network login page?", "\(message)")
        let stats = try await server.lookupStats()
        #expect(stats.count("barcode=" + recovering.canonical) == 3)
        #expect(stats.count("barcode=" + failing.canonical) == 4, "every pause used before failing")
    }

    @Test("a record fails (to be retried later) only after more failures in a row than pauses")
    func failedOnlyAfterRepeatedFailures() async throws {
        let server = try await DiscogsTestServer.start(["--generate"])
        let (failing, recovering) = (ean(1), ean(2))
        try await server.inject("html500", count: 4, match: "barcode=" + failing.canonical)
        try await server.inject("html500", count: 3, match: "barcode=" + recovering.canonical)
        let queue = InMemoryLookupQueue()
        let a = await queue.enqueue(failing)
        let b = await queue.enqueue(recovering)
        let clock = TestClock()
        let client = try virtualClient(server, clock: clock)
        let start = client.rateLimiter.timeline.date
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client), policy: Self.threePauses)
        #expect(await drive(worker, clock, until: settledAll(queue)))
        guard case .failed(let message, let retryAt)? = await queue.entry(a)?.outcome else {
            Issue.record("not failed: \(String(describing: await queue.entry(a)?.outcome))")
            return
        }
        #expect(message.contains("HTTP 500"))
        // Retried later: its three pauses (7 s), then the first retry delay, 30 s.
        #expect(retryAt.timeIntervalSince(start) > 36.5, "\(retryAt.timeIntervalSince(start))")
        #expect(await queue.entry(b)?.state == .matched)
        let stats = try await server.lookupStats()
        #expect(stats.count("barcode=" + failing.canonical) == 4)
        #expect(stats.count("barcode=" + recovering.canonical) == 4)
    }

    @Test("the full details a person opens go ahead of the lookups waiting for the window")
    func detailsOnDemandGoAheadOfTheQueue() async throws {
        // The server's window is the limiter's size (its headers set the limiter's limit) but
        // of no length: the virtual clock decides when a slot frees.
        let server = try await DiscogsTestServer.start(["--generate", "--limit", "1", "--window", "0"])
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 60, margin: 0), clock: clock)
        let client = try testClient(server, limiter: limiter)
        let queue = InMemoryLookupQueue()
        for n in 1...3 { await queue.enqueue(ean(n)) }
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client))
        let running = Task { await worker.run() }
        // The first lookup fills the window; the next two wait for it.
        try await waitUntil("let matched = await queue.entry(1)?.state == .matched let waiting = aw") {
            let matched = await queue.entry(1)?.state == .matched
            let waiting = await limiter.waiting(.lookup)
            return matched && waiting == 2
        }
        let opened = Task { try await client.release(id: 5_134_861, priority: .interactive) }
        try await waitUntil("await limiter.waiting(.interactive) == 1") { await limiter.waiting(.interactive) == 1 }
        clock.advance(by: .seconds(61))  // one slot frees: the person's request takes it
        let release = try await opened.value
        #expect(release.id == 5_134_861 && release.hasFullDetails)
        #expect(await limiter.waiting(.lookup) == 2)
        for id: Int64 in [2, 3] {
            clock.advance(by: .seconds(61))
            try await waitUntil("record \(id) matched", lastSeen: {
                "\(await queue.all.map(\.state)), waiting \(await limiter.waiting(.lookup)), in window \(await limiter.inWindow), "
                    + "clock \(clock.elapsed) \(clock.sleeping), \(try! await server.lookupStats().order)"
            }) { await queue.entry(id)?.state == .matched }
        }
        await finish(worker, running)
        let stats = try await server.lookupStats()
        #expect(stats.order.count == 4)
        #expect(stats.position("/releases/5134861") == 1, "\(stats.order)")
        #expect(stats.throttled == 0)
    }

    @Test("background details: only while no lookup is due, and never ahead of a waiting lookup")
    func backgroundDetailsNeverAheadOfAWaitingLookup() async throws {
        let server = try await DiscogsTestServer.start(["--generate", "--limit", "1", "--window", "0"])
        let clock = TestClock()
        let limiter = RateLimiter(configuration: .init(limit: 1, window: 60, margin: 0, backgroundShare: 1), clock: clock)
        let client = try testClient(server, limiter: limiter)
        let queue = InMemoryLookupQueue()
        await queue.enqueue(ean(1))
        let details = InMemoryDetailsQueue(missing: [5_134_861, 10_507_194, 1])
        var policy = LookupWorker.Policy()
        policy.backgroundDetails = true
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: client), details: details, policy: policy)
        let running = Task { await worker.run() }
        // The lookup first; then a background fetch waits for the next window.
        try await waitUntil("let matched = await queue.entry(1)?.state == .matched let waiting = aw") {
            let matched = await queue.entry(1)?.state == .matched
            let waiting = await limiter.waiting(.background)
            return matched && waiting == 1
        }
        #expect(try await server.lookupStats().releases.isEmpty, "no background request while a lookup was due")
        // A scan comes: its lookup waits too, and goes first when the window frees.
        let scanned = await queue.enqueue(ean(2))
        worker.nudge()
        try await waitUntil("await limiter.waiting(.lookup) == 1") { await limiter.waiting(.lookup) == 1 }
        clock.advance(by: .seconds(61))
        try await waitUntil("await queue.entry(scanned)?.state == .matched") { await queue.entry(scanned)?.state == .matched }
        #expect(try await server.lookupStats().releases.isEmpty, "the background request still waits")
        // Then the background fetches, one a window.
        for fetched in 1...3 {
            try await waitUntil("await limiter.waiting(.background) == 1") { await limiter.waiting(.background) == 1 }
            clock.advance(by: .seconds(61))
            try await waitUntil("await details.stored.count == fetched") { await details.stored.count == fetched }
        }
        try await waitUntil("await worker.detailsFetched == 3") { await worker.detailsFetched == 3 }
        await finish(worker, running)
        let stats = try await server.lookupStats()
        #expect(stats.order.count == 5)
        #expect(stats.position("barcode=" + ean(2).canonical) == 1, "\(stats.order)")
        #expect(await details.stored.allSatisfy(\.hasFullDetails))
        #expect(await details.missing.isEmpty)
    }

    @Test("refused credentials cost one request, not one per record in flight")
    func refusedCredentialsCostOneRequest() async throws {
        let server = try await DiscogsTestServer.start(["--generate"])
        let queue = InMemoryLookupQueue()
        for n in 1...8 { await queue.enqueue(ean(n)) }
        let worker = LookupWorker(
            queue: queue, lookup: DiscogsBarcodeLookup(client: try virtualClient(server, clock: TestClock(), credentials: .personalToken("revoked"))))
        guard case .unauthorized = await worker.run() else { Issue.record("not refused"); return }
        #expect(try await server.lookupStats().requests == 1)
        #expect(await queue.all.allSatisfy { $0.state == .pending })
    }
}
