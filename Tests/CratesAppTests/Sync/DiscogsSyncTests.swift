import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates sync`'s use case through real libcurl against the loopback server's collection
/// (Tests/DiscogsServer/collection.py), with a real store file.
@Suite("DiscogsSync: pull, push, link, conflicts, crash safety")
struct DiscogsSyncTests {
    typealias R = SyncReleases

    /// crates: two copies of Stockholm and one HammerFall; Discogs: one Stockholm and one
    /// Likemind. The older Stockholm copies are linked, the extra one and HammerFall pushed,
    /// Likemind pulled. Then a second sync lists and writes nothing, on either side.
    @Test("a first sync links one to one, oldest first, and only the extra copies move; a second writes nothing")
    func firstSyncThenIdempotent() async throws {
        let bench = try await SyncBench.start()
        let seeded = try await bench.collection.seed(#"""
            {"instances": [{"release_id": 1, "rating": 5, "date_added": "2019-05-01T10:00:00-07:00"},
                           {"release_id": 10507194, "rating": 2, "notes": [{"field_id": 1, "value": "Mint (M)"}, {"field_id": 3, "value": "from Tokyo"}]}]}
            """#).instance_ids
        let older = try await bench.addCopy(R.stockholm, at: R.day(1))
        let newer = try await bench.addCopy(R.stockholm, at: R.day(2), grading: CopyGrading(media: .veryGoodPlus, rating: try Rating(4)))
        let hammerfall = try await bench.addCopy(R.hammerfall, at: R.day(3), note: "signed")

        let first = try await bench.sync()
        #expect(first.failure == nil, "\(first.lines)")
        #expect((first.pulled, first.pushed, first.linked, first.conflicts.count) == (1, 2, 1, 0))
        #expect(first.summary.hasPrefix("Synced with Discogs (DamIDhagor): 1 pulled, 2 pushed, 1 linked,"))

        // Discogs: one instance per crates copy, the values crates had set on the new ones.
        let instances = try await bench.instances()
        #expect(instances.count == 4)
        #expect(instances.filter { $0.release_id == 1 }.count == 2)
        let pushedStockholm = try #require(instances.first { $0.release_id == 1 && $0.instance_id != seeded[0] })
        #expect(pushedStockholm.rating == 4 && pushedStockholm.note(1) == "Very Good Plus (VG+)")
        #expect(instances.first { $0.release_id == 5_134_861 }?.note(3) == "signed")

        // crates: the older copy is the seeded instance, and took its rating (set only there).
        let olderDetails = try #require(try await bench.store.details(older))
        #expect(olderDetails.discogs?.instanceID == seeded[0])
        #expect(olderDetails.record.grading.rating.value == 5)
        #expect(try await bench.store.details(newer)?.discogs?.instanceID == pushedStockholm.instance_id)
        #expect(try await bench.store.details(hammerfall)?.discogs != nil)
        // The pulled copy: release from basic_information, values from the instance.
        let rows = try await bench.store.sections().flatMap(\.rows)
        #expect(rows.count == 4)
        let pulled = try #require(rows.first { $0.title == "Likemind 05" })
        let pulledDetails = try #require(try await bench.store.details(pulled.recordID))
        #expect(pulledDetails.record.addMethod == .discogs)
        #expect(pulledDetails.record.gtin == nil, "the listing gives no barcode: a record without one")
        #expect(pulledDetails.record.grading == CopyGrading(media: .mint, rating: try Rating(2)))
        #expect(pulledDetails.record.note == "from Tokyo")
        #expect(pulledDetails.discogs?.instanceID == seeded[1] && pulledDetails.discogs?.folderName == "Uncategorized")

        // The second sync: the listing requests only, and nothing changes anywhere.
        let before = try await bench.exported()
        let dumpBefore = try await bench.instances()
        try await bench.server.reset()
        let statsBefore = try await bench.collection.stats()
        let second = try await bench.sync()
        #expect(second.failure == nil)
        #expect((second.pulled, second.pushed, second.linked, second.updated, second.conflicts.count) == (0, 0, 0, 0, 0))
        let stats = try await bench.collection.stats()
        var kinds = stats.requests
        for (kind, count) in statsBefore.requests { kinds[kind, default: 0] -= count }
        #expect(kinds.filter { $0.value > 0 } == ["fields": 1, "folders": 1, "folder_releases": 1])
        #expect(second.requests == 4, "the collection's three, and the wantlist's one page")
        #expect(try await bench.exported() == before)
        #expect(try await bench.instances() == dumpBefore)
        #expect(try await bench.store.outboxCount() == 0)
    }

    @Test("a value changed on one side goes to the other; changed on both, crates' stays, nothing is pushed, and --prefer settles it")
    func conflicts() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 1, "rating": 3}, {"release_id": 10507194}]}"#)
        let stockholm = try await bench.addCopy(R.stockholm, at: R.day(1))
        let likemind = try await bench.addCopy(R.likemind, at: R.day(2))
        #expect(try await bench.sync().linked == 2)
        let instances = try await bench.instances()
        let stockholmKey = try #require(instances.first { $0.release_id == 1 }).key
        let likemindKey = try #require(instances.first { $0.release_id == 10_507_194 }).key

        // Stockholm: rating 4 in crates, 2 on Discogs; Likemind: sleeve only on Discogs, rating only in crates.
        let client = try bench.client()
        _ = try await bench.store.edit(stockholm, RecordEdit(grading: CopyGradingChange(rating: try Rating(4))))
        try await client.editInstance(username: SyncBench.owner, stockholmKey, rating: try Rating(2))
        try await client.setField(username: SyncBench.owner, likemindKey, fieldID: 2, value: "Generic")
        _ = try await bench.store.edit(likemind, RecordEdit(grading: CopyGradingChange(rating: try Rating(1))))
        let edits = try await bench.collection.stats().requests["edit"] ?? 0

        let report = try await bench.sync()
        #expect(report.conflicts == [
            SyncConflict(recordID: stockholm, title: "The Persuader — Stockholm", field: .rating, crates: "4", discogs: "2"),
        ])
        #expect(report.lines.contains(
            "conflict: \(stockholm) The Persuader — Stockholm: rating is \"4\" in crates, \"2\" on Discogs: crates' kept (--prefer discogs or --prefer crates settles it)"))
        #expect(try await bench.store.record(stockholm)?.grading.rating.value == 4)
        #expect(try await bench.store.record(likemind)?.grading == CopyGrading(sleeve: .generic, rating: try Rating(1)))
        let after = try await bench.instances()
        #expect(after.first { $0.release_id == 1 }?.rating == 2, "a conflict is not pushed")
        #expect(after.first { $0.release_id == 10_507_194 }?.rating == 1, "a change made only in crates is")
        #expect(try await bench.collection.stats().requests["edit"] == edits + 1)
        #expect(report.updated == 1)

        // Still a conflict on the next sync; then Discogs' side taken.
        #expect(try await bench.sync().conflicts.count == 1)
        let settled = try await bench.sync(.init(prefer: .discogs))
        #expect(settled.conflicts.isEmpty)
        #expect(try await bench.store.record(stockholm)?.grading.rating.value == 2)
        #expect(try await bench.sync().conflicts.isEmpty)

        // And crates' side pushed.
        _ = try await bench.store.edit(stockholm, RecordEdit(grading: CopyGradingChange(rating: try Rating(5))))
        try await client.editInstance(username: SyncBench.owner, stockholmKey, rating: try Rating(1))
        _ = try await bench.sync(.init(prefer: .crates))
        #expect(try await bench.instances().first { $0.release_id == 1 }?.rating == 5)
        #expect(try await bench.store.record(stockholm)?.grading.rating.value == 5)
    }

    @Test("an instance removed on Discogs is flagged and listed, never deleted, added again only by --restore-removed (not --prefer crates)")
    func removedOnDiscogs() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 1}]}"#)
        _ = try await bench.sync()
        let id = try #require(try await bench.store.sections().flatMap(\.rows).first?.recordID)
        let key = try #require(try await bench.instances().first).key
        try await bench.client().deleteInstance(username: SyncBench.owner, key)

        let report = try await bench.sync()
        #expect(report.removedOnDiscogs == [SyncListedCopy(recordID: id, instanceID: key.instanceID, title: "Persuader, The — Stockholm")])
        #expect(report.newlyRemoved == 1 && report.pushed == 0)
        #expect(report.lines.contains { $0.hasPrefix("removed on Discogs: \(id) Persuader, The — Stockholm: kept here") })
        let details = try #require(try await bench.store.details(id))
        #expect(details.discogs?.removedOnDiscogs == true)
        #expect(try await bench.instances().isEmpty)

        let again = try await bench.sync()
        #expect(again.removedOnDiscogs.count == 1 && again.newlyRemoved == 0 && again.pushed == 0)
        #expect(try await bench.collection.stats().requests["add"] == nil)

        #expect(report.lines.contains { $0.hasSuffix("or `crates sync --restore-removed` adds it again") }, "\(report.lines)")
        // Settling conflicts toward crates is not asking for the copy back.
        let preferred = try await bench.sync(.init(prefer: .crates))
        #expect(preferred.pushed == 0 && preferred.removedOnDiscogs.count == 1, "\(preferred.lines)")
        #expect(try await bench.instances().isEmpty)

        // Asked for: the copy goes back as a new instance.
        let back = try await bench.sync(.init(restoreRemoved: true))
        #expect(back.pushed == 1 && back.removedOnDiscogs.isEmpty)
        #expect(try await bench.instances().count == 1)
        #expect(try await bench.store.details(id)?.discogs?.removedOnDiscogs == false)
    }

    @Test("an add Discogs refuses (a release it does not have): named, a non-zero exit, marked on the copy, not sent again until another release is chosen")
    func refusedAdd() async throws {
        let bench = try await SyncBench.start()
        let gone = Release(id: 987_654_321, artist: "Nobody", title: "Withdrawn", genres: ["Rock"])
        let refused = try await bench.store.add(NewRecord(
            gtin: GTIN(canonical: "5012345678900"), addedAt: SyncReleases.day(1), addMethod: .typed, release: gone)).id
        try await bench.addCopy(SyncReleases.stockholm, at: SyncReleases.day(2))
        let first = try await bench.sync()
        #expect(first.pushed == 1, "\(first.lines)")
        #expect(first.refusedAdds.map(\.recordID) == [refused], "\(first.lines)")
        #expect(first.failure == nil, "\(first.lines)")
        #expect(first.summary.contains("1 refused"), "\(first.summary)")
        #expect(first.lines.contains { $0.hasPrefix("not added to Discogs: \(refused) Nobody — Withdrawn: ") }, "\(first.lines)")
        #expect(try await bench.store.details(refused)?.discogsRefusal?.contains("Release not found") == true)

        // The next sync leaves it alone, and says so without failing again.
        let adds = try await bench.collection.stats().requests["add"]
        let again = try await bench.sync()
        #expect(again.pushed == 0 && again.refusedAdds.isEmpty && again.failure == nil, "\(again.lines)")
        #expect(try await bench.collection.stats().requests["add"] == adds, "not sent again")
        #expect(again.lines.contains { $0.contains("1 copy Discogs refused before is not sent again") }, "\(again.lines)")

        // The collector chooses another release: the copy is sent again.
        try await bench.store.choose(SyncReleases.likemind, for: refused)
        #expect(try await bench.store.details(refused)?.discogsRefusal == nil)
        let chosen = try await bench.sync()
        #expect(chosen.pushed == 1 && chosen.refusedAdds.isEmpty && chosen.failure == nil, "\(chosen.lines)")
    }

    @Test("two instances of one release are two copies, each with its own values")
    func twoInstancesOfOneRelease() async throws {
        let bench = try await SyncBench.start()
        let ids = try await bench.collection.seed(#"""
            {"instances": [{"release_id": 5134861, "rating": 2, "notes": [{"field_id": 1, "value": "Good (G)"}]},
                           {"release_id": 5134861, "rating": 5, "notes": [{"field_id": 1, "value": "Near Mint (NM or M-)"}, {"field_id": 2, "value": "No Cover"}]}]}
            """#).instance_ids
        let report = try await bench.sync()
        #expect(report.pulled == 2)
        let rows = try await bench.store.sections().flatMap(\.rows)
        #expect(rows.count == 2)
        var byInstance: [Int64: CopyGrading] = [:]
        for row in rows {
            let details = try #require(try await bench.store.details(row.recordID))
            byInstance[try #require(details.discogs?.instanceID)] = details.record.grading
            #expect(details.discogsCopies == 2)
        }
        #expect(byInstance[ids[0]] == CopyGrading(media: .good, rating: try Rating(2)))
        #expect(byInstance[ids[1]] == CopyGrading(media: .nearMint, sleeve: .noCover, rating: try Rating(5)))
        #expect(try await bench.store.discogsCopies(ofRelease: 5_134_861) == 2)
        #expect(try await bench.sync().pulled == 0)
    }

    /// What a sync killed between its POST and storing the instance id leaves behind (the
    /// outbox's add marked sent, the instance made on Discogs), made directly: the next sync
    /// finds the instance among the release's instances and links it. One instance, not two.
    /// (`SyncCommandTests` kills the real process at that moment.)
    @Test("an add sent but never stored is reconciled through the release's instances, not sent twice")
    func sentAddIsReconciled() async throws {
        let bench = try await SyncBench.start()
        let id = try await bench.addCopy(R.hammerfall, at: R.day(1), grading: CopyGrading(rating: try Rating(3)))
        try await bench.store.setDiscogsAccount(SyncBench.owner)
        #expect(try await bench.store.planAdds(folderID: 1) == 1)
        let entry = try #require(try await bench.store.outboxEntry(after: 0))
        try await bench.store.markOutbox(entry.id, sent: true)
        let made = try await bench.client().addToCollection(username: SyncBench.owner, releaseID: R.hammerfall.id)

        let resumed = try await bench.sync()
        #expect(resumed.failure == nil && resumed.reconciled == 1 && resumed.pushed == 0, "\(resumed.lines)")
        #expect(resumed.lines.contains("1 add an interrupted sync had sent was found on Discogs and linked (not added twice)."))
        let instances = try await bench.instances()
        #expect(instances.map(\.instance_id) == [made.instanceID])
        #expect(instances[0].rating == 3, "its values are written once linked")
        #expect(try await bench.store.details(id)?.discogs?.instanceID == made.instanceID)
        #expect(try await bench.collection.stats().requests["add"] == 1)
        #expect(try await bench.collection.stats().requests["release_instances"] == 1)
        #expect(try await bench.store.outboxCount() == 0)
    }

    @Test("an add marked sent that Discogs never carried out is sent once")
    func sentAddThatNeverHappened() async throws {
        let bench = try await SyncBench.start()
        _ = try await bench.addCopy(R.hammerfall, at: R.day(1))
        try await bench.store.planAdds(folderID: 1)
        let entry = try #require(try await bench.store.outboxEntry(after: 0))
        try await bench.store.markOutbox(entry.id, sent: true)
        let report = try await bench.sync()
        #expect(report.reconciled == 0 && report.pushed == 1)
        #expect(try await bench.instances().count == 1)
        #expect(try await bench.store.outboxCount() == 0)
    }

    @Test("a copy deleted in crates is reported, and removed on Discogs only with --delete")
    func deletedInCrates() async throws {
        let bench = try await SyncBench.start()
        let id = try await bench.addCopy(R.likemind, at: R.day(1))
        _ = try await bench.sync()
        let instance = try #require(try await bench.instances().first)
        try await bench.store.delete([id])

        let report = try await bench.sync()
        #expect(report.deletedHere == [SyncListedCopy(recordID: nil, instanceID: instance.instance_id, title: "Various — Likemind 05")])
        #expect(report.lines.contains { $0.hasPrefix("deleted in crates, still on Discogs: Various — Likemind 05") })
        #expect(try await bench.instances().count == 1)
        #expect(try await bench.collection.stats().requests["delete"] == nil)

        let removed = try await bench.sync(.init(deleteOnDiscogs: true))
        #expect(removed.removedThere == 1 && removed.deletedHere.isEmpty)
        #expect(try await bench.instances().isEmpty)
        #expect(try await bench.sync().deletedHere.isEmpty)
    }

    @Test("a link whose copy is gone without a recorded deletion is reported and never removed; an undone delete is no deletion")
    func missingIsNoDeletion() async throws {
        let bench = try await SyncBench.start()
        let deletedID = try await bench.addCopy(R.likemind, at: R.day(1))
        let missingID = try await bench.addCopy(R.hammerfall, at: R.day(2))
        _ = try await bench.sync()
        #expect(try await bench.instances().count == 2)
        // Deleted, then undone: the copy is back and its link is no deletion.
        let deleted = try await bench.store.delete([deletedID])
        try await bench.store.restore(deleted)
        #expect(try await bench.store.linksDeletedInCrates().isEmpty)
        // A copy gone without a deletion crates made: the collection restored from an
        // export of an older crates (version 2, no digest) that lost the HammerFall record.
        let file = bench.temporary.directory.file("export.json")
        let export = try ExportFile(path: file)
        try await CollectionExport(store: bench.store, filter: ExportFilter()).writeJSON(to: export)
        try export.commit()
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        var older = lines.filter { !$0.contains("Glory To The Brave") || $0.hasPrefix("{\"crates\"") }
        older[0] = older[0].replacingOccurrences(of: #""version":3"#, with: #""version":2"#)
            .replacingOccurrences(of: #","counts":\{[^}]*\}"#, with: "", options: .regularExpression)
        older.removeLast()
        older[older.count - 1] = "]}"
        if older[older.count - 2].hasSuffix(",") { older[older.count - 2].removeLast() }
        try (older.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let restored = SyncBench(temporary: try TemporaryStore(), server: bench.server)
        let source = try ImportInput.open(path: file)
        let outcome = try await CollectionRestore.run(source: source, prefix: [], store: restored.store)
        source.close()
        #expect(outcome.records == 1 && outcome.linksWithoutRecord == 1)
        #expect(try await restored.store.linksDeletedInCrates().isEmpty)

        let report = try await restored.sync(.init(deleteOnDiscogs: true))
        #expect(report.failure == nil)
        #expect(report.removedThere == 0 && report.deletedHere.isEmpty)
        #expect(report.missingHere.map(\.recordID) == [missingID])
        #expect(report.lines.contains { $0.contains("linked to a record crates does not have and never deleted") })
        #expect(try await bench.instances().count == 2)
        #expect(try await bench.collection.stats().requests["delete"] == nil)
    }

    @Test("--dry-run says what each side would get and writes nothing on either")
    func dryRun() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 1}, {"release_id": 10507194, "rating": 4}]}"#)
        let id = try await bench.addCopy(R.likemind, at: R.day(1))
        _ = try await bench.addCopy(R.hammerfall, at: R.day(2))
        let before = try await bench.exported()
        let report = try await bench.sync(.init(dryRun: true))
        #expect(report.failure == nil)
        #expect((report.pulled, report.pushed, report.linked) == (1, 1, 1))
        #expect(report.summary.hasPrefix("Dry run, nothing written"))
        #expect(report.planned.contains("would pull: Persuader, The — Stockholm (instance 5000000000)"))
        #expect(report.planned.contains("would link: \(id) Various — Likemind 05 with instance 5000000001"))
        #expect(report.planned.contains("would take from Discogs: \(id) Various — Likemind 05: rating \"4\""))
        #expect(report.planned.contains { $0.hasPrefix("would add to Discogs: ") && $0.contains("HammerFall — Glory To The Brave") })
        #expect(try await bench.exported() == before)
        #expect(try await bench.instances().count == 2)
        #expect(try await bench.collection.stats().writes == 0)
        #expect(try await bench.store.discogsAccount() == nil)
    }

    @Test("--pull takes and sends nothing; --push sends and takes nothing")
    func oneDirection() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 1}]}"#)
        _ = try await bench.addCopy(R.likemind, at: R.day(1))
        let pulled = try await bench.sync(.init(push: false))
        #expect((pulled.pulled, pulled.pushed, pulled.notPushed) == (1, 0, 1))
        #expect(try await bench.collection.stats().writes == 0)

        try await bench.collection.seed(#"{"replace": false, "instances": [{"release_id": 5134861}]}"#)
        let pushed = try await bench.sync(.init(pull: false))
        #expect((pushed.pulled, pushed.pushed, pushed.notPulled) == (0, 1, 1))
        #expect(try await bench.store.sections().flatMap(\.rows).count == 2)
    }

    @Test("not signed in, another user's collection, Discogs unreachable: each said as such")
    func failures() async throws {
        let bench = try await SyncBench.start()
        let notSignedIn = await DiscogsSync(store: bench.store, access: try bench.access(signedIn: false)).run(.init())
        #expect(notSignedIn.failure == .notSignedIn && notSignedIn.requests == 0)

        try await bench.collection.seed(#"{"username": "rival", "instances": [{"release_id": 1}]}"#)
        let someoneElse = await DiscogsSync(store: bench.store, access: try bench.access(username: "rival")).run(.init())
        guard case .refused(let refusal) = someoneElse.failure else {
            Issue.record("\(someoneElse.lines)")
            return
        }
        #expect(refusal.contains("another Discogs user"))
        #expect(try await bench.store.discogsAccount() == nil, "an account Discogs refused is not recorded")

        _ = try await bench.sync()
        let otherAccount = await DiscogsSync(store: bench.store, access: try bench.access(username: "someone")).run(.init())
        #expect(otherAccount.failure == .otherAccount(synced: SyncBench.owner, signedIn: "someone"))
        #expect(otherAccount.requests == 0)

        await bench.server.stop()
        let offline = try await bench.sync(retryPauses: [0.1, 0.1])
        guard case .unreachable(let unreachable) = offline.failure else {
            Issue.record("\(offline.lines)")
            return
        }
        #expect(unreachable.hasPrefix("Discogs is unreachable"))
    }

    @Test("--folder by name; an unknown folder is refused before anything is sent")
    func folders() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"folders": [{"id": 7, "name": "Vinyl"}], "instances": []}"#)
        _ = try await bench.addCopy(R.likemind, at: R.day(1))
        let wrong = try await bench.sync(.init(folder: "Tapes"))
        guard case .folder = wrong.failure else {
            Issue.record("\(wrong.lines)")
            return
        }
        #expect(wrong.failure?.description == "your Discogs collection has no folder \"Tapes\": choose one of 1 \"Uncategorized\", 7 \"Vinyl\"")
        #expect(try await bench.collection.stats().writes == 0)
        _ = try await bench.sync(.init(folder: "vinyl"))
        #expect(try await bench.instances().map(\.folder_id) == [7])
        let exported = try await bench.exported()
        #expect(exported.contains(#""discogsCollection":{"folder":"Vinyl","folderID":7,"#))
    }
}

extension CollectionServerControl.DumpedInstance {
    var key: DiscogsInstanceKey { DiscogsInstanceKey(folderID: folder_id, releaseID: release_id, instanceID: instance_id) }
}
