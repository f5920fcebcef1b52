import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// The wantlist kept as one with the Discogs wantlist by the sync, through real libcurl
/// against the loopback server's wantlist (Tests/DiscogsServer/wants.py), with a real store.
@Suite("DiscogsSync: the wantlist both ways, conflicts, faults")
struct WantlistSyncTests {
    /// Releases the server knows (its fixtures).
    static let stockholm = 1
    static let hammerfall = 5_134_861
    static let likemind = 10_507_194
    static let fourth = 11_849_140

    static func want(_ id: Int, notes: String? = nil, rating: Int = 0) throws -> WantEntry {
        WantEntry(releaseID: id, artist: "Artist", title: "Title \(id)", notes: notes, rating: try Rating(rating), addedAt: SyncReleases.day(id % 100))
    }

    /// crates wants Stockholm; Discogs wants HammerFall and Likemind. One sync later both
    /// sides hold all three, with their notes; a second sync writes nothing.
    static func synced() async throws -> SyncBench {
        let bench = try await SyncBench.start()
        _ = try await bench.store.addWant(try want(stockholm, notes: "any pressing", rating: 3))
        try await bench.server.wantlist.seed([(hammerfall, "first press only", 4), (likemind, "", 0)])
        let first = try await bench.sync()
        #expect(first.failure == nil, "\(first.lines)")
        #expect((first.wantlist.pulled, first.wantlist.pushed) == (2, 1), "\(first.lines)")
        return bench
    }

    @Test("both ways: wants only on Discogs are pulled with their notes, wants only here pushed; a second sync writes nothing")
    func bothWays() async throws {
        let bench = try await Self.synced()
        let here = try await bench.store.wants()
        #expect(Set(here.map(\.releaseID)) == [Self.stockholm, Self.hammerfall, Self.likemind])
        let hammerfall = try #require(here.first { $0.releaseID == Self.hammerfall })
        #expect(hammerfall.notes == "first press only" && hammerfall.rating.value == 4)
        #expect(hammerfall.title == "Glory To The Brave", "the release's values come from basic_information")
        let there = try await bench.server.wantlist.dump()
        let pushed = try #require(there.first { $0.release_id == Self.stockholm })
        #expect(pushed.notes == "any pressing" && pushed.rating == 3)

        let writes = try await bench.server.wantlist.stats().writes
        let second = try await bench.sync()
        #expect(second.failure == nil && second.wantlist.isQuiet, "\(second.lines)")
        #expect(try await bench.server.wantlist.stats().writes == writes, "the second sync wrote nothing")
        #expect(try await bench.store.outboxCount() == 0)
    }

    @Test("changes on either side go to the other; a value changed differently on both is a conflict, crates' kept until settled")
    func changesAndConflicts() async throws {
        let bench = try await Self.synced()
        try await bench.server.wantlist.change(release: Self.hammerfall, notes: "changed on Discogs")
        _ = try await bench.store.editWant(Self.likemind, notes: nil, rating: try Rating(5))
        _ = try await bench.store.editWant(Self.stockholm, notes: .some("mine"), rating: nil)
        try await bench.server.wantlist.change(release: Self.stockholm, notes: "theirs")

        let report = try await bench.sync()
        #expect(report.failure == nil, "\(report.lines)")
        #expect(try await bench.store.want(Self.hammerfall)?.notes == "changed on Discogs")
        let there = try await bench.server.wantlist.dump()
        #expect(there.first { $0.release_id == Self.likemind }?.rating == 5)
        #expect(report.wantlist.conflicts.count == 1 && report.wantlist.conflicts.first?.field == .notes, "\(report.lines)")
        #expect(report.lines.contains { $0.hasPrefix("wantlist conflict: r1 ") && $0.contains("\"mine\" in crates, \"theirs\" on Discogs") }, "\(report.lines)")
        #expect(try await bench.store.want(Self.stockholm)?.notes == "mine")
        #expect(there.first { $0.release_id == Self.stockholm }?.notes == "theirs")

        let settled = try await bench.sync(.init(prefer: .crates))
        #expect(settled.failure == nil && settled.wantlist.conflicts.isEmpty, "\(settled.lines)")
        #expect(try await bench.server.wantlist.dump().first { $0.release_id == Self.stockholm }?.notes == "mine")
    }

