import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates want` as a process: codes named through the catalogue, the list's three forms,
/// edits and removals, the prices asked once and shown offline by `crates check`, and
/// `crates sync` carrying the wantlist to the loopback server.
@Suite("crates want (process)", .processTimeLimit)
struct WantCommandTests {
    @Test("add by barcode and by release, list, edit, remove; ambiguous barcodes name their pressings")
    func commands() async throws {
        let fixture = try await CheckCommandTests.fixture()
        let sandbox = fixture.sandbox
        let catalogue = ["--catalogue", fixture.catalogue]
        let added = try await sandbox.crates(["want", "add"] + catalogue + [CheckCommandTests.new.canonical, "r1", "--notes", "UK", "--rating", "4"])
        #expect(added.status == 0, "\(added)")
        #expect(added.stdoutLines == [
            "wanted r4 Artist 4 — Title 4 (Label CAT 4 · Vinyl, LP · UK 1973)",
            "wanted r1 Artist 1 — Title 100 (Label CAT 1 · Vinyl, LP · UK 1973)",
        ], "\(added)")
        let shared = try await sandbox.crates(["want", "add"] + catalogue + [CheckCommandTests.shared.canonical])
        #expect(shared.status == 1 && shared.stderr.contains("2 pressings share this barcode; name one: r5 (") , "\(shared)")

        let list = try await sandbox.crates(["want", "list", "--json"])
        let objects = try CheckCommandTests.objects(list.stdout)
        #expect(objects.map { $0["release"] as? Int } == [1, 3, 4], "by artist: \(list)")
        #expect(objects.first?["notes"] as? String == "UK" && objects.first?["rating"] as? Int == 4)
        #expect((objects.first?["price"] as? [String: Any])?["currency"] as? String == "GBP", "the price cache's figure")
        // The orders: r3 five stars, r1 and r4 four (equals keep the artist order); only r1
        // has a price, so the others stay after it either way round.
        for (arguments, expected) in [(["--sort", "rating"], [3, 1, 4]), (["--sort", "RATING", "--reverse"], [4, 1, 3]), (["--reverse"], [4, 3, 1]), (["--sort", "price", "--reverse"], [1, 3, 4])] {
            let sorted = try await sandbox.crates(["want", "list", "--json"] + arguments)
            #expect(try CheckCommandTests.objects(sorted.stdout).map { $0["release"] as? Int } == expected, "\(arguments): \(sorted)")
        }
        let unknownOrder = try await sandbox.crates(["want", "list", "--sort", "loudness"])
        #expect(unknownOrder.status == 64 && unknownOrder.stderr.contains("loudness") && unknownOrder.stderr.contains("'rating'"), "\(unknownOrder)")

        let edited = try await sandbox.crates(["want", "edit", "4", "--notes", "any", "--rating", "2"])
        #expect(edited.status == 0, "\(edited)")
        let tabs = try await sandbox.crates(["want", "list"])
        let row = try #require(tabs.stdoutLines.first { $0.hasPrefix("4\t") }).split(separator: "\t", omittingEmptySubsequences: false)
        #expect(row[8] == "any" && row[9] == "2", "\(tabs)")

        let removed = try await sandbox.crates(["want", "remove"] + catalogue + ["r4", CheckCommandTests.wanted.canonical])
        #expect(removed.status == 0 && removed.stdoutLines.count == 2, "\(removed)")
        let none = try await sandbox.crates(["want", "remove", "r4"])
        #expect(none.status == 1 && none.stderr.contains("not on the wantlist"), "\(none)")
        #expect(try await sandbox.crates(["want", "list"]).stdoutLines.count == 1)
    }

    @Test("list --refresh asks the marketplace once per want; check shows the figure offline; sync carries the wantlist")
    func pricesAndSync() async throws {
        let fixture = try await CheckCommandTests.fixture()
        let sandbox = fixture.sandbox
        let refreshed = try await sandbox.crates(["want", "list", "--refresh", "--json"])
        #expect(refreshed.status == 0, "\(refreshed)")
        let want = try #require(try CheckCommandTests.objects(refreshed.stdout).first)
        let price = try #require(want["price"] as? [String: Any])
        #expect(price["lowest"] as? Double == 3.49 && price["forSale"] as? Int == 4, "release 3's figures: \(price)")

        await fixture.server.stop()
        let check = try await sandbox.crates(["check", "--json", "--catalogue", fixture.catalogue, CheckCommandTests.wanted.canonical])
        let answer = try #require(try CheckCommandTests.objects(check.stdout).first)
        #expect(((answer["price"] as? [String: Any])?["3"] as? [String: Any])?["lowest"] as? Double == 3.49, "\(check)")
    }

    @Test("crates sync puts the wantlist on Discogs; --dry-run says it first")
    func sync() async throws {
        let (sandbox, server) = try await SyncCommandTests.signedIn()
        let added = try await sandbox.crates(["want", "add", "r5134861", "--notes", "first press"])
        #expect(added.status == 0, "\(added)")
        let dry = try await sandbox.crates(["sync", "--dry-run"])
        #expect(dry.stdoutLines.contains { $0.hasPrefix("would add to your Discogs wantlist: r5134861 ") }, "\(dry)")
        let sync = try await sandbox.crates(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stdoutLines.contains("Wantlist: 0 pulled, 1 pushed, 0 updated, 0 removed here, 0 removed from Discogs, 0 conflicts."), "\(sync)")
        #expect(try await server.wantlist.dump().map(\.notes) == ["first press"])
    }
}
