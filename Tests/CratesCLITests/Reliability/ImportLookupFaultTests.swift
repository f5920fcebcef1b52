import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 12, items 3, 4 and 11: `crates import`'s lookups when things go wrong, against the
/// loopback Discogs server, which holds an answer until the test has done its part.
///
/// - A result the collection will not take (another program holds its lock past the busy
///   timeout) waits, is said to wait, is written once the lock goes, and only then counted.
/// - The claim of an import killed -9 is taken at once by the next import, not 15 minutes
///   later; SIGHUP stops an import as SIGTERM does (exit 129), its lookup given back.
/// - One connection that ends without an answer (as a 30 s timeout does) is tried again
///   within the run: it neither fails the other lookups nor stops them.
/// - Every "N lookups: …" summary adds up.
@Suite("crates import: lookups under locks, kills, hang-ups and a dropped connection (process)", .serialized, .processTimeLimit)
struct ImportLookupFaultTests {
    /// 5099750442227 and 727361626525 are matched by the server's fixtures (releases
    /// 10507194 and 5134861).
    static let list = "5099750442227\n727361626525\n"
    /// Every barcode search: held, the lookups in hand wait for the test (one request per
    /// record: a barcode found by its search is matched without another request).
    static let searches = "/database/search"

    private func signedIn() async throws -> (CommandSandbox, DiscogsTestServer) {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "fault-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "fault-token")
        return (sandbox, server)
    }

    @Test(
        "sqlite3 holds BEGIN EXCLUSIVE while a result arrives: the import says it waits, writes it when the lock goes, and counts it then",
        .enabled(if: SQLiteLock.shell != nil))
    func aLockedCollectionDelaysAResultButLosesNone() async throws {
        let (sandbox, server) = try await signedIn()
        let path = try Reliability.write(Self.list, "shelf.txt", in: sandbox)
        try await server.hold(match: Self.searches)
        let importer = try ProcessRunner.startCrates(["import", path], environment: sandbox.environment, deadline: .seconds(180))
        try await server.waitUntilHeld()
        // A lookup is in hand; its result will meet another program's lock.
        let lock = SQLiteLock(path: sandbox.database)
        try await lock.acquire()
        try await server.release()
        // Past the store's busy timeout (10 s) the result is refused, and the import says why.
        try await waitUntil("the import to say its result waits", within: .seconds(120), lastSeen: { importer.stderrSoFar }) {
            importer.stderrSoFar.contains("a result waits to be written: another program holds the collection locked")
        }
        let store = try sandbox.openStore()
        let locked = try await Reliability.states(store)
        #expect(locked[.lookingUp, default: 0] >= 1 && locked[.matched] == nil, "not counted, not lost: still claimed: \(locked)")
        #expect(await lock.release()?.status == 0)
        let result = await importer.result()
        #expect(result.status == 0, "\(result)")
        let counts = Reliability.lookupCounts(result.stdout)
        #expect(counts?["total"] == 2 && counts?["matched"] == 2, "\(result)")
        #expect(try await Reliability.states(store) == [.matched: 2], "what the summary says is what is written")
    }

    @Test("kill -9 during a lookup: the next import takes the dead claim at once and finishes the job")
    func aKilledImportsClaimIsTakenAtOnce() async throws {
        let (sandbox, server) = try await signedIn()
        let path = try Reliability.write(Self.list, "shelf.txt", in: sandbox)
        try await server.hold(match: Self.searches)
        let killed = try ProcessRunner.startCrates(["import", path], environment: sandbox.environment, deadline: .seconds(120))
        try await server.waitUntilHeld()
        killed.signal(SIGKILL)
        let gone = await killed.result()
        #expect(gone.signalled && gone.status == SIGKILL, "\(gone)")
        let store = try sandbox.openStore()
        let claimed = try await Reliability.states(store)
        #expect(claimed[.lookingUp, default: 0] >= 1 && claimed[.matched] == nil, "the claims of a dead process: \(claimed)")
        try await server.release()

        let again = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(again.status == 0, "\(again)")
        #expect(again.stdoutLines.first == "\(path): 0 added, 2 already in the collection.", "\(again)")
        let counts = Reliability.lookupCounts(again.stdout)
        #expect(counts?["total"] == 2 && counts?["matched"] == 2, "\(again)")
        #expect(try await Reliability.states(store) == [.matched: 2])
    }

