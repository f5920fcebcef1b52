import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesStore

/// One writing sync at a time: the lease a sync takes before its first write. Another
/// token is refused while the holder lives and renews; a holder that is gone (killed -9),
/// or silent past the expiry, loses it at once.
@Suite struct SyncLeaseTests {
    let directory: TemporaryDirectory
    let store: CollectionStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try CollectionStore(path: directory.file("crates.sqlite"))
    }

    @Test("taken by one token; another is told who holds it; free again once given back")
    func oneAtATime() async throws {
        #expect(try await store.takeSyncLease("a") == nil)
        #expect(try await store.takeSyncLease("a") == nil, "its holder takes it again")
        #expect(try await store.takeSyncLease("b") == CollectionStore.SyncLeaseHolder(pid: getpid()))
        try await store.releaseSyncLease("b")  // not its lease: nothing happens
        #expect(try await store.takeSyncLease("b") != nil)
        try await store.releaseSyncLease("a")
        #expect(try await store.takeSyncLease("b") == nil)
        #expect(try await store.takeSyncLease("a") != nil)
    }

    @Test("a holder whose process is gone loses the lease at once; a live one's lease lasts while renewed, and not past the expiry")
    func deadOrSilentHolders() async throws {
        let owner = try #require(ClaimOwner.current)
        let parts = owner.split(separator: "/").map(String.init)
        // Our own pid with another start time: that process is gone (the pid was reused).
        let gone = [parts[0], parts[1], parts[2], String((UInt64(parts[3]) ?? 0) + 1)].joined(separator: "/")
        let now = Date()
        try await store.write { db in
            try db.execute(
                sql: "INSERT INTO syncLease (id, token, owner, renewedAt) VALUES (1, 'killed', ?, ?)",
                arguments: [gone, StoredValues.seconds(now)])
        }
        #expect(try await store.takeSyncLease("next", now: now) == nil, "a killed holder's lease is free at once")

        // A live holder (this process) renews: still held just inside the expiry after the renewal.
        let expiry = CollectionStore.syncLeaseExpiry
        #expect(try await store.renewSyncLease("next", now: now.addingTimeInterval(expiry - 1)))
        #expect(try await store.takeSyncLease("other", now: now.addingTimeInterval(2 * expiry - 2)) != nil)
        // Silent past the expiry: free.
        #expect(try await store.takeSyncLease("other", now: now.addingTimeInterval(2 * expiry)) == nil)
        #expect(try await store.renewSyncLease("next", now: now.addingTimeInterval(2 * expiry)) == false, "lost, and it knows")
    }
}
