import CratesCore
@_spi(Benchmark) import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// Issue 12, item 1: imports of one list and adds of one barcode, at once, as real `crates`
/// processes on one collection file, never store a copy twice: "is it there already?" and
/// the insert are one write transaction, which SQLite's write lock serialises across
/// processes.
///
/// Each race starts its processes while `sqlite3` holds the collection's write lock, waits
/// until every one of them has the collection open (its input read, at its first write or
/// about to be; at most 4 s after the first, well within the minute a command waits for
/// the lock), then lets the lock go: they count and insert as closely together as
/// processes can. (crates before issue 12 counted outside the insert's transaction, so every
/// one of them counted the collection as it was before any wrote: 4 adds of one barcode
/// stored 4 copies.) Several trials each, with seeded lists.
@Suite("concurrent crates import and crates add on one collection (process)", .serialized, .processTimeLimit)
struct ConcurrentCommandTests {
    static let trials = 3

    private func race(_ sandbox: CommandSandbox, _ runs: [[String]]) async throws -> [ProcessResult] {
        let lock = SQLiteLock(path: sandbox.database)
        try await lock.acquire()
        let children = try runs.map { try ProcessRunner.startCrates($0, environment: sandbox.environment, deadline: .seconds(180)) }
        // Each waits for the lock at most its busy timeout (10 s) once it has the collection
        // open: the lock goes when all have it open, or 4 s after the first did (a starved
        // machine may start the last one late; it then joins the race a little behind).
        var firstOpen: ContinuousClock.Instant?
        try await waitUntil("every crates to open the collection, or 4 s after the first did") {
            let open = children.count { Reliability.hasOpen($0.pid, sandbox.database) || $0.hasExited }
            if open == children.count { return true }
            if open > 0, firstOpen == nil { firstOpen = .now }
            return firstOpen.map { .now - $0 > .seconds(4) } ?? false
        }
        let released = await lock.release()
        #expect(released?.status == 0, "\(String(describing: released))")
        var results: [ProcessResult] = []
        for child in children { results.append(await child.result()) }
        return results
    }

    @Test("three crates import of one list and a crates add of one of its barcodes, at once: each barcode as many times as listed")
    func importsAndAnAdd() async throws {
        for trial in 0..<Self.trials {
            let sandbox = try CommandSandbox()
            let (text, wanted) = Reliability.list(distinct: 90, seed: UInt64(12 + trial))
            let path = try Reliability.write(text, "list.txt", in: sandbox)
            // One copy of a barcode listed three times is there already: two more are wanted.
            let store = try sandbox.openStore()
            let early = try #require(wanted.first { $0.value == 3 }?.key)
            _ = try await store.add(NewRecord(gtin: early, addMethod: .typed))
            let single = try #require(wanted.first { $0.value == 1 }?.key)
            let imports = Array(repeating: ["import", "--no-lookup", path], count: 3)
            let results = try await race(sandbox, imports + [["add", single.canonical]])
            for result in results.prefix(3) {
                #expect(result.status == 0 && !result.signalled, "trial \(trial): \(result)")
            }
            // The add either came first (added, exit 0) or found the import's copy (exit 2).
            #expect(results[3].status == 0 || results[3].status == 2, "trial \(trial): \(results[3])")
            let added = results.prefix(3).compactMap { result in
                result.stdoutLines.first.flatMap { $0.split(separator: ": ").last?.split(separator: " ").first }.flatMap { Int($0) }
            }
            let byAdd = results[3].status == 0 ? 1 : 0
            let total = wanted.values.reduce(0, +)
            #expect(added.reduce(0, +) + byAdd == total - 1, "trial \(trial): \(results.map(\.stdout))")
            #expect(try await store.outline().rowCount == total, "trial \(trial)")
            for (gtin, copies) in wanted {
                #expect(try await store.copies(of: gtin) == copies, "trial \(trial): \(gtin.canonical)")
            }
        }
    }

    @Test("four crates add of one barcode at once: one copy, three told it is there")
    func fourAddsOfOneBarcode() async throws {
        for trial in 0..<Self.trials {
            let sandbox = try CommandSandbox()
            let store = try sandbox.openStore()
            let results = try await race(sandbox, Array(repeating: ["add", "5099750442227"], count: 4))
            #expect(results.count { $0.status == 0 } == 1, "trial \(trial): \(results)")
            #expect(results.count { $0.status == 2 && $0.stderr.contains("already in the collection") } == 3, "trial \(trial): \(results)")
            #expect(try await store.copies(of: try GTIN.parse("5099750442227").gtin) == 1, "trial \(trial)")
        }
    }

    /// The collection does not exist yet: the four processes create it at once. Opening
    /// (creating, switching to WAL, migrating) is one process at a time (`OpeningLock`);
    /// before, the loser of the race failed with "duplicate column name" or "locked".
    @Test("four crates add of one barcode at once on a collection that does not exist yet: it is made once, one copy")
    func fourAddsMakeTheCollection() async throws {
        for trial in 0..<Self.trials {
            let sandbox = try CommandSandbox()
            let children = try (0..<4).map { _ in
                try ProcessRunner.startCrates(["add", "5099750442227"], environment: sandbox.environment, deadline: .seconds(120))
            }
            var results: [ProcessResult] = []
            for child in children { results.append(await child.result()) }
            #expect(results.count { $0.status == 0 } == 1, "trial \(trial): \(results)")
            #expect(results.count { $0.status == 2 && $0.stderr.contains("already in the collection") } == 3, "trial \(trial): \(results)")
            let store = try sandbox.openStore()
            #expect(try await store.copies(of: try GTIN.parse("5099750442227").gtin) == 1, "trial \(trial)")
            #expect(try await store.integrityProblems().isEmpty)
        }
    }

