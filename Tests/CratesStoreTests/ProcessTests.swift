import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A writer process killed with SIGKILL in the middle of its work loses nothing it had
/// committed, and leaves a sound database.
@Suite struct ProcessTests {
    @Test func killingAWriterMidBatchLosesNothingCommitted() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let batch = 500
        // Created first, so the test's store and the writer share one initialised file.
        let store = try CollectionStore(path: path)

        // `crates-bench` sits next to the test bundle: the test target depends on it.
        let writer = try ChildProcess.start(
            try ProcessRunner.builtProduct(named: "crates-bench"), arguments: ["writer", "--db", path, "--batch", "\(batch)"],
            deadline: .seconds(120))
        defer { writer.signal(SIGKILL) }
        /// The counts the writer printed after each commit.
        func committed() -> Int { writer.stdoutSoFar.split(separator: "\n").compactMap { Int($0) }.last ?? 0 }

        // Let it commit a few batches; it goes on with the next ones until it is killed, in a
        // transaction or between two: either way, what it committed stays whole.
        try await waitUntil("six batches committed", lastSeen: { writer.stdoutSoFar + writer.stderrSoFar }) {
            committed() >= 6 * batch
        }
        #expect(writer.signal(SIGKILL))
        let killed = await writer.result()
        #expect(killed.signalled && killed.status == SIGKILL, "\(killed)")
        let reported = committed()

        // Reopened as a new process would (the killed one held no lock that survives it).
        let reopened = try CollectionStore(path: path)
        let count = try await reopened.outline().rowCount
        #expect(count >= reported)
        // A batch is one transaction: all of it or none.
        #expect(count % batch == 0)
        #expect(try await reopened.integrityProblems().isEmpty)
        #expect(try await store.outline().rowCount == count)
    }
}
