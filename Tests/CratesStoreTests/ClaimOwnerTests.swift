import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesStore

#if canImport(Glibc)
import Glibc
#endif

/// A lookup claim names its process (issue 12, item 4): the claim of a process that is gone
/// is free at once for the next claimer, not after the 15-minute lease; a live one is not.
@Suite struct ClaimOwnerTests {
    /// One pending record in a new database, and a claimer process holding it (`crates-bench
    /// claim`: claims as a worker does, and holds the claim until its standard input closes).
    /// The claimer has no deadline of its own: it lives exactly as long as the test needs its
    /// claim (a deadline that ran out on a loaded machine freed the claim before the test
    /// looked); each test ends it, and stops it on the way out whatever happens.
    private func claimedByAnotherProcess() async throws -> (CollectionStore, ChildProcess, Int64, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let store = try CollectionStore(path: path)
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        let claimer = try ChildProcess.start(
            try ProcessRunner.builtProduct(named: "crates-bench"), arguments: ["claim", "--db", path], keepStdinOpen: true,
            deadline: nil)
        let claimed: Substring
        do {
            claimed = try await waitFor("the claim", lastSeen: { claimer.stdoutSoFar + claimer.stderrSoFar }) {
                claimer.stdoutSoFar.split(separator: "\n").first { $0.hasPrefix("claimed ") }
            }
        } catch {
            claimer.terminate()
            throw error
        }
        #expect(claimed == "claimed \(record.id)")
        return (store, claimer, record.id, directory)
    }

    @Test func theClaimOfAProcessKilledMinus9IsTakenAtOnce() async throws {
        let (store, claimer, id, directory) = try await claimedByAnotherProcess()
        defer { claimer.terminate() }
        claimer.signal(SIGKILL)
        let killed = await claimer.result()
        #expect(killed.signalled && killed.status == SIGKILL, "\(killed)")
        // A lease of 900 s that has not run out: only the dead claimer frees it.
        #expect(try await store.dueLookups() == 1)
        let job = try await store.claimNext(now: Date(), lease: 900)
        #expect(job?.recordID == id)
        _ = directory
    }

    @Test func aLiveClaimOfAnotherProcessIsNotTaken() async throws {
        let (store, claimer, id, directory) = try await claimedByAnotherProcess()
        defer { claimer.terminate() }
        #expect(try await store.dueLookups() == 0)
        #expect(try await store.claimNext(now: Date(), lease: 900) == nil)
        // Once it has ended (its claim left behind, as a SIGHUP would), the claim is free.
        claimer.closeStdin()
        let ended = await claimer.result()
        #expect(ended.status == 0 && !ended.signalled, "\(ended)")
        #expect(try await store.claimNext(now: Date(), lease: 900)?.recordID == id)
        _ = directory
    }

    @Test func ownerNamesThisProcessAndTellsAReusedPid() throws {
        let owner = try #require(ClaimOwner.current)
        let parts = owner.split(separator: "/").map(String.init)
        #expect(parts.count == 4)
        #expect(parts[2] == String(getpid()))
        #expect(!ClaimOwner.isDead(owner))
        // The same pid started at another time: the pid was reused, the claimer is gone.
        let start = try #require(UInt64(parts[3]))
        #expect(ClaimOwner.isDead([parts[0], parts[1], parts[2], String(start + 1)].joined(separator: "/")))
        // A pid no process has (above pid_max).
        #expect(ClaimOwner.isDead([parts[0], parts[1], "99999999", parts[3]].joined(separator: "/")))
        // What cannot be judged here is alive: another boot, another PID namespace, garbage.
        #expect(!ClaimOwner.isDead(["another-boot", parts[1], "99999999", parts[3]].joined(separator: "/")))
        #expect(!ClaimOwner.isDead([parts[0], "pid:[1]", "99999999", parts[3]].joined(separator: "/")))
        #expect(!ClaimOwner.isDead("not an owner"))
    }
}
