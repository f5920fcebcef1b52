import CratesApp
import CratesCore
import CratesStore
import CratesTestSupport
import Testing

@Suite("UndoLedger: delete and undo")
struct UndoLedgerTests {
    @Test("undo puts back the same records with their ids and history; a second undo does nothing")
    func undo() async throws {
        let temporary = try TemporaryStore()
        let store = temporary.store
        let a = try await store.add(NewRecord(gtin: Fixtures.gtin("5099750442227"), addMethod: .typed))
        let b = try await store.add(NewRecord(gtin: Fixtures.gtin("0077774620024"), addMethod: .wedge))
        try await store.retry([a.id])
        let ledger = UndoLedger(store: store)
        let (count, token) = try await ledger.delete([a.id, b.id, 999])
        #expect(count == 2)
        #expect(try await store.record(a.id) == nil)
        #expect(try await ledger.undo(token) == .restored(count: 2))
        #expect(try await store.record(b.id)?.addMethod == .wedge)
        #expect(try await store.details(a.id)?.history.count == 1, "the history comes back too")
        #expect(try await ledger.undo(token) == nil)
        #expect(try await store.sections().flatMap(\.rows).count == 2)
    }
}
