import CratesCore
import CratesTestSupport
import Testing

@testable import CratesNet

/// The pure parts of the lookup worker: when to claim, whether Discogs can be reached, how
/// pauses grow.
@Suite struct LookupRulesTests {
    @Test func backoffDoublesUpToItsMaximum() {
        let pauses = Backoff(first: .seconds(1), maximum: .seconds(8))
        #expect(pauses.delays(7) == [1, 2, 4, 8, 8, 8, 8].map { Duration.seconds($0) })
        #expect(LookupWorker.Policy().retryPauses == pauses.delays(7))
        #expect(RequestRetry.shortPauses == [1, 2, 4, 8])
        #expect(RequestRetry.choicePauses == [1, 2])
        let later = LookupWorker.Policy().retryLater
        #expect(later.delay(0) == .seconds(30) && later.delay(3) == .seconds(240))
        #expect(later.delay(40) == .seconds(6 * 3600) && later.delay(Int.max) == .seconds(6 * 3600))
        #expect(later.delay(-1) == .seconds(30))
        #expect(Backoff(first: .seconds(5), maximum: .seconds(1)).delay(3) == .seconds(5), "a maximum below the first is raised to it")
    }

    @Test func claimsOneRecordUntilDiscogsHasAnswered() {
        let claims = ClaimPolicy()
        #expect(claims.mayClaim(.init(inHand: 0)))
        #expect(!claims.mayClaim(.init(inHand: 1)), "the first record alone")
        #expect(claims.nextLook(.init(inHand: 1, now: .milliseconds(500))) == .milliseconds(1500), "look again when the warm-up ends")
        #expect(claims.mayClaim(.init(inHand: 1, now: .seconds(2))), "a first answer slow to come holds back the others only so long")
        #expect(claims.mayClaim(.init(inHand: 1, answered: true)))
        // The warm-up counts from the run's start, not from the clock's.
        #expect(!claims.mayClaim(.init(inHand: 1, now: .seconds(61), started: .seconds(60))))
        #expect(claims.nextLook(.init(inHand: 1, now: .seconds(61), started: .seconds(60))) == .seconds(1))
    }

    @Test func claimsUpToTheConcurrencyCountingOnlyRequestsInFlight() {
        let claims = ClaimPolicy()
        #expect(claims.mayClaim(.init(inHand: 3, answered: true)))
        #expect(!claims.mayClaim(.init(inHand: 4, answered: true)))
        #expect(claims.mayClaim(.init(inHand: 4, pausing: 1, answered: true)), "a pausing record is not in flight")
        #expect(claims.mayClaim(.init(inHand: 4, slow: 1, answered: true)), "nor one whose answer is slow")
        #expect(!claims.mayClaim(.init(inHand: 16, pausing: 16, answered: true)), "never more than 16 in hand")
        #expect(claims.nextLook(.init(inHand: 4, answered: true)) == .seconds(2), "look again when an answer may have become slow")
        #expect(claims.nextLook(.init(answered: true)) == .seconds(30), "idle: look for failed lookups come due")
    }

    @Test func unreachableProbesWithOneRecordAfterThePause() {
        let claims = ClaimPolicy()
        let probe = ClaimPolicy.Situation(answered: true, now: .seconds(10), probeAt: .seconds(15))
        #expect(!claims.mayClaim(probe))
        #expect(claims.nextLook(probe) == .seconds(5))
        var due = probe
        due.now = .seconds(15)
        #expect(claims.mayClaim(due))
        due.inHand = 1
        #expect(!claims.mayClaim(due), "one probe at a time")
    }

    @Test func refusedConnectionsOverSecondsMakeDiscogsUnreachable() {
        var reach = Reachability()
        let refused = DiscogsError.transport(.cannotConnect("refused"))
        #expect(reach.note(refused, at: .zero, probing: true) == .unchanged)
        #expect(reach.note(refused, at: .seconds(1), probing: true) == .unchanged)
        #expect(reach.note(refused, at: .seconds(2), probing: true) == .unchanged, "three, but within 3 s")
        #expect(reach.note(refused, at: .seconds(3), probing: true) == .unreachable)
        #expect(reach.isUnreachable && reach.probeAt == .seconds(8) && reach.lostBecause == refused)
        // Each failed probe waits twice as long; a nudge makes the next one due at once.
        #expect(reach.note(refused, at: .seconds(8), probing: true) == .unchanged)
        #expect(reach.probeAt == .seconds(18))
        #expect(reach.note(refused, at: .seconds(18), probing: false) == .unchanged)
        #expect(reach.probeAt == .seconds(18), "a failure of a record that was not a probe")
        reach.probeNow()
        #expect(reach.probeAt == .zero)
        // An answer, even an error status, proves Discogs is there.
        #expect(reach.note(.notFound(message: ""), at: .seconds(19), probing: true) == .reachable)
        #expect(!reach.isUnreachable && reach.lostBecause == nil && reach.answered)
    }

    @Test func anAnswerBreaksTheRunOfFailures() {
        var reach = Reachability()
        let failure = DiscogsError.server(status: 502, message: "Bad Gateway")
        for second in 0..<9 { #expect(reach.note(failure, at: .seconds(second), probing: false) == .unchanged) }
        #expect(reach.note(nil, at: .seconds(9), probing: false) == .reachable, "the first answer")
        for second in 10..<19 { #expect(reach.note(failure, at: .seconds(second), probing: false) == .unchanged) }
        #expect(reach.note(failure, at: .seconds(19), probing: false) == .unreachable, "ten in a row over 3 s")
    }

    @Test func refusedCredentialsAreNoAnswer() {
        var reach = Reachability()
        #expect(reach.note(.unauthorized(message: "Invalid consumer token"), at: .zero, probing: true) == .unchanged)
        #expect(!reach.answered)
        #expect(reach.note(nil, at: .zero, probing: true) == .reachable)
        #expect(reach.note(nil, at: .zero, probing: true) == .unchanged)
    }

    /// A write the store refuses is tried again after pauses that grow, on the clock, until
    /// it is taken; the owner is told of each refusal and of the write taken.
    @Test func aRefusedWriteIsTriedAgainUntilTaken() async throws {
        let clock = TestClock()
        let retry = StoreWriteRetry(pauses: Backoff(first: .milliseconds(50), maximum: .seconds(2)), timeline: Timeline(clock))
        let refusals = LockBox<[Bool]>()
        let attempts = LockBox(0)
        let taken = LockBox(false)
        let written = Task {
            await retry.write(
                {
                    let attempt = attempts.withLock { n in n += 1; return n }
                    if attempt < 3 { throw StoreBusy() }
                },
                refused: { _, first, _ in refusals.append(first); return false },
                taken: { taken.set(true) })
        }
        for pause in [Duration.milliseconds(50), .milliseconds(100)] {
            try await waitUntil("a refusal and its pause of \(pause)") { clock.sleeping == [pause] }
            clock.advance(by: pause)
        }
        #expect(await written.value)
        #expect(refusals.all == [true, false] && attempts.value == 3 && taken.value)

        // Given up when the owner says so: not written.
        let refused = await retry.write({ throw StoreBusy() }, refused: { _, _, _ in true }, taken: {})
        #expect(!refused)
    }

    private struct StoreBusy: Error {}
}
