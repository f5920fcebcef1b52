import CratesCore
import CratesStore
import Synchronization

/// Deletes and moves with undo: each keeps what it changed under a token, which `undo` puts
/// back (a delete: the same ids, the same history; a move: each copy where it was). Held
/// for the session; an undo after quitting is not possible, as in any editor.
public final class UndoLedger: Sendable {
    private enum Batch {
        case deleted([DeletedRecord])
        case moved([CatalogueStore.MovedRecord])
    }

    /// What an undo put back.
    public enum Undone: Equatable, Sendable {
        /// Deleted records restored.
        case restored(count: Int)
        /// Moved records back where they were.
        case movedBack(count: Int)
    }

    private let state = Mutex<(next: Int, batches: [Int: Batch])>((1, [:]))
    private let store: CatalogueStore

    public init(store: CatalogueStore) {
        self.store = store
    }

    /// Deletes the records (ids not found are skipped); returns how many went and the token.
    public func delete(_ ids: [Int64]) async throws(StoreError) -> (count: Int, token: Int) {
        let deleted = try await store.delete(ids)
        return (deleted.count, keep(.deleted(deleted)))
    }

    /// Moves the records into a place (nil: out of any); returns how many moved and the token.
    public func move(_ ids: [Int64], to location: Int64?) async throws(StoreError) -> (count: Int, token: Int) {
        let moved = try await store.moveRecords(ids, to: location)
        return (moved.count, keep(.moved(moved)))
    }

    /// Undoes the delete or move `token` named; nil when there is nothing to undo.
    public func undo(_ token: Int) async throws(StoreError) -> Undone? {
        guard let batch = state.withLock({ $0.batches.removeValue(forKey: token) }) else { return nil }
        switch batch {
        case .deleted(let records):
            try await store.restore(records)
            return .restored(count: records.count)
        case .moved(let moves):
            try await store.restoreLocations(moves)
            return .movedBack(count: moves.count)
        }
    }

    private func keep(_ batch: Batch) -> Int {
        state.withLock { state in
            let token = state.next
            state.next += 1
            state.batches[token] = batch
            return token
        }
    }
}
