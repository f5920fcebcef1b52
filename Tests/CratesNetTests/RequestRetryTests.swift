import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// The pauses and the count of a lookup's attempts, on a request that fails as told.
@Suite struct RequestRetryTests {
    /// Answers with the errors in turn, then with `value`.
    final class Script: Sendable {
        private struct State {
            var errors: [DiscogsError]
            var calls = 0
            var slept: [Double] = []
        }
        private let state: LockBox<State>
        init(_ errors: [DiscogsError]) { state = LockBox(State(errors: errors)) }

        /// A request sent, counted as `DiscogsClient.send` counts one.
        func call() throws(DiscogsError) -> Int {
            SentRequests.current?.add()
            let next = state.withLock { state -> DiscogsError? in
                state.calls += 1
                return state.errors.isEmpty ? nil : state.errors.removeFirst()
            }
            if let next { throw next }
            return 42
        }

        func sleep(_ seconds: Double) { state.withLock { $0.slept.append(seconds) } }
        var pauses: [Double] { state.value.slept }
        var count: Int { state.value.calls }
    }

    private func retry(_ script: Script, decide: RequestRetry.Decision = .retry) -> RequestRetry {
        RequestRetry(pauses: [1, 2, 4], decide: { decide }, sleep: { script.sleep($0); return true })
    }

    private static let html500 = DiscogsError.server(status: 500, message: "\"<html>\"")

    @Test func transientFailuresAreSentAgainAfterGrowingPauses() async throws {
        let script = Script([Self.html500, .malformedBody(preview: "{\"res"), .transport(.connectionLost("reset"))])
        var retry = retry(script)
        let value = try await retry.send { () throws(DiscogsError) in try script.call() }
        #expect(value == 42)
        #expect(script.pauses == [1, 2, 4])
        #expect(retry.requests == 4 && retry.failuresInARow == 0)
    }

    @Test func oneFailureMoreThanThePausesGivesUpWithTheLastError() async throws {
        let script = Script([Self.html500, Self.html500, .transport(.timedOut(seconds: 30)), .transport(.timedOut(seconds: 30))])
        var retry = retry(script)
        await #expect(throws: DiscogsError.transport(.timedOut(seconds: 30))) {
            _ = try await retry.send { () throws(DiscogsError) in try script.call() }
        }
        #expect(script.pauses == [1, 2, 4])
        #expect(retry.requests == 4)
    }

    @Test(arguments: [
        DiscogsError.notFound(message: "gone"), .unauthorized(message: "no"), .http(status: 400, message: "bad"),
        .transport(.tls("bad certificate")),
    ])
    func otherFailuresAreNotSentAgain(error: DiscogsError) async throws {
        let script = Script([error])
        var retry = retry(script)
        await #expect(throws: error) { _ = try await retry.send { () throws(DiscogsError) in try script.call() } }
        #expect(script.pauses.isEmpty && script.count == 1)
    }

    @Test func givingUpStopsAtOnceAndStoppingCancels() async throws {
        let unreachable = Script([.transport(.cannotConnect("refused")), Self.html500])
        var givingUp = retry(unreachable, decide: .giveUp)
        await #expect(throws: DiscogsError.transport(.cannotConnect("refused"))) {
            _ = try await givingUp.send { () throws(DiscogsError) in try unreachable.call() }
        }
        #expect(unreachable.pauses.isEmpty && unreachable.count == 1)

        let stopping = Script([Self.html500])
        var stopped = retry(stopping, decide: .stop)
        await #expect(throws: DiscogsError.transport(.cancelled)) {
            _ = try await stopped.send { () throws(DiscogsError) in try stopping.call() }
        }
    }

    @Test func theCountOfFailuresRunsAcrossTheRequestsOfALookupUntilOneSucceeds() async throws {
        let script = Script([Self.html500, Self.html500])
        var retry = retry(script)
        _ = try await retry.send { () throws(DiscogsError) in try script.call() }  // two failures, then 42
        #expect(retry.failuresInARow == 0)
        let again = Script([Self.html500])
        _ = try await retry.send { () throws(DiscogsError) in try again.call() }
        #expect(script.pauses == [1, 2, 1], "the first pause again: the count started over after a success")
        #expect(retry.requests == 5)
    }
}
