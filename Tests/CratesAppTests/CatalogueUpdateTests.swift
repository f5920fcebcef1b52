import CratesCore
import CratesNet
import CratesStore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesApp

/// `crates catalogue fetch`'s use case in process: the fetch, the build and the pruning of
/// the cache in one call, against the loopback data site (Tests/DiscogsServer/data_site.py)
/// through real libcurl, into a real catalogue file. The command's own tests keep its wording
/// and exit statuses.
@Suite("Catalogue update: fetch, build, prune")
struct CatalogueUpdateTests {
    /// What the update said, in order.
    struct Heard: CatalogueUpdateReporter {
        let download: any DownloadReporting = Unshown()
        let events = LockBox<[String]>()

        func say(_ line: String) { events.append("say: " + line) }
        func fetched(_ fetched: CatalogueFetch.Fetched) { events.append("fetched \(fetched.date)") }
        func building(_ progress: CatalogueBuild.Progress) { events.append("building") }
        func buildEnded() { events.append("build ended") }
    }

    /// The download's bytes are not what these tests look at.
    struct Unshown: DownloadReporting {
        func start(_ name: String) {}
        func begin(from done: Int64, total: Int64?) {}
        func advance(to done: Int64, total: Int64?) {}
        func tick() {}
        func note(_ text: String) {}
        func finish() {}
    }

    struct Site {
        let directory: TemporaryDirectory
        let site: DataSiteTestServer

        init() async throws {
            directory = try TemporaryDirectory()
            site = try await DataSiteTestServer.start()
        }

        var cache: String { directory.file("cache/crates") }
        var catalogue: String { directory.file("catalogue.sqlite") }

        func update() throws(CatalogueUpdate.Failure) -> CatalogueUpdate {
            try CatalogueUpdate(
                cataloguePath: catalogue, sparing: directory.file("collection.sqlite"),
                environment: ["XDG_CACHE_HOME": directory.file("cache"), "CRATES_DISCOGS_DATA": site.base])
        }
    }

    static func date(_ digits: String) throws -> DiscogsDumpDate {
        try #require(DiscogsDumpDate(digits: digits))
    }

    @Test("the dump fetched and verified, the catalogue built from it, then the older dump removed; nothing else")
    func fetchBuildPrune() async throws {
        let s = try await Site()
        let update = try s.update()
        let first = try await update.run(date: try Self.date("20250601"), reporter: Heard())
        #expect(first.summary.releases == 3000 && first.summary.edition.dumpDate == "20250601", "\(first.summary)")
        #expect(first.removed.isEmpty)
        let older = s.cache + "/discogs_20250601_releases.xml.gz"
        #expect(first.fetched.path == older && first.fetched.downloaded > 0)
        let notOurs = s.cache + "/discogs_20250601_artists.xml.gz"
        #expect(FileManager.default.createFile(atPath: notOurs, contents: Data("keep".utf8)))

        let heard = Heard()
        let newer = try await update.run(date: try Self.date("20250701"), reporter: heard)
        #expect(newer.summary.edition.dumpDate == "20250701" && newer.summary.path == s.catalogue)
        #expect(newer.removed.map(\.name) == ["discogs_20250601_releases.xml.gz"], "\(newer.removed)")
        #expect(newer.removed.first?.bytes == newer.fetched.downloaded)
        #expect(!FileManager.default.fileExists(atPath: older) && FileManager.default.fileExists(atPath: notOurs))
        #expect(try DiscogsCatalogueFile(path: s.catalogue).summary.edition.dumpDate == "20250701")
        // Heard in order: the fetch's end before the build's batches, the build's end last.
        let events = heard.events.all
        let fetched = try #require(events.firstIndex(of: "fetched 2025-07-01"), "\(events)")
        #expect(events.firstIndex(of: "building").map { $0 > fetched } == true, "\(events)")
        #expect(events.last == "build ended", "\(events)")
    }

    @Test("a 429 from the site: the fetch's failure, no build, no catalogue")
    func refusedBySite() async throws {
        let s = try await Site()
        try await s.site.throttle(after: 1, retry: "3600")
        let update = try s.update()
        let heard = Heard()
        let failure = await #expect(throws: CatalogueUpdate.Failure.self) {
            try await update.run(date: nil, reporter: heard)
        }
        guard case .fetch(.waitRequested)? = failure else {
            Issue.record("not the site's wait: \(String(describing: failure))")
            return
        }
        #expect(failure?.isStopped == false)
        #expect(!heard.events.all.contains("building") && !FileManager.default.fileExists(atPath: s.catalogue))
    }

    @Test("cancelled mid-download: stopped, the part kept, no build, the catalogue as it was")
    func stoppedMidDownload() async throws {
        let s = try await Site()
        try await s.site.hold(after: 60_000)
        let update = try s.update()
        let heard = Heard()
        let running = Task { try await update.run(date: nil, reporter: heard) }
        try await s.site.waitUntilHeld()
        running.cancel()
        let result = await running.result
        try await s.site.release()
        guard case .failure(CatalogueUpdate.Failure.fetch(.stopped(let kept, let path?))) = result else {
            Issue.record("not stopped with a part kept: \(result)")
            return
        }
        #expect(kept > 0 && FileManager.default.fileExists(atPath: path), "\(kept) \(path)")
        #expect(!heard.events.all.contains("building") && !FileManager.default.fileExists(atPath: s.catalogue))
    }

    @Test("the catalogue's path is the collection's: the dump fetched, the build refused, the collection untouched")
    func collectionSpared() async throws {
        let s = try await Site()
        let collection = s.directory.file("collection.sqlite")
        _ = try CollectionStore(path: collection)
        let before = try Data(contentsOf: URL(fileURLWithPath: collection))
        let update = try CatalogueUpdate(
            cataloguePath: collection, sparing: collection,
            environment: ["XDG_CACHE_HOME": s.directory.file("cache"), "CRATES_DISCOGS_DATA": s.site.base])
        let failure = await #expect(throws: CatalogueUpdate.Failure.self) {
            try await update.run(date: nil, reporter: Heard())
        }
        guard case .build(.file)? = failure else {
            Issue.record("not the build's refusal: \(String(describing: failure))")
            return
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: collection)) == before)
    }
}