    @Test("removed on Discogs: removed here, unless changed here since (a conflict); removed here: removed there once")
    func removals() async throws {
        let bench = try await Self.synced()
        try await bench.server.wantlist.change(release: Self.hammerfall, remove: true)
        try await bench.server.wantlist.change(release: Self.likemind, remove: true)
        _ = try await bench.store.editWant(Self.likemind, notes: .some("still looking"), rating: nil)
        try await bench.store.removeWant(Self.stockholm)

        let report = try await bench.sync()
        #expect(report.failure == nil, "\(report.lines)")
        #expect(try await bench.store.want(Self.hammerfall) == nil, "removed on Discogs, so here")
        #expect(try await bench.store.want(Self.likemind)?.notes == "still looking", "changed here since: kept")
        #expect(report.wantlist.removedButChanged.map(\.releaseID) == [Self.likemind], "\(report.lines)")
        #expect(report.lines.contains { $0.contains("was removed from your Discogs wantlist, but changed here since") }, "\(report.lines)")
        #expect(try await bench.server.wantlist.dump().map(\.release_id) == [], "Stockholm removed there")
        #expect(try await bench.server.wantlist.stats().requests["remove"] == 1)

        let again = try await bench.sync()
        #expect(again.failure == nil, "\(again.lines)")
        #expect(try await bench.server.wantlist.stats().requests["remove"] == 1, "once")
        #expect(again.wantlist.removedButChanged.map(\.releaseID) == [Self.likemind], "the conflict stays until settled")
    }

    @Test("a listing that does not add up removes nothing here and adds nothing there")
    func shortListing() async throws {
        let bench = try await Self.synced()
        try await bench.server.wantlist.change(release: Self.hammerfall, remove: true)
        _ = try await bench.store.addWant(try Self.want(Self.fourth))
        try await bench.server.wantlist.listing(.empty, page: 1, count: DiscogsSync.listingReadings)
        let report = try await bench.sync()
        #expect(report.wantlist.notAdded == 1, "\(report.lines)")
        #expect(report.notices.contains { $0.hasPrefix("The wantlist's listing did not add up") }, "\(report.lines)")
        #expect(try await bench.store.want(Self.hammerfall) != nil, "not seen, but not known gone")
        #expect(try await bench.server.wantlist.stats().requests["add"] == 1, "only the first sync's")

        let whole = try await bench.sync()
        #expect(whole.failure == nil, "\(whole.lines)")
        #expect(try await bench.store.want(Self.hammerfall) == nil)
        #expect(try await bench.server.wantlist.dump().contains { $0.release_id == Self.fourth })
    }

    @Test("faults: a 5xx and a 429 are sent again; a release Discogs no longer has is said; a token revoked mid-sync stops it, the next sync finishes, never doubling")
    func faults() async throws {
        let bench = try await Self.synced()
        try await bench.server.inject("json500", count: 1, match: "/wants?")
        try await bench.server.inject("429-retry1", count: 1, match: "/wants?")
        _ = try await bench.store.addWant(try Self.want(Self.fourth, notes: "n", rating: 2))
        _ = try await bench.store.addWant(try Self.want(99_999_999))
        try await bench.server.wantlist.gone(release: 99_999_999)
        let report = try await bench.sync()
        #expect(report.failure == nil, "\(report.lines)")
        #expect(report.notices.contains { $0.hasPrefix("not written to your Discogs wantlist: r99999999") }, "\(report.lines)")
        #expect(try await bench.server.wantlist.dump().filter { $0.release_id == Self.fourth }.count == 1)

        // Revoked between the listing and the push: the sync stops, saying so.
        try await bench.store.removeWant(Self.fourth)
        _ = try await bench.store.editWant(Self.hammerfall, notes: .some("edited"), rating: nil)
        try await bench.server.inject("401", count: 1, match: "/wants/")
        let revoked = try await bench.sync()
        guard case .refused = revoked.failure else {
            Issue.record("\(revoked.lines)")
            return
        }
        let resumed = try await bench.sync()
        #expect(resumed.failure == nil, "\(resumed.lines)")
        let there = try await bench.server.wantlist.dump()
        #expect(!there.contains { $0.release_id == Self.fourth })
        #expect(there.first { $0.release_id == Self.hammerfall }?.notes == "edited")
        #expect(Set(there.map(\.release_id)).count == there.count, "no want twice")
        #expect(try await bench.store.outboxCount() == 0)
    }

    @Test("--dry-run says what it would do and writes nothing on either side")
    func dryRun() async throws {
        let bench = try await SyncBench.start()
        _ = try await bench.store.addWant(try Self.want(Self.stockholm))
        try await bench.server.wantlist.seed([(Self.hammerfall, "x", 1)])
        let report = try await bench.sync(.init(dryRun: true))
        #expect(report.failure == nil, "\(report.lines)")
        #expect(report.planned.contains { $0.hasPrefix("would pull into the wantlist: r5134861") }, "\(report.lines)")
        #expect(report.planned.contains { $0.hasPrefix("would add to your Discogs wantlist: r1 ") }, "\(report.lines)")
        #expect(try await bench.store.want(Self.hammerfall) == nil)
        #expect(try await bench.server.wantlist.stats().writes == 0)
    }
}
