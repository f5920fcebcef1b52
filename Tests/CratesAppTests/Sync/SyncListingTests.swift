import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A sync against a listing that goes wrong (the loopback server's listing quirks: an empty
/// page, a page count that shrinks, a copy removed between two pages) and against requests
/// that fail: it never adds a copy twice, never flags one that is still there, and gets past
/// the faults that pass.
@Suite("DiscogsSync: listings that do not add up, faults within the run")
struct SyncListingTests {
    /// 250 instances of releases 1000…1249, one minute apart (three pages of 100), synced
    /// once: 250 linked copies. Returns the instance ids, oldest first.
    static func linkedCollection(_ bench: SyncBench, count: Int = 250) async throws -> [Int64] {
        let instances = (0..<count).map { #"{"release_id": \#(1000 + $0)}"# }.joined(separator: ", ")
        let ids = try await bench.collection.seed(#"{"instances": [\#(instances)]}"#).instance_ids
        let first = try await bench.sync()
        #expect(first.failure == nil && first.pulled == count, "\(first.lines)")
        return ids
    }

    /// Instances per release on Discogs: more than one is a copy added twice.
    static func doubled(_ bench: SyncBench) async throws -> [Int: Int] {
        Dictionary(grouping: try await bench.instances(), by: \.release_id).mapValues(\.count).filter { $0.value > 1 }
    }

    static func flaggedRemoved(_ bench: SyncBench) async throws -> Int {
        try await bench.store.linksRemovedOnDiscogs().count
    }

    @Test("a copy removed on Discogs between two pages: the listing is read again, only that copy is found removed, none is added twice")
    func copyRemovedWhileListing() async throws {
        let bench = try await SyncBench.start()
        let ids = try await Self.linkedCollection(bench)
        // Removed once page 1 has been answered: page 2 shifts, and the copy that was first
        // on it (the 101st) is on no page of this reading.
        try await bench.collection.listing(.drop(instance: ids[10]), page: 1)
        let report = try await bench.sync(.init(restoreRemoved: true))
        #expect(report.failure == nil, "\(report.lines)")
        #expect(report.pushed == 1, "only the copy really removed goes back (--restore-removed): \(report.lines)")
        #expect(report.notices.contains { $0.hasPrefix("The listing did not add up at first") }, "\(report.notices)")
        #expect(try await Self.doubled(bench).isEmpty)
        #expect(try await bench.instances().count == 250)
        #expect(try await bench.collection.stats().requests["folder_releases"] == 3 + 3 + 3)
    }

    @Test("an empty page once: read again, nothing flagged or added; empty every time: nothing changed on either side, exit 4")
    func emptyPage() async throws {
        let bench = try await SyncBench.start()
        _ = try await Self.linkedCollection(bench)
        let writesBefore = try await bench.collection.stats().writes

        try await bench.collection.listing(.empty, page: 2)
        let once = try await bench.sync(.init(restoreRemoved: true))
        #expect(once.failure == nil, "\(once.lines)")
        #expect((once.pushed, once.newlyRemoved, once.removedOnDiscogs.count) == (0, 0, 0))
        #expect(try await Self.flaggedRemoved(bench) == 0)

        // A copy only in crates: on no instance the listing shows, but it might be on one it
        // does not show, so it is not added while the listing does not add up.
        let stockholm = try await bench.addCopy(SyncReleases.stockholm, at: SyncReleases.day(1))
        try await bench.collection.listing(.empty, page: 2, count: DiscogsSync.listingReadings)
        let always = try await bench.sync(.init(restoreRemoved: true))
        #expect(always.failure == .incompleteListing("page 2 of 3 came back empty", readings: DiscogsSync.listingReadings), "\(always.lines)")
        #expect(always.failure?.description.contains("none was added to Discogs, so that none is added twice") == true)
        #expect((always.pushed, always.newlyRemoved, always.notAdded) == (0, 0, 1))
        #expect(always.lines.contains("1 copy only in crates not added to Discogs: the listing did not add up, and such a copy may be one it did not show."))
        #expect(try await Self.flaggedRemoved(bench) == 0)
        #expect(try await bench.collection.stats().writes == writesBefore)
        #expect(try await bench.instances().count == 250)

        // Once the listing adds up, the copy goes, once.
        let whole = try await bench.sync()
        #expect(whole.failure == nil && whole.pushed == 1, "\(whole.lines)")
        #expect(try await bench.store.details(stockholm)?.discogs != nil)
        #expect(try await Self.doubled(bench).isEmpty)
    }

    @Test("a page count that shrinks mid-listing: read again, no copy flagged removed")
    func shrinkingPageCount() async throws {
        let bench = try await SyncBench.start()
        _ = try await Self.linkedCollection(bench)
        try await bench.collection.listing(.shrink, page: 2)
        let report = try await bench.sync()
        #expect(report.failure == nil, "\(report.lines)")
        #expect(report.removedOnDiscogs.isEmpty && report.newlyRemoved == 0, "\(report.lines)")
        #expect(try await Self.flaggedRemoved(bench) == 0)
    }

    @Test("a first sync whose listing never adds up adds no copy Discogs may already have")
    func firstSyncIncomplete() async throws {
        let bench = try await SyncBench.start()
        // Discogs: Stockholm first, then 100 others; crates: one Stockholm, not linked yet.
        let others = (0..<100).map { #"{"release_id": \#(2000 + $0)}"# }.joined(separator: ", ")
        try await bench.collection.seed(#"{"instances": [{"release_id": 1}, \#(others)]}"#)
        try await bench.addCopy(SyncReleases.stockholm, at: SyncReleases.day(1))
        try await bench.collection.listing(.empty, page: 1, count: 100)
        let report = try await bench.sync(.init(pull: false))
        #expect(Self.mayPass(report.failure), "\(report.lines)")
        #expect(report.pushed == 0 && report.notAdded == 1)
        #expect(try await bench.collection.stats().writes == 0)
        #expect(try await Self.doubled(bench).isEmpty)
    }

    @Test("a 5xx page, a stalled page, an answer cut short and a lost add's answer: the sync gets past each, adds once, resumes the listing")
    func faultsWithinTheRun() async throws {
        let bench = try await SyncBench.start(["--stall", "30"])
        let others = (0..<150).map { #"{"release_id": \#(3000 + $0)}"# }.joined(separator: ", ")
        try await bench.collection.seed(#"{"instances": [\#(others)]}"#)
        _ = try await bench.addCopy(SyncReleases.stockholm, at: SyncReleases.day(1))
        _ = try await bench.addCopy(SyncReleases.likemind, at: SyncReleases.day(2))

        try await bench.server.inject("truncated", count: 1, match: "/collection/fields")
        try await bench.server.inject("html500", count: 1, match: "page=2")
        try await bench.server.inject("stall", count: 1, match: "/collection/folders")
        // The first add is carried out, its answer held past the client's timeout: the add
        // must be found among the release's instances, not sent again.
        try await bench.collection.hold("add", count: 1)
        let report = try await bench.sync(timeout: 4)
        try await bench.collection.release()
        #expect(report.failure == nil, "\(report.lines)")
        #expect(report.pulled == 150 && report.pushed == 2, "\(report.lines)")
        #expect(try await Self.doubled(bench).isEmpty)
        #expect(try await bench.instances().count == 152)
        let requests = try await bench.collection.stats().requests
        #expect(requests["add"] == 2, "one add each: the lost answer's add was found, not sent again")
        #expect(requests["folder_releases"] == 2, "page 1 once, page 2 once more after its 5xx (not counted by the collection)")
        #expect(requests["release_instances"] == 1)
    }

    @Test("a fault that does not pass: exit 4 (an answer cut short is no longer 1), nothing written")
    func persistentFault() async throws {
        let bench = try await SyncBench.start()
        _ = try await Self.linkedCollection(bench, count: 120)
        try await bench.server.inject("truncated", count: 100, match: "page=2")
        let report = try await bench.sync(retryPauses: [0.1, 0.1])
        #expect(Self.mayPass(report.failure), "\(report.lines)")
        #expect(try await Self.flaggedRemoved(bench) == 0)
    }

    /// A trouble that may pass (crates sync exits 4 for it): Discogs unreachable, or a
    /// listing that did not add up.
    static func mayPass(_ failure: SyncError?) -> Bool {
        switch failure {
        case .unreachable?, .incompleteListing?: true
        default: false
        }
    }
}

@Suite("DiscogsSync: a dry run counts what the real run does; the folder setting")
struct SyncDryRunAndFolderTests {
    typealias R = SyncReleases

    /// The summary's counts, without its head (dry or not) and its requests.
    static func counts(_ report: SyncReport) -> [Int] {
        [report.pulled, report.pushed, report.linked, report.updated, report.conflicts.count, report.removedOnDiscogs.count, report.removedThere]
    }

    @Test("--dry-run's summary counts are the real run's: copies added again (--restore-removed) and removed there (--delete)")
    func dryRunCounts() async throws {
        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": [{"release_id": 1}, {"release_id": 10507194}, {"release_id": 5134861}]}"#)
        _ = try await bench.sync()
        let rows = try await bench.store.sections().flatMap(\.rows)
        // One copy removed on Discogs, one deleted in crates, one new in crates.
        let stockholmKey = try #require(try await bench.instances().first { $0.release_id == 1 }).key
        try await bench.client().deleteInstance(username: SyncBench.owner, stockholmKey)
        let hammerfall = try #require(rows.first { $0.title == "Glory To The Brave" })
        _ = try await bench.store.delete([hammerfall.recordID])
        _ = try await bench.addCopy(R.likemind, at: R.day(1))

        let options = DiscogsSync.Options(deleteOnDiscogs: true, restoreRemoved: true)
        var dry = options
        dry.dryRun = true
        let writes = try await bench.collection.stats().writes
        let planned = try await bench.sync(dry)
        #expect(try await bench.collection.stats().writes == writes)
        let done = try await bench.sync(options)
        #expect(done.failure == nil, "\(done.lines)")
        #expect(Self.counts(planned) == Self.counts(done), "dry: \(planned.summary)\nreal: \(done.summary)")
        #expect(Self.counts(done) == [0, 2, 0, 0, 0, 0, 1])
        #expect(planned.summary.hasPrefix("Dry run, nothing written: Discogs (DamIDhagor) would give 0 pulled, 2 pushed,"), "\(planned.summary)")
        #expect(planned.summary.contains("1 removed from Discogs"), "\(planned.summary)")
    }

    @Test("config.json that does not parse, or names no folder: said, and nothing pushed until it is fixed")
    func unreadableConfiguration() async throws {
        let broken = SyncFolder.configured(Data("{\n  \"discogs_sync_folder\": \n}".utf8), path: "/c/config.json")
        #expect(broken == .unreadable("/c/config.json is not valid JSON: line 3, column 1: `}` where a value was expected: fix it, or give --folder"))
        #expect(SyncFolder.configured(Data(#"{"discogs_sync_folder": ""}"#.utf8), path: "/c/config.json")
            == .unreadable("/c/config.json, line 1: discogs_sync_folder is \"\": it takes a Discogs folder's id or name: fix it, or give --folder"))
        #expect(SyncFolder.configured(Data(#"["Vinyl"]"#.utf8), path: "/c/config.json") != .none)
        #expect(SyncFolder.configured(Data(#"{"discogs_sync_folder": 7}"#.utf8), path: "/c/config.json") == .folder("7"))
        #expect(SyncFolder.configured(Data(#"{"other": 1}"#.utf8), path: "/c/config.json") == .none)

        let bench = try await SyncBench.start()
        try await bench.collection.seed(#"{"instances": []}"#)
        _ = try await bench.addCopy(R.likemind, at: R.day(1))
        let sync = DiscogsSync(store: bench.store, access: try bench.access(), configuredFolder: broken)
        let refused = await sync.run(.init())
        #expect(refused.requests == 0, "\(refused.lines)")
        #expect(refused.failure?.description.hasPrefix("/c/config.json is not valid JSON") == true)
        // Taking Discogs' side adds nothing, and needs no folder: it goes on.
        let pulled = await sync.run(.init(push: false))
        #expect(pulled.failure == nil, "\(pulled.lines)")
        #expect(try await bench.instances().isEmpty)
    }
}