    /// A command's write waits out several busy timeouts, saying so once, rather than telling
    /// the collector to try again: before, an add met by three imports' batches on a loaded
    /// machine failed after 10 s with "another program holds the collection locked". The
    /// lock is let go only once the add has said it waits (one timeout has passed).
    @Test("crates add while another program holds the lock past one busy timeout: it says it waits, then adds")
    func anAddWaitsForTheLock() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let lock = SQLiteLock(path: sandbox.database)
        try await lock.acquire()
        let add = try ProcessRunner.startCrates(["add", "5099750442227"], environment: sandbox.environment, deadline: .seconds(180))
        let waiting = "crates add: waiting for the collection: another program holds it locked (a minute at most)"
        try await waitUntil("the add says it waits", lastSeen: { add.stderrSoFar }) {
            add.stderrSoFar.contains(waiting) || add.hasExited
        }
        #expect(await lock.release()?.status == 0)
        let result = await add.result()
        #expect(result.status == 0 && result.stderrLines == [waiting], "\(result)")
        #expect(try await store.copies(of: try GTIN.parse("5099750442227").gtin) == 1)
    }

    @Test("two crates import of a CSV without barcodes at once: each row described once, stored once")
    func describedRowsAtOnce() async throws {
        for trial in 0..<Self.trials {
            let sandbox = try CommandSandbox()
            let store = try sandbox.openStore()
            var csv = "catno,artist,title\n"
            for n in 1...40 { csv += "CAT \(n + 100 * trial),Artist \(n),Title \(n)\n" }
            let path = try Reliability.write(csv, "shelf.csv", in: sandbox)
            let results = try await race(sandbox, Array(repeating: ["import", "--no-lookup", path], count: 2))
            for result in results { #expect(result.status == 0, "trial \(trial): \(result)") }
            #expect(try await store.outline().rowCount == 40, "trial \(trial): \(results.map(\.stdout))")
        }
    }

    /// Two `crates sync` at once on one collection: the second waits for the first (it
    /// says so), so the outbox is carried out once. Before the sync lease, both carried it
    /// out, and Discogs could end with two instances of one copy. The first is held in its
    /// first add while the second starts; each copy must end on one instance of its own,
    /// each instance pulled once.
    @Test("two crates sync at once: the second waits for the first; each copy added to Discogs once, each instance pulled once")
    func twoSyncsAtOnce() async throws {
        for trial in 0..<Self.trials {
            let (sandbox, server) = try await SyncCommandTests.signedIn()
            // Copies of releases 1, 5134861 and 10507194; Discogs has two instances of release
            // 1: one links to the copy, the other is pulled; the other two copies are added.
            _ = try await SyncCommandTests.seedCopies(sandbox)
            try await server.collection.seed(#"{"instances": [{"release_id": 1, "rating": 3}, {"release_id": 1, "rating": 5}]}"#)
            // The first sync's first add waits at the server before Discogs carries it out:
            // without the lease, the second found it sent and not carried out, planned it
            // again and sent it, and the first's then went through as well.
            try await server.hold(match: "/collection/folders/1/releases/5134861", count: 1)
            let first = try ProcessRunner.startCrates(["sync"], environment: sandbox.environment, deadline: .seconds(120))
            try await server.waitUntilHeld()
            let second = try ProcessRunner.startCrates(["sync"], environment: sandbox.environment, deadline: .seconds(120))
            let waiting = "crates sync: waiting for another crates sync of this collection (pid \(first.pid)) to end"
            try await waitUntil("the second sync says it waits", lastSeen: { second.stderrSoFar }) {
                second.stderrSoFar.contains(waiting) || second.hasExited
            }
            try await server.release()
            var pulled = 0
            for sync in [first, second] {
                let result = await sync.result()
                #expect(result.status == 0 && !result.signalled, "trial \(trial): \(result)")
                let line = try #require(result.stdoutLines.first, "trial \(trial): \(result)")
                let count = line.split(separator: ": ").last?.split(separator: " ").first.flatMap { Int($0) }
                pulled += try #require(count, "\(line)")
            }
            #expect(await second.result().stderrLines.contains(waiting), "trial \(trial)")
            #expect(pulled == 1, "trial \(trial): one of them pulled the unlinked instance")
            let stats = try await server.collection.stats()
            #expect(stats.requests["add"] == 2, "trial \(trial): each copy added once: \(stats.requests)")
            let instances = try await server.collection.dump().instances
            #expect(instances.map(\.release_id).sorted() == [1, 1, 5_134_861, 10_507_194], "trial \(trial)")
            let store = try sandbox.openStore()
            #expect(try await store.outline().rowCount == 4, "trial \(trial)")
            var linked: Set<Int64> = []
            for id in Int64(1)...4 {
                if let link = try await store.details(id)?.discogs { linked.insert(link.instanceID) }
            }
            #expect(linked == Set(instances.map(\.instance_id)), "trial \(trial): each copy linked to an instance of its own")
        }
    }
}
