import CratesCore
import CratesNet
import CratesStore
import Foundation

/// The wantlist, kept as one with the Discogs wantlist by the same rules as the collection:
///
/// 1. **List** every page of `GET /users/{u}/wants` (100 a page), applying each as it
///    comes: a want only on Discogs is pulled; a want on both sides is merged field by field
///    (notes, rating) against what both held at the last sync (`CopyMerge`), its conflicts
///    named and kept. A listing is read again, up to `listingReadings` times, until it adds
///    up (`CollectionListingTally`).
/// 2. **After a whole listing**, a want the Discogs wantlist held at the last sync and no
///    longer lists was removed there: it is removed here too, unless changed here since
///    (a conflict). After a listing that does not add up, nothing it did not show is
///    removed here, pushed or added there.
/// 3. **Push**, each through the outbox (committed before its request, dropped once
///    answered): the removals made here of wants the listing showed (`DELETE`), the
///    values changed here (`POST`), and wants only in crates (`PUT`). Each of these is
///    idempotent on Discogs: a request sent again after a lost answer doubles nothing.
/// 4. The marketplace figures of the wanted releases not asked today go into the price
///    cache (background priority), so that a check at a fair shows them offline.
extension SyncRun {
    mutating func syncWantlist() async throws {
        var tally = CollectionListingTally(one: "want", many: "wants", whole: "the wantlist")
        var seen: Set<Int> = []
        for _ in 1...DiscogsSync.listingReadings {
            tally = CollectionListingTally(one: "want", many: "wants", whole: "the wantlist")
            var page = 1
            while true {
                let number = page
                let answer = try await send { c, u async throws(DiscogsError) in try await c.wantlistPage(username: u, page: number) }
                let fresh = tally.add(pagination: answer.pagination, ids: answer.wants.map { Int64($0.releaseID) })
                let wants = answer.wants.filter { want in fresh.contains(Int64(want.releaseID)) && !seen.contains(want.releaseID) }
                seen.formUnion(wants.map(\.releaseID))
                try await applyWantPage(wants)
                let last = min(tally.expectedPages ?? number, answer.pagination.pages ?? number)
                if number >= last { break }
                page += 1
            }
            if tally.isComplete { break }
        }
        let complete = tally.isComplete
        if complete {
            let gone = try await store.wantsGone(notIn: seen, apply: !options.dryRun)
            report.wantlist.removedHere = gone.removedHere.map(\.title)
            report.wantlist.removedButChanged = gone.conflicts.map { ($0.releaseID, $0.title) }
            if options.dryRun {
                report.planned += gone.removedHere.map { "would remove from the wantlist (removed on Discogs): r\($0.releaseID) \(SyncReport.clean($0.title))" }
            }
            if let prefer = options.prefer, !options.dryRun {
                // Settled: Discogs' removal taken, or crates' want put back there.
                for want in gone.conflicts {
                    switch prefer {
                    case .discogs: _ = try await store.removeWant(want.releaseID)
                    case .crates: try await store.markWantOffDiscogs(want.releaseID)
                    }
                }
            }
        }
        try await pushWantlist(seen: seen, complete: complete)
        if !options.dryRun { try await store.forgetUnsyncedRemovals() }
        if !complete, let problem = tally.problem {
            report.notices.append(
                "The wantlist's listing did not add up after \(DiscogsSync.listingReadings) readings (\(problem)): wants it did not show were left as they are on both sides.")
        }
        if !options.dryRun { await priceWantlist() }
    }

