import CratesTestSupport
import Testing

/// The test support's wait with `progress`: its deadline counts from the work's last step.
/// Each look is a step here, so the figures do not depend on the machine's speed: with a
/// deadline of zero, only the steps keep the wait going.
@Suite struct WaitTests {
    @Test("work that keeps moving is waited for past the deadline, until its condition holds")
    func movingWork() async throws {
        var looks = 0
        try await waitUntil("the fifth look", within: .zero, every: .milliseconds(1), progress: { looks }) {
            looks += 1
            return looks == 5
        }
        #expect(looks == 5)
    }

    @Test("work that stops moving fails the wait, its deadline counted from the last step")
    func stalledWork() async throws {
        var looks = 0
        let error = await #expect(throws: WaitTimeout.self) {
            try await waitUntil("a condition that never holds", within: .zero, every: .milliseconds(1), progress: { min(looks, 3) }) {
                looks += 1
                return false
            }
        }
        #expect(error?.what == "a condition that never holds")
        // The steps to 3, then one look that found no step.
        #expect(looks == 4)
    }

    @Test("without progress, a deadline of zero allows one look")
    func noProgress() async throws {
        var looks = 0
        await #expect(throws: WaitTimeout.self) {
            try await waitUntil("a condition that never holds", within: .zero) {
                looks += 1
                return false
            }
        }
        #expect(looks == 1)
    }
}