    @Test("SIGHUP (the terminal closed) during a lookup: stopped as by SIGTERM, exit 129, the lookup given back")
    func aHangUpStopsTheImportCleanly() async throws {
        let (sandbox, server) = try await signedIn()
        let path = try Reliability.write(Self.list, "shelf.txt", in: sandbox)
        try await server.hold(match: Self.searches)
        let importer = try ProcessRunner.startCrates(["import", path], environment: sandbox.environment, deadline: .seconds(120))
        try await server.waitUntilHeld()
        importer.signal(SIGHUP)
        let result = await importer.result()
        #expect(result.status == 129 && !result.signalled, "\(result)")
        #expect(result.stderr.contains("Interrupted: 2 records added and kept; run the same import again to finish."), "\(result)")
        try await server.release()
        let store = try sandbox.openStore()
        #expect(try await Reliability.states(store) == [.pending: 2], "the lookups in hand went back to the queue")
    }

    @Test("a connection that ends without an answer is tried again within the run: every lookup settles, none fails; the summary adds up")
    func oneDroppedConnectionIsTriedAgain() async throws {
        let (sandbox, server) = try await signedIn()
        let path = try Reliability.write("5099750442227\n727361626525\n5012345678900\n5000000000098\n", "shelf.txt", in: sandbox)
        // The first search for 5099750442227 ends with no answer (curl: "Empty reply from
        // server"), as a timeout or a reset ends a request.
        try await server.inject("drop", count: 1, match: "barcode=5099750442227")
        let before = try await server.stats()
        let result = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("Stopped"), "\(result)")
        let counts = Reliability.lookupCounts(result.stdout)
        #expect(counts?["total"] == 4, "\(result)")
        #expect(counts?["matched"] == 2 && counts?["ambiguous"] == 1 && counts?["not found"] == 1 && counts?["failed"] == 0, "\(result)")
        let store = try sandbox.openStore()
        #expect(try await Reliability.states(store) == [.matched: 2, .ambiguous: 1, .notFound: 1])
        // Every request was answered but the one dropped, and 5099750442227 was asked again.
        let after = try await server.stats()
        let answered = (after.searches.count - before.searches.count) + (after.releases.count - before.releases.count)
        #expect(after.requests - before.requests == answered + 1, "one request dropped: \(after.requests - before.requests) requests")
        #expect(after.searches.contains("5099750442227"), "asked again and answered")
    }

    /// "18 lookups: 17 matched, 0, 0, 0": a summary whose parts did not add up to its total.
    /// Every kind of outcome at once, a skipped lookup among them: a record of a shop's price
    /// label (restricted circulation, 20…) that an older crates stored is in the queue, and
    /// the import's lookups drain the queue; it is never sent to Discogs. Each kind has its
    /// count, and they add up.
    @Test("every outcome in one import (matched, ambiguous, not found, skipped): the summary names each, and they add up")
    func theSummaryAddsUp() async throws {
        let (sandbox, server) = try await signedIn()
        let store = try sandbox.openStore()
        _ = try await store.add(NewRecord(gtin: try GTIN.parse("2012345678903").gtin, addMethod: .typed))
        let path = try Reliability.write("5099750442227\n727361626525\n5012345678900\n5000000000098\n", "shelf.txt", in: sandbox)
        let result = try await sandbox.crates(["import", path], deadline: .seconds(120))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Discogs: 5 lookups: 2 matched, 1 ambiguous, 1 not found, 1 skipped, 0 failed."), "\(result)")
        let counts = Reliability.lookupCounts(result.stdout)
        #expect(counts?["total"] == 5, "\(result)")
        #expect(try await Reliability.states(store) == [.matched: 2, .ambiguous: 1, .notFound: 1, .skipped: 1])
        #expect(try await server.stats().searches.allSatisfy { !$0.contains("2012345678903") }, "never sent")
    }
}
