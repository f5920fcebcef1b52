import CratesCore
import CratesStore
import Synchronization

/// Deletes, moves and edits with undo: each keeps what it changed under a token, which
/// `undo` puts back (a delete: the same ids, the same history; a move: each copy where it
/// was; an edit: the values, note and grades as they were). Every token stays good for the
/// session, so a UI can undo them last first, as a stack; an undo after quitting is not
/// possible, as in any editor.
public final class UndoLedger: Sendable {
    private enum Batch {
        case deleted([DeletedRecord])
        case moved([CollectionStore.MovedRecord])
        case edited(recordID: Int64, inverse: RecordEdit)
        /// One edit of many records (the UI's tagged ones): each record's own inverse.
        case editedMany([(recordID: Int64, edit: RecordEdit)])
    }

    /// What an undo put back.
    public enum Undone: Equatable, Sendable {
        /// Deleted records restored.
        case restored(count: Int)
        /// Moved records back where they were.
        case movedBack(count: Int)
        /// An edit put back: the record as it is now.
        case edited(CollectionRecord)
        /// The edit of many records put back: how many.
        case editedBack(count: Int)
    }

    private let state = Mutex<(next: Int, batches: [Int: Batch])>((1, [:]))
    private let store: CollectionStore

    public init(store: CollectionStore) {
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

    /// Applies `edit` to the record; returns the record as edited and the token (nil when the
    /// edit changes nothing, so there is nothing to undo).
    public func edit(_ id: Int64, _ edit: RecordEdit) async throws(StoreError) -> (record: CollectionRecord, token: Int?) {
        guard let before = try await store.record(id) else { throw StoreError.recordNotFound(id) }
        let record = try await store.edit(id, edit)
        return (record, edit.isEmpty ? nil : keep(.edited(recordID: id, inverse: edit.inverse(of: before))))
    }

    /// Applies `edit` to every record of `ids` in one transaction (ids not found are
    /// skipped); returns how many were edited and the token that puts each back as it was
    /// (nil when nothing was edited).
    public func edit(_ ids: [Int64], _ edit: RecordEdit) async throws(StoreError) -> (count: Int, token: Int?) {
        let before = try await store.edit(ids.map { (recordID: $0, edit: edit) })
        guard !before.isEmpty, !edit.isEmpty else { return (before.count, nil) }
        return (before.count, keep(.editedMany(before.map { (recordID: $0.id, edit: edit.inverse(of: $0)) })))
    }

    /// Undoes the delete, move or edit `token` named; nil when there is nothing to undo.
    public func undo(_ token: Int) async throws(StoreError) -> Undone? {
        guard let batch = state.withLock({ $0.batches.removeValue(forKey: token) }) else { return nil }
        switch batch {
        case .deleted(let records):
            try await store.restore(records)
            return .restored(count: records.count)
        case .moved(let moves):
            try await store.restoreLocations(moves)
            return .movedBack(count: moves.count)
        case .edited(let id, let inverse):
            return .edited(try await store.edit(id, inverse))
        case .editedMany(let inverses):
            return .editedBack(count: try await store.edit(inverses).count)
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
