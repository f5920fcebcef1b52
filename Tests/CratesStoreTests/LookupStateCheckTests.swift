import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesStore

/// The lookup state in the database: only the states crates knows are written, and which
/// records are due is one rule for the claim and the count.
@Suite struct LookupStateCheckTests {
    private let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    @Test("a state crates does not know is refused, on insert and on update")
    func unknownStateRefused() async throws {
        let store = try CollectionStore.inMemory()
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: t0, addMethod: .wedge))
        await #expect(throws: StoreError.self) {
            try await store.write { db in
                try db.execute(sql: "UPDATE record SET lookupState = 'Pending' WHERE id = ?", arguments: [record.id])
            }
        }
        await #expect(throws: StoreError.self) {
            try await store.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO record (gtin, addedAt, addMethod, lookupState, sectionKey, rowKey, updatedAt)
                        VALUES (?, 0, 'typed', 'looking up', '', '', 0)
                        """,
                    arguments: [Fixtures.gtin(2).canonical])
            }
        }
        #expect(try await store.record(record.id)?.lookupState == .pending)
        // Every state crates writes passes the check.
        for state in LookupState.allCases {
            try await store.write { db in
                try db.execute(sql: "UPDATE record SET lookupState = ? WHERE id = ?", arguments: [state, record.id])
            }
        }
    }

    @Test("a collection checked by v13's list, opened by this build: v27's comparisons refuse what the list refused")
    func listReplacedByComparisons() async throws {
        let directory = try TemporaryDirectory(prefix: "crates-v27")
        let path = directory.file("v19.sqlite")
        try await OlderCollection.make(at: path, upTo: "v19 purchase and loan") { queue in
            let triggers = try await queue.read { db in
                try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name LIKE 'record_lookupState_%'")
            }
            #expect(triggers.count == 2 && triggers.allSatisfy { $0.contains("NOT IN") })
        }
        let store = try CollectionStore(path: path)
        let triggers = try await store.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name LIKE 'record_lookupState_%' ORDER BY name")
        }
        #expect(triggers.count == 2 && triggers.allSatisfy { !$0.contains(" IN ") && $0.contains("<> 'handEntered'") })
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: t0, addMethod: .wedge))
        for state in ["Pending", "looking up", ""] {
            await #expect(throws: StoreError.self, "\(state)") {
                try await store.write { db in
                    try db.execute(sql: "UPDATE record SET lookupState = ? WHERE id = ?", arguments: [state, record.id])
                }
            }
            await #expect(throws: StoreError.self, "\(state)") {
                try await store.write { db in
                    try db.execute(
                        sql: """
                            INSERT INTO record (gtin, addedAt, addMethod, lookupState, sectionKey, rowKey, updatedAt)
                            VALUES (?, 0, 'typed', ?, '', '', 0)
                            """,
                        arguments: [Fixtures.gtin(2).canonical, state])
                }
            }
        }
        for state in LookupState.allCases {
            try await store.write { db in
                try db.execute(sql: "UPDATE record SET lookupState = ? WHERE id = ?", arguments: [state, record.id])
            }
        }
        #expect(try await store.record(record.id)?.lookupState == LookupState.allCases.last)
    }

    @Test("the migration's list of states is LookupState's: a new state needs a new migration")
    func checkedStatesAreTheKnownOnes() {
        #expect(Schema.checkedLookupStates == LookupState.allCases.map(\.rawValue))
    }

    @Test("the due count is the number of records the claim hands out, at any time")
    func dueCountMatchesClaims() async throws {
        let store = try CollectionStore.inMemory()
        for n in 1...4 { _ = try await store.add(NewRecord(gtin: Fixtures.gtin(n), addedAt: t0, addMethod: .wedge)) }
        // One fails (due again at t0 + 100), one is claimed with a 30 s lease, two wait.
        let failing = try #require(try await store.claimNext(now: t0, lease: 30))
        try await store.complete(failing, with: .failed(message: "HTTP 503", retryAt: t0.addingTimeInterval(100)))
        _ = try #require(try await store.claimNext(now: t0, lease: 30))
        for (at, due) in [(10.0, 2), (31, 3), (101, 4)] {
            let now = t0.addingTimeInterval(at)
            #expect(try await store.dueLookups(now: now) == due, "at t0 + \(at)")
        }
        var claimed = 0
        while try await store.claimNext(now: t0.addingTimeInterval(101), lease: 1_000) != nil { claimed += 1 }
        #expect(claimed == 4)
        #expect(try await store.dueLookups(now: t0.addingTimeInterval(101)) == 0)
    }
}
