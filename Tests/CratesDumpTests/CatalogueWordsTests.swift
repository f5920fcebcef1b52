import CratesCore
import CratesTestSupport
import Testing

@testable import CratesStore

/// The words of every release are searchable, whatever order the dump lists the releases in:
/// the build indexes them a transaction at a time (the releases above the last indexed), and
/// a release written below that (a dump out of order) has its words indexed all the same.
@Suite(.offThePool) struct CatalogueWordsTests {
    static func release(_ id: Int) -> DumpRelease {
        DumpRelease(id: id, artists: [.init(name: "Artist\(id)x")], title: "Title\(id)x Words", genres: ["Rock"])
    }

    static func build(_ batches: [[Int]], duplicates: Int = 0) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("catalogue.sqlite")
        let builder = try DiscogsCatalogueBuilder(path: path, edition: CatalogueEdition(dumpDate: "20250601"), neededBytes: 0)
        builder.transactionSize = 10
        for batch in batches { try builder.add(batch.map(Self.release)) }
        #expect(builder.duplicateCount == duplicates)
        let ids = Set(batches.joined())
        let summary = try builder.finish(seconds: 1, skipped: [], skippedCount: 0, unlisted: 0)
        #expect(summary.releases == ids.count)
        let catalogue = try DiscogsCatalogueFile(path: path)
        for id in ids.sorted() {
            let byTitle = try catalogue.blockingSearch(try ReleaseSearchQuery(title: "title\(id)x"), limit: 10)
            #expect(byTitle.map(\.id) == [id], "title of release \(id)")
            let byArtist = try catalogue.blockingSearch(try ReleaseSearchQuery(artist: "artist\(id)x"), limit: 10)
            #expect(byArtist.map(\.id) == [id], "artist of release \(id)")
        }
        let all = try catalogue.blockingSearch(try ReleaseSearchQuery(title: "words"), limit: 1_000)
        #expect(Set(all.map(\.id)) == ids)
    }

    @Test("in order, across several commits and a batch that ends between them")
    func inOrder() async throws {
        try await Self.build([Array(1...7), Array(8...14), Array(15...33), Array(34...45)])
    }

    @Test("out of order after a commit, and a release listed twice")
    func outOfOrder() async throws {
        try await Self.build([Array(11...40), Array(1...10), Array(41...45) + [5]], duplicates: 1)
    }
}