    /// One page of the wantlist, decided and written (a dry run writes nothing).
    private mutating func applyWantPage(_ wants: [DiscogsWant]) async throws {
        guard !wants.isEmpty else { return }
        let rows = try await store.wantSyncRows(wants.map(\.releaseID))
        var changes = CollectionStore.WantPageChanges()
        for want in wants {
            let listed = want.release(webBase: client.endpoints.web).map {
                WantEntry(release: $0, addedAt: want.addedAt ?? Date())
            }
            guard let row = rows[want.releaseID] else {
                guard options.pull else {
                    report.wantlist.notPulled += 1
                    continue
                }
                let entry = listed ?? WantEntry(releaseID: want.releaseID, artist: "", title: "release \(want.releaseID)", addedAt: want.addedAt ?? Date())
                let values = SyncedValues(rating: want.rating, notes: want.notes)
                changes.pulled.append((entry, values))
                report.wantlist.pulled += 1
                if options.dryRun { report.planned.append("would pull into the wantlist: r\(want.releaseID) \(SyncReport.clean(entry.displayTitle))") }
                continue
            }
            if row.removed {
                // Removed here: planned after the listing (a DELETE).
                changes.seen.append((want.releaseID, row.base, nil, nil))
                continue
            }
            // Notes Discogs did not send (not the owner's view) say nothing: crates' stand.
            let discogs = SyncedValues(rating: want.rating, notes: want.notes ?? row.values.notes)
            let base = row.onDiscogs ? row.base : SyncedValues.empty
            let merge = CopyMerge(base: base, crates: row.values, discogs: discogs, prefer: options.prefer)
            var newBase = merge.newBase
            var taken = row.values
            for field in merge.take {
                guard options.pull else {
                    newBase = newBase.with(field, from: base)
                    continue
                }
                taken = taken.with(field, from: discogs)
                if options.dryRun {
                    report.planned.append("would take from Discogs: r\(want.releaseID) \(SyncReport.clean(row.title)): \(field.label) \(SyncReport.shown(discogs.text(field)))")
                }
            }
            if taken != row.values { report.wantlist.updatedHere.insert(want.releaseID) }
            if options.push, !merge.push.isEmpty {
                wantEdits.append(want.releaseID)
                if options.dryRun {
                    report.wantlist.updatedThere.insert(want.releaseID)
                    for field in merge.push {
                        report.planned.append("would set on Discogs: r\(want.releaseID) \(SyncReport.clean(row.title)): \(field.label) \(SyncReport.shown(row.values.text(field)))")
                    }
                }
            }
            var found: [SyncField: String?] = [:]
            for field in merge.conflicts {
                report.wantlist.conflicts.append((want.releaseID, row.title, field, row.values.text(field), discogs.text(field)))
                found[field] = .some(discogs.text(field))
            }
            changes.conflicts[want.releaseID] = found
            changes.seen.append((want.releaseID, newBase, taken == row.values ? nil : taken, listed))
        }
        if !options.dryRun { try await store.applyWantPage(changes) }
    }

    /// Removals, edits and adds, each through the outbox.
    private mutating func pushWantlist(seen: Set<Int>, complete: Bool) async throws {
        let removals = try await store.wantsToRemove().filter { seen.contains($0.releaseID) }
        let adds = try await store.wantsToAdd()
        guard options.push else {
            report.wantlist.notPushed = adds.count
            return
        }
        if options.dryRun {
            report.planned += removals.map { "would remove from your Discogs wantlist: r\($0.releaseID) \(SyncReport.clean($0.title))" }
            report.wantlist.removedThere = removals.count
            if complete {
                report.planned += adds.map { "would add to your Discogs wantlist: r\($0.releaseID) \(SyncReport.clean($0.title))" }
                report.wantlist.pushed = adds.count
            } else {
                report.wantlist.notAdded = adds.count
            }
            return
        }
        for want in removals {
            let id = try await store.planWantPush(.wantRemove, releaseID: want.releaseID, values: nil)
            try await sendWant(CollectionStore.OutboxEntry(id: id, kind: .wantRemove, recordID: nil, releaseID: want.releaseID, folderID: 0))
        }
        let edits = try await store.wantSyncRows(wantEdits)
        for releaseID in wantEdits {
            guard let want = edits[releaseID], !want.removed else { continue }
            let id = try await store.planWantPush(.wantEdit, releaseID: releaseID, values: want.values)
            try await sendWant(CollectionStore.OutboxEntry(
                id: id, kind: .wantEdit, recordID: nil, releaseID: releaseID, folderID: 0, value: CollectionStore.wantValueText(want.values)))
        }
        guard complete else {
            // A want the listing did not show may be on Discogs already: none is added
            // until a whole listing says it is not.
            report.wantlist.notAdded = adds.count
            return
        }
        for want in adds {
            let id = try await store.planWantPush(.wantAdd, releaseID: want.releaseID, values: want.values)
            try await sendWant(CollectionStore.OutboxEntry(
                id: id, kind: .wantAdd, recordID: nil, releaseID: want.releaseID, folderID: 0, value: CollectionStore.wantValueText(want.values)))
        }
    }

