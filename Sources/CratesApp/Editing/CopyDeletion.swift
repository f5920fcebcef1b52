import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates delete ID...`: copies taken out of the collection (a record added by mistake at a
/// fair), and, when the copy was synced with the Discogs collection, its instance removed
/// there too when the person says so, as the collection UI offers after a sync.
///
/// The deletion is the store's (`CollectionStore.delete`): its triggers record it for the
/// sync (`discogsCopy.deletedAt`), so that a later `crates sync` reports it, or removes it on
/// Discogs with `--delete`, whichever way the copy left.
public struct CopyDeletion: Sendable {
    /// A copy about to be deleted, as the question names it.
    public struct Target: Hashable, Sendable {
        public var id: Int64
        /// "12 Pink Floyd — The Dark Side Of The Moon (Room › Shelf, VG+/VG)".
        public var description: String
    }

    /// What a deletion did.
    public struct Outcome: Hashable, Sendable {
        public var deleted: [Int64] = []
        /// Ids given that name no copy.
        public var missing: [Int64] = []
        /// The Discogs instances of the copies deleted (synced before): still on Discogs.
        public var onDiscogs: [Int64] = []
    }

    public let store: CollectionStore

    public init(store: CollectionStore) {
        self.store = store
    }

    /// The copies `ids` name, described for the question, and the ids that name none.
    public func targets(_ ids: [Int64]) async throws(StoreError) -> (found: [Target], missing: [Int64]) {
        var found: [Target] = []
        var missing: [Int64] = []
        for id in ids where !found.contains(where: { $0.id == id }) {
            guard let details = try await store.details(id) else {
                if !missing.contains(id) { missing.append(id) }
                continue
            }
            var facts: [String] = []
            if let place = details.record.location { facts.append(place.pathText) }
            let grades = details.record.grading.summary
            if !grades.isEmpty { facts.append(grades) }
            let extra = facts.isEmpty ? "" : " (\(facts.joined(separator: ", ")))"
            found.append(Target(id: id, description: "\(id) \(ControlCharacters.cleaned(details.displayTitle))\(extra)"))
        }
        return (found, missing)
    }

    /// Deletes the copies; says which were on the Discogs collection (linked by a sync).
    public func delete(_ ids: [Int64]) async throws(StoreError) -> Outcome {
        var outcome = Outcome()
        let deleted = try await store.delete(ids).map(\.record.id)
        outcome.deleted = deleted
        outcome.missing = ids.filter { !deleted.contains($0) }
        let gone = Set(deleted)
        outcome.onDiscogs = try await store.linksDeletedInCrates().filter { gone.contains($0.recordID) }.map(\.instanceID)
        return outcome
    }

    /// Removes these instances from the Discogs collection (the copies deleted here), as
    /// the collection UI's "remove them there too" does: through the sync's outbox, one
    /// writing sync at a time.
    public func removeFromDiscogs(_ instanceIDs: [Int64], access: DiscogsAccess) async -> SyncReport {
        await DiscogsSync(store: store, access: access).removeFromDiscogs(instanceIDs: instanceIDs)
    }
}
