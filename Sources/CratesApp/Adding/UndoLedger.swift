import CratesCore
import CratesStore
import Synchronization

/// Deletes with undo: each delete keeps what it removed under a token, which `undo` puts
/// back (same ids, same history). Held for the session; an undo after quitting is not
/// possible, as in any editor.
public final class UndoLedger: Sendable {
    private let state = Mutex<(next: Int, batches: [Int: [DeletedRecord]])>((1, [:]))
    private let store: CatalogueStore

    public init(store: CatalogueStore) {
        self.store = store
    }

    /// Deletes the records (ids not found are skipped); returns how many went and the token.
    public func delete(_ ids: [Int64]) async throws(StoreError) -> (count: Int, token: Int) {
        let deleted = try await store.delete(ids)
        let token = state.withLock { state in
            let token = state.next
            state.next += 1
            state.batches[token] = deleted
            return token
        }
        return (deleted.count, token)
    }

    /// Puts back the records of the delete `token` named; nil when there is nothing to undo.
    public func undo(_ token: Int) async throws(StoreError) -> Int? {
        guard let batch = state.withLock({ $0.batches.removeValue(forKey: token) }) else { return nil }
        try await store.restore(batch)
        return batch.count
    }
}
