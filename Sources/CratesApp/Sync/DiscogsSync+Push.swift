import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// crates' side going to Discogs: the adds a killed sync left behind, then the outbox.
extension SyncRun {
    // MARK: Reconcile

    /// Adds a previous sync sent but never saw answered (it was killed, or the answer was
    /// lost): Discogs may have carried them out. Each is looked for among its release's
    /// instances first: an instance crates has not linked is the one the add made, and is
    /// linked to the copy; none means the add never happened, and it is planned again.
    mutating func reconcile() async throws {
        for entry in try await store.outboxAddsSent() {
            let releaseID = entry.releaseID
            let instances = try await send { c, u async throws(DiscogsError) in try await c.collectionInstances(username: u, releaseID: releaseID) }
            let linked = try await store.linkedInstances(instances.map(\.instanceID)).union(reconciledInDryRun)
            let found = Self.instanceAdded(by: entry, among: instances, linked: linked)
            if options.dryRun {
                if let found {
                    reconciledInDryRun.insert(found.instanceID)
                    report.reconciled += 1
                }
                continue
            }
            if let found, let recordID = entry.recordID {
                try await store.completeAdd(entry.id, recordID: recordID, key: found.key)
                report.reconciled += 1
            } else {
                try await store.markOutbox(entry.id, sent: false)
            }
        }
    }

    /// The instance an add made, if Discogs carried it out: the newest instance of its
    /// release that no copy is linked to, in the folder the add named if there is one there
    /// (the add is the latest instance of its release).
    static func instanceAdded(
        by entry: CollectionStore.OutboxEntry, among instances: [DiscogsCollectionInstance], linked: Set<Int64>
    ) -> DiscogsCollectionInstance? {
        let unlinked = instances.filter { !linked.contains($0.instanceID) }
            .sorted { $0.instanceID > $1.instanceID }
        return unlinked.first { $0.folderID == entry.folderID } ?? unlinked.first
    }

    // MARK: Push

    /// Plans the adds (and, from the pages, the field writes are planned already), then
    /// carries the outbox out.
    mutating func push(to folderID: Int) async throws {
        guard options.push else {
            report.notPushed = try await store.copiesToAdd(limit: 0).count
            return
        }
        // A copy on no instance the listing showed may be on one it did not: after a
        // listing that did not add up, no copy is added (the next whole listing links it).
        if listingProblem != nil {
            report.notAdded = try await store.copiesToAdd(limit: 0, excluding: claimed).count
        } else if options.dryRun {
            let (count, first) = try await store.copiesToAdd(limit: 1_000_000, excluding: claimed)
            report.pushed += count
            report.planned += first.map { "would add to Discogs: \($0.recordID) \(SyncReport.clean($0.title)) (folder \(folderID))" }
        } else {
            try await store.planAdds(folderID: folderID)
        }
        if !options.dryRun { try await drainOutbox() }
    }

    /// Carries out the outbox in the order planned (only the entries `only` names, when
    /// given), each entry committed as sent before its request and deleted once answered.
    /// Stops at the first failure that would fail the rest too (refused credentials, Discogs
    /// unreachable); an entry Discogs refuses alone (a release it no longer has, a value it
    /// does not take) is dropped and reported.
    mutating func drainOutbox(only: Set<Int64>? = nil) async throws {
        let total = if let only { only.count } else { try await store.outboxCount() }
        var done = 0
        var after: Int64 = 0
        sync.progress(.pushing(done: 0, total: total))
        while let entry = try await store.outboxEntry(after: after) {
            after = entry.id
            if let only, !only.contains(entry.id) { continue }
            switch entry.kind {
            case .add: try await add(entry)
            case .update: try await update(entry)
            case .remove: try await remove(entry)
            case .wantAdd, .wantEdit, .wantRemove: try await sendWant(entry)
            }
            done += 1
            sync.progress(.pushing(done: min(done, total), total: total))
        }
    }

    /// `POST …/folders/{folder}/releases/{release}`, then the copy's values on the new
    /// instance.
    private mutating func add(_ entry: CollectionStore.OutboxEntry) async throws {
        guard let recordID = entry.recordID, let copy = try await store.syncCopy(recordID) else {
            try await store.dropOutbox(entry.id)  // deleted meanwhile: nothing to add
            return
        }
        try await store.markOutbox(entry.id, sent: true)
        let key: DiscogsInstanceKey
        do {
            key = try await sendAdd(entry)
        } catch let error as DiscogsError {
            if Self.refusedAlone(error) {
                // Discogs answered no: the add surely did not happen.
                try await store.dropOutbox(entry.id)
                report.notices.append("not added to Discogs: \(recordID) \(copy.title): \(error)")
                return
            }
            // No answer, or one that does not read: it may have happened. The entry stays
            // marked sent, and the next sync reconciles it before anything else.
            throw error
        }
        try await store.completeAdd(entry.id, recordID: recordID, key: key)
        report.pushed += 1
        // A new instance holds nothing: what the copy has set goes to it.
        let merge = CopyMerge(base: .empty, crates: copy.values, discogs: .empty)
        for field in merge.push {
            let value = copy.values.text(field)
            if try await write(field, value: value, to: key, recordID: recordID, title: copy.title) {
                try await store.completeUpdate(nil, instanceID: key.instanceID, field: field, value: value)
            }
        }
    }

