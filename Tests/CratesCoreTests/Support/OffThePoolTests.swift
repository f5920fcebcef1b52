import CratesTestSupport
import Foundation
import Testing

/// `.offThePool` (the test support's trait for test bodies that compute for long): the body
/// runs on a thread of its own, so the cooperative pool's threads stay free for the other
/// tests' tasks, and a job given to its executor late still runs.
@Suite struct OffThePoolTests {
    /// Whether a `ThreadExecutor`'s thread runs the caller (a synchronous function, so that
    /// an async test may ask too).
    static func offThePool() -> Bool {
        ThreadExecutor.ownsCurrentThread
    }

    @Test("a marked test's synchronous body runs on a thread of its own", .offThePool)
    func synchronousBody() {
        #expect(Self.offThePool())
    }

    @Test("a marked test's async body and its child tasks run there too", .offThePool)
    func asyncBodyAndChildren() async {
        #expect(Self.offThePool())
        let children = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 { group.addTask { Self.offThePool() } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(children == [true, true, true])
    }

    @Test("an unmarked test runs on the pool")
    func unmarked() {
        #expect(!Self.offThePool())
    }

    @Test("a job given after the executor was finished still runs, on a thread of its own")
    func jobAfterFinish() async throws {
        let executor = ThreadExecutor()
        executor.finish()
        let ranOffThePool = LockBox<Bool?>(nil)
        Task(executorPreference: executor) { ranOffThePool.set(Self.offThePool()) }
        let offThePool = try await waitFor("the task given after finish() to run") { ranOffThePool.value }
        #expect(offThePool)
    }
}
