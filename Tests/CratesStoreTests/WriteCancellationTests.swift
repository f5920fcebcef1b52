import CratesCore
import CratesTestSupport
import Dispatch
import GRDB
import Testing

@testable import CratesStore

/// Why the batch in hand of a stopped import is written through `write(finishing:)`: a
/// signal cancels the command's root task, and GRDB's async accesses hear that task's
/// cancellation. The test cancels the writing task while its transaction is in hand (the
/// transaction waits for the test, not for time), then lets it go on.
@Suite struct WriteCancellationTests {
    /// Runs one write that inserts a row, cancelling its task while the transaction is in
    /// hand; says whether the write threw, and how many rows are there after.
    static func cancelledWrite(finishing: Bool) async throws -> (threw: Bool, rows: Int) {
        let directory = try TemporaryDirectory()
        let store = try CollectionStore(path: directory.file("crates.sqlite"))
        try await store.write { db in try db.execute(sql: "CREATE TABLE probe (x INTEGER)") }
        let entered = LockBox(false)
        let proceed = DispatchSemaphore(value: 0)
        let writing = Task {
            try await store.write(finishing: finishing) { db in
                entered.withLock { $0 = true }
                proceed.wait()
                try db.execute(sql: "INSERT INTO probe (x) VALUES (1)")
            }
        }
        try await waitUntil("the transaction to be in hand") { entered.withLock { $0 } }
        writing.cancel()
        proceed.signal()
        let threw: Bool
        do {
            try await writing.value
            threw = false
        } catch {
            threw = true
        }
        let rows = try await store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM probe") ?? 0 }
        return (threw, rows)
    }

    @Test("finishing: the transaction in hand when the task is cancelled is committed")
    func finishingCommits() async throws {
        let (threw, rows) = try await Self.cancelledWrite(finishing: true)
        #expect(!threw)
        #expect(rows == 1)
    }

    @Test("without finishing, GRDB cuts the cancelled task's transaction short: nothing of it is written")
    func plainWriteIsCutShort() async throws {
        let (threw, rows) = try await Self.cancelledWrite(finishing: false)
        #expect(threw)
        #expect(rows == 0)
    }
}