    /// The add's request, sent again after a transient failure; but an add is not
    /// idempotent (each one makes another instance), and a failure may have come after
    /// Discogs carried it out (a lost answer, a timeout): before sending it again, its
    /// release's instances are read, and an instance no copy is linked to is the add's.
    /// (One sync writes at a time, so the instances linked before the first request are
    /// the ones linked until the add is done.)
    private mutating func sendAdd(_ entry: CollectionStore.OutboxEntry) async throws -> DiscogsInstanceKey {
        let attempt = AddAttempt()
        let linked = try await store.linkedInstances(ofRelease: entry.releaseID)
        return try await send { client, username async throws(DiscogsError) -> DiscogsInstanceKey in
            if attempt.sentBefore() {
                let instances = try await client.collectionInstances(username: username, releaseID: entry.releaseID)
                if let found = Self.instanceAdded(by: entry, among: instances, linked: linked) { return found.key }
            }
            let added = try await client.addToCollection(username: username, releaseID: entry.releaseID, folderID: entry.folderID)
            return DiscogsInstanceKey(folderID: entry.folderID, releaseID: entry.releaseID, instanceID: added.instanceID)
        }
    }

    /// One field written to a linked instance.
    private mutating func update(_ entry: CollectionStore.OutboxEntry) async throws {
        guard let key = entry.key, let field = entry.field, let recordID = entry.recordID else {
            try await store.dropOutbox(entry.id)
            return
        }
        let title = try await store.syncCopy(recordID)?.title ?? "record \(recordID)"
        do {
            if try await write(field, value: entry.value, to: key, recordID: recordID, title: title) {
                try await store.completeUpdate(entry.id, instanceID: key.instanceID, field: field, value: entry.value)
                report.updatedThere.insert(recordID)
            } else {
                try await store.dropOutbox(entry.id)
            }
        } catch let error as DiscogsError where Self.refusedAlone(error) {
            try await store.dropOutbox(entry.id)
            report.notices.append("not written to Discogs: \(recordID) \(title): \(field.label): \(error)")
        }
    }

    /// `DELETE` of an instance whose copy was deleted in crates.
    private mutating func remove(_ entry: CollectionStore.OutboxEntry) async throws {
        guard let key = entry.key else {
            try await store.dropOutbox(entry.id)
            return
        }
        do {
            try await send { c, u async throws(DiscogsError) in try await c.deleteInstance(username: u, key) }
        } catch .notFound {
            // Gone already: what was wanted.
        } catch {
            if Self.refusedAlone(error) {
                try await store.dropOutbox(entry.id)
                report.notices.append("not removed from Discogs: instance \(key.instanceID): \(error)")
                return
            }
            throw error
        }
        try await store.completeRemove(entry.id, instanceID: key.instanceID)
        report.removedThere += 1
    }

    /// Writes one value to an instance: the rating through the instance's edit call, the
    /// conditions and notes through the user's custom fields (found by name). False, with a
    /// notice, when Discogs cannot hold it: no such field, a value its options lack, or a
    /// condition to clear (Discogs' API has no call that empties a dropdown).
    private mutating func write(
        _ field: SyncField, value: String?, to key: DiscogsInstanceKey, recordID: Int64, title: String
    ) async throws(DiscogsError) -> Bool {
        let target: DiscogsCollectionField?
        switch field {
        case .rating:
            let rating = Rating(clamping: Int(value ?? "0") ?? 0)
            try await send { c, u async throws(DiscogsError) in try await c.editInstance(username: u, key, rating: rating) }
            return true
        case .media: target = fields.media
        case .sleeve: target = fields.sleeve
        case .notes: target = fields.notes
        }
        let name = SyncReport.clean(title)
        guard let target else {
            report.notices.append("not written to Discogs: \(recordID) \(name): your collection has no \"\(Self.fieldName(field))\" field")
            return false
        }
        guard let value else {
            guard target.kind != .dropdown else {
                report.notices.append(
                    "not written to Discogs: \(recordID) \(name): Discogs cannot clear a \(field.label) through its API: clear it on the Discogs site")
                return false
            }
            let fieldID = target.id
            let cleared = DiscogsCollectionField.clearedText
            try await send { c, u async throws(DiscogsError) in try await c.setField(username: u, key, fieldID: fieldID, value: cleared) }
            return true
        }
        guard target.accepts(value) else {
            report.notices.append("not written to Discogs: \(recordID) \(name): \(DiscogsFieldValueError(field: target, value: value))")
            return false
        }
        let fieldID = target.id
        try await send { c, u async throws(DiscogsError) in try await c.setField(username: u, key, fieldID: fieldID, value: value) }
        return true
    }

    static func fieldName(_ field: SyncField) -> String {
        switch field {
        case .rating: "Rating"
        case .media: DiscogsCollectionFieldMap.mediaName
        case .sleeve: DiscogsCollectionFieldMap.sleeveName
        case .notes: DiscogsCollectionFieldMap.notesName
        }
    }

    /// Discogs answered, and refused this request alone (a release it no longer has, a
    /// value it does not take): the others may go on.
    static func refusedAlone(_ error: DiscogsError) -> Bool {
        switch error {
        case .notFound, .unprocessable: true
        case .http(let status, _): (400..<500).contains(status)
        default: false
        }
    }
}

/// Whether an add's request has gone once already in this run: its answer may have been
/// lost after Discogs carried it out.
private final class AddAttempt: Sendable {
    private let sent = Mutex(false)

    /// True from the second call on.
    func sentBefore() -> Bool {
        sent.withLock { sent in
            defer { sent = true }
            return sent
        }
    }
}
