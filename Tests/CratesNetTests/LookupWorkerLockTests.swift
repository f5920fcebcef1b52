import CratesCore
import CratesStore
import Foundation
import Synchronization
import Testing

@testable import CratesNet

/// A lookup whose result cannot be written yet, because another process holds the
/// database's lock for longer than the busy timeout, is retried until it is written, and
/// counted only then (issue 12, item 3). A real store file, a real `sqlite3` holding
/// `BEGIN EXCLUSIVE`, the real transport against the loopback server.
@Suite struct LookupWorkerLockTests {
    @Test(.enabled(if: SQLiteLock.shell != nil))
    func aResultIsRetriedUntilWrittenAndCountedOnlyThen() async throws {
        let server = try await DiscogsTestServer.start()
        let directory = NSTemporaryDirectory() + "crates-lock-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/crates.sqlite"
        // A short busy timeout, so that "longer than the busy timeout" takes a moment.
        let store = try CatalogueStore(path: path, busyTimeout: 0.2)
        let record = try await store.add(NewRecord(gtin: try gtin("5099750442227"), addMethod: .typed))

        // The lock is taken once the worker has claimed the record: its lookup then runs,
        // and its result meets the lock.
        let queue = LockAfterClaim(store: store, path: path)
        var policy = LookupWorkerTests.policy
        policy.writeRetryMaximum = 0.1
        let worker = LookupWorker(queue: queue, lookup: DiscogsBarcodeLookup(client: try testClient(server)), policy: policy)
        let running = Task { await worker.run() }

        // Refused again and again (each attempt waits out the 0.2 s busy timeout)…
        #expect(await eventually(timeout: 60) { await worker.statistics.writeRetries >= 3 })
        #expect(try await server.stats().releases == ["10507194"])  // the lookup itself is done
        // …and not counted as done, nor written: the record is still being looked up.
        let before = await worker.statistics
        #expect(before.lookups == 0 && before.matched == 0)
        #expect(try await store.record(record.id)?.lookupState == .lookingUp)

        // The lock goes: the result is written, then counted.
        try await queue.lock.release()
        #expect(try await eventually(timeout: 30) { try await store.record(record.id)?.lookupState == .matched })
        #expect(await eventually(timeout: 30) { await worker.statistics.matched == 1 })
        await worker.stop()
        #expect(await running.value == .stopped)
        let after = await worker.statistics
        #expect(after.lookups == 1 && after.matched == 1 && after.unwritten == 0)
        #expect(try await store.details(record.id)?.release?.id == 10_507_194)
    }
}

/// The store's queue, which has `sqlite3` take the database's write lock right after the
/// first claim, and keep it until `lock.release()`.
final class LockAfterClaim: LookupQueue {
    let store: CatalogueStore
    let lock: SQLiteLock

    init(store: CatalogueStore, path: String) {
        self.store = store
        lock = SQLiteLock(path: path)
    }

    func claimNext(now: Date, lease: TimeInterval) async throws -> LookupJob? {
        let job = try await store.claimNext(now: now, lease: lease)
        if job != nil { try await lock.acquire() }
        return job
    }

    func complete(_ job: LookupJob, with outcome: LookupOutcome) async throws { try await store.complete(job, with: outcome) }
    func release(_ job: LookupJob) async throws { try await store.release(job) }
    func waitingCount() async throws -> Int { try await store.waitingCount() }
}

/// `sqlite3 PATH` holding `BEGIN EXCLUSIVE` until released: another process's lock.
final class SQLiteLock: Sendable {
    static let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    let path: String
    private let state = Mutex<(process: Process?, input: Pipe?, output: Pipe?)>((nil, nil, nil))

    init(path: String) {
        self.path = path
    }

    /// Starts `sqlite3`, has it take the lock, and returns once it says it holds it. Only
    /// the first call does anything.
    func acquire() async throws {
        guard let shell = Self.shell else { throw TestServerError.didNotStart("no sqlite3") }
        let output: Pipe? = try state.withLock { state in
            guard state.process == nil else { return nil }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: shell)
            process.arguments = [path]
            let input = Pipe()
            let output = Pipe()
            closeOnExec(input, output)
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nSELECT 'locked';\n".utf8))
            state = (process, input, output)
            return output
        }
        guard let output else { return }
        let said = LockLine(output.fileHandleForReading)
        guard await eventually(timeout: 30, { said.text != nil }), said.text == "locked" else {
            throw TestServerError.didNotStart("sqlite3 did not take the lock: \(said.text ?? "nothing")")
        }
    }

    /// Ends the transaction and `sqlite3`, and waits for it to exit.
    func release() async throws {
        let process: Process? = state.withLock { state in
            state.input?.fileHandleForWriting.write(Data("COMMIT;\n.quit\n".utf8))
            try? state.input?.fileHandleForWriting.close()
            return state.process
        }
        guard let process else { return }
        #expect(await eventually(timeout: 30) { !process.isRunning })
        #expect(process.terminationStatus == 0)
    }

    deinit {
        state.withLock { state in
            if let process = state.process, process.isRunning { process.terminate() }
        }
    }
}

/// The first line a pipe sends, read on a thread of its own.
private final class LockLine: Sendable {
    private let line = Mutex<String?>(nil)
    var text: String? { line.withLock { $0 } }

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var bytes: [UInt8] = []
            while true {
                let chunk = handle.readData(ofLength: 1)
                if chunk.isEmpty || chunk.first == UInt8(ascii: "\n") { break }
                bytes.append(contentsOf: chunk)
            }
            let read = String(decoding: bytes, as: UTF8.self)
            line.withLock { $0 = read }
        }
    }
}