    /// Carries out one wantlist entry of the outbox: marked sent, sent (again after a
    /// transient failure: each request is idempotent), then completed. A release Discogs no
    /// longer has is said and dropped; anything that would fail the rest stops the sync,
    /// the entry kept for the next one.
    mutating func sendWant(_ entry: CollectionStore.OutboxEntry) async throws {
        guard [.wantAdd, .wantEdit, .wantRemove].contains(entry.kind) else { return }
        try await store.markOutbox(entry.id, sent: true)
        let releaseID = entry.releaseID
        let values = entry.wantValues ?? .empty
        let kind = entry.kind
        let refusal: DiscogsError?
        do throws(DiscogsError) {
            try await send { c, u async throws(DiscogsError) in try await Self.wantRequest(kind, c, u, releaseID, values) }
            refusal = nil
        } catch {
            guard Self.refusedAlone(error) else { throw error }
            refusal = error
        }
        if let refusal {
            try await store.dropOutbox(entry.id)
            let what = kind == .wantRemove ? "not removed from your Discogs wantlist" : "not written to your Discogs wantlist"
            report.notices.append("\(what): r\(releaseID): \(refusal)")
            return
        }
        switch kind {
        case .wantRemove:
            try await store.completeWantRemove(entry.id, releaseID: releaseID)
            report.wantlist.removedThere += 1
        case .wantAdd:
            try await store.completeWantPush(entry.id, releaseID: releaseID, sent: values)
            report.wantlist.pushed += 1
        default:
            try await store.completeWantPush(entry.id, releaseID: releaseID, sent: values)
            report.wantlist.updatedThere.insert(releaseID)
        }
    }

    /// One wantlist request: a removal of a want Discogs no longer lists is done already.
    static func wantRequest(
        _ kind: CollectionStore.OutboxEntry.Kind, _ client: DiscogsClient, _ username: String, _ releaseID: Int, _ values: SyncedValues
    ) async throws(DiscogsError) {
        switch kind {
        case .wantRemove:
            do {
                try await client.removeWant(username: username, releaseID: releaseID)
            } catch .notFound {
                return
            }
        case .wantAdd:
            _ = try await client.addWant(username: username, releaseID: releaseID, notes: values.notes, rating: values.rating)
        default:
            _ = try await client.editWant(username: username, releaseID: releaseID, notes: values.notes, rating: values.rating)
        }
    }

    /// The wanted releases' marketplace figures not asked today, at background priority;
    /// a failure is said, and the sync is not failed for it.
    private mutating func priceWantlist() async {
        guard let due = try? await store.wantsToPrice(olderThan: Date().addingTimeInterval(-86_400)), !due.isEmpty else { return }
        let access = DiscogsAccess(client: client, username: username, signedIn: true)
        let outcome = await WantlistPrices(store: store, access: access).refresh(releases: due)
        report.wantlist.priced = outcome.requests
        if outcome.ending != .complete {
            report.notices += outcome.messages.map { "wantlist prices: \($0)" }
        }
    }
}
