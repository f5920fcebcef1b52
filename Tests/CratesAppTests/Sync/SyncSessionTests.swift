import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The collection UI's session: `S`, the question after it, the grade pickers' requests, and
/// what a scan says when Discogs has the release already.
@Suite("CollectionSession: sync and grading")
struct SyncSessionTests {
    @Test("S syncs with progress events; a scan of a release on Discogs says how many copies; a deleted copy is asked about")
    func syncAndScan() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 5134861, "rating": 3}, {"release_id": 5134861}]}"#)
        let log = EventLog()
        let session = CollectionSession(store: bench.store, discogs: try bench.access(), lookups: true, scanner: nil, post: log.post)
        try await running(session) {

            session.perform(.sync)
            _ = try await log.first("the listing's progress") { if case .sync(.reading(let done, _)) = $0, done == 2 { true } else { nil } }
            // The first sync with the account: its plan is asked about first.
            _ = try await log.first("the plan") { if case .syncPlan(let plan) = $0 { plan } else { nil } }
            session.perform(.syncAsPlanned)
            let summary = try await log.first("the summary") { event -> String? in
                if case .message(let text, false) = event, text.hasPrefix("Synced with Discogs") { return text }
                return nil
            }
            #expect(summary.hasPrefix("Synced with Discogs (DamIDhagor): 2 pulled, 0 pushed, 0 linked,"))

            // The sleeve's barcode (7 27361 62652 5), looked up by the session's worker.
            session.perform(.add(.barcode(Fixtures.gtin("727361626525")), method: .wedge))
            let said = try await log.first("what the match says") { event -> String? in
                if case .message(let text, false) = event, text.contains("on Discogs") { return text }
                return nil
            }
            #expect(said == "HammerFall — Glory To The Brave: on Discogs: 2 copies")

            // A pulled copy deleted here: the next sync asks whether to remove it there too.
            let ids = try await bench.pulledIDs()
            session.perform(.delete([ids[0]]))
            _ = try await log.first("deleted") { if case .deleted = $0 { true } else { nil } }
            session.perform(.sync)
            let question = try await log.first("the question") { if case .syncQuestion(let q) = $0 { q } else { nil } }
            #expect(question.text == "1 copy deleted here is still on Discogs: remove it there too?")
            session.perform(question.yes)
            _ = try await log.first("removed there") { event -> Bool? in
                if case .message(let text, false) = event, text.contains("1 removed from Discogs") { return true }
                return nil
            }
            // The scanned copy is a third copy: it went to Discogs; the deleted one left it.
            #expect(try await bench.instances().count == 2)
        }
    }

    @Test("the first S plans without writing on either side and asks; the yes runs it, with the time left; a later S runs at once")
    func firstSyncPlan() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 5134861, "rating": 3}]}"#)
        try await bench.addCopy(SyncReleases.stockholm, at: SyncReleases.day(1))
        try await bench.addCopy(SyncReleases.likemind, at: SyncReleases.day(2))
        let before = try await bench.exported()
        let log = EventLog()
        let session = CollectionSession(store: bench.store, discogs: try bench.access(), lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.sync)
            let plan = try await log.first("the plan") { if case .syncPlan(let plan) = $0 { plan } else { nil } }
            #expect(plan == SyncPlan(push: 2, folder: "Uncategorized", pull: 1, conflicts: 0))
            #expect(plan.question == "First sync: push 2 copies to Uncategorized, pull 1, 0 conflicts: go?")
            // Nothing written before the yes: no request that writes reached Discogs, and the
            // collection is as it was (no copy pulled, no account or link recorded).
            let stats = try await bench.collection.stats()
            #expect(stats.writes == 0, "\(stats.requests)")
            #expect(try await bench.instances().count == 1)
            #expect(try await bench.exported() == before)
            #expect(try await bench.store.discogsAccount() == nil)
            #expect(log.count { if case .message(let text, _) = $0 { text.hasPrefix("Sync") || text.hasPrefix("Dry run") } else { false } } == 0,
                    "no summary: nothing was synced")

            session.perform(.syncAsPlanned)
            let summary = try await log.first("the summary") { event -> String? in
                if case .message(let text, false) = event, text.hasPrefix("Synced with Discogs") { return text }
                return nil
            }
            #expect(summary.hasPrefix("Synced with Discogs (DamIDhagor): 1 pulled, 2 pushed,"), "\(summary)")
            #expect(try await bench.instances().count == 3)
            #expect(log.count { if case .syncTimeLeft = $0 { true } else { false } } > 0, "the pushes' time left was worked out")
            #expect(try await bench.store.discogsSyncCompleted())

            // A sync has ended whole: the next S syncs at once.
            session.perform(.sync)
            _ = try await log.first("the second summary") { event -> Bool? in
                if case .message(let text, false) = event, text.hasPrefix("Synced with Discogs (DamIDhagor): 0 pulled, 0 pushed") { return true }
                return nil
            }
            #expect(log.count { if case .syncPlan = $0 { true } else { false } } == 1)
        }
    }

    @Test("the removal after S adds to the sync's summary (its conflict stays); the conflicts are listed and settled through the session")
    func removalKeepsTheConflict() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 1, "rating": 3}, {"release_id": 5134861}]}"#)
        let stockholm = try await bench.addCopy(SyncReleases.stockholm, at: SyncReleases.day(1))
        #expect(try await bench.sync().linked == 1)
        // A conflict on Stockholm's rating, and the pulled copy deleted here.
        _ = try await bench.store.edit(stockholm, RecordEdit(grading: CopyGradingChange(rating: try Rating(4))))
        let key = try #require(try await bench.instances().first { $0.release_id == 1 }).key
        try await bench.client().editInstance(username: SyncBench.owner, key, rating: try Rating(2))
        _ = try await bench.store.delete(try await bench.pulledIDs())

        let log = EventLog()
        let session = CollectionSession(store: bench.store, discogs: try bench.access(), lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.sync)
            let summary = try await log.first("the summary") { event -> String? in
                if case .message(let text, false) = event, text.hasPrefix("Synced with Discogs") { return text }
                return nil
            }
            #expect(summary.contains("1 conflict,") && summary.contains("C shows the conflict"), "\(summary)")
            let question = try await log.first("the question") { if case .syncQuestion(let q) = $0 { q } else { nil } }
            session.perform(question.yes)
            let after = try await log.first("the summary after the removal") { event -> String? in
                if case .message(let text, false) = event, text.contains("removed from Discogs") { return text }
                return nil
            }
            #expect(after.contains("1 conflict,") && after.contains("1 removed from Discogs") && after.contains("C shows the conflict"), "\(after)")

            session.perform(.loadSyncConflicts)
            let listed = try await log.first("the conflicts") { if case .syncConflicts(let c) = $0 { c } else { nil } }
            #expect(listed.map(\.recordID) == [stockholm] && listed.first?.fields.first?.discogs == "2")
            session.perform(.settleConflicts(recordIDs: [stockholm], toward: .crates))
            let said = try await log.first("the choice's message") { event -> String? in
                if case .message(let text, false) = event, text.hasPrefix("Sent crates'") { return text }
                return nil
            }
            #expect(said == "Sent crates' values to Discogs: The Persuader — Stockholm (rating ★★★★).")
            _ = try await log.first("none left") { if case .syncConflicts(let c) = $0, c.isEmpty { true } else { nil } }
            #expect(try await bench.instances().first { $0.release_id == 1 }?.rating == 4)
        }
    }

    @Test("a grade from the picker is stored, and the details come back with it")
    func grade() async throws {
        let bench = try await SyncBench.start()
        let id = try await bench.addCopy(SyncReleases.likemind, at: SyncReleases.day(1))
        let log = EventLog()
        let session = CollectionSession(store: bench.store, discogs: nil, lookups: false, scanner: nil, post: log.post)
        try await running(session) {
            session.perform(.grade(recordID: id, CopyGradingChange(sleeve: .set(.noCover))))
            let details = try await log.first("details with the grade") { event -> RecordDetails? in
                if case .details(let d) = event, d.record.grading.sleeve == .noCover { return d }
                return nil
            }
            #expect(details.record.id == id)
            // An edit that can be undone: the message comes with its undo token.
            _ = try await log.first("the message") { if case .edited("Sleeve: No Cover", _) = $0 { true } else { nil } }
            session.perform(.sync)
            _ = try await log.first("sync needs Discogs") { event -> Bool? in
                if case .notSignedIn(let need) = event, need == "Sync needs Discogs" { return true }
                return nil
            }
        }
    }
}

extension SyncBench {
    /// The copies pulled from Discogs, oldest first.
    func pulledIDs() async throws -> [Int64] {
        var ids: [Int64] = []
        for row in try await store.sections().flatMap(\.rows) where try await store.record(row.recordID)?.addMethod == .discogs {
            ids.append(row.recordID)
        }
        return ids.sorted()
    }
}
