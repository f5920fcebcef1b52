import CratesCore
import Testing

@Suite("CollectionListingTally: a listing counts as whole only when it adds up")
struct CollectionListingTallyTests {
    static func page(_ ids: [Int64], items: Int?, pages: Int?) throws -> DiscogsCollectionPage {
        DiscogsCollectionPage(
            pagination: DiscogsPagination(pages: pages, perPage: 2, items: items),
            releases: try ids.map {
                try DiscogsCollectionInstance(
                    releaseID: Int($0), instanceID: $0, folderID: 1, basicInformation: .object(["id": .integer($0)]))
            })
    }

    @Test("every page, every instance, once: complete")
    func whole() throws {
        var tally = CollectionListingTally()
        #expect(tally.add(try Self.page([1, 2], items: 3, pages: 2)).map(\.instanceID) == [1, 2])
        #expect(tally.add(try Self.page([3], items: 3, pages: 2)).map(\.instanceID) == [3])
        #expect(tally.isComplete && tally.problem == nil && tally.seen == [1, 2, 3])
    }

    @Test("a copy shifted out of sight, a repeated copy, an empty page, pages that disagree, a missing count, pages not read")
    func notWhole() throws {
        var shifted = CollectionListingTally()
        _ = shifted.add(try Self.page([1, 2], items: 4, pages: 2))
        _ = shifted.add(try Self.page([4], items: 4, pages: 2))
        #expect(shifted.problem == "Discogs said 4 copies, the pages showed 3")

        var repeated = CollectionListingTally()
        _ = repeated.add(try Self.page([1, 2], items: 4, pages: 2))
        #expect(repeated.add(try Self.page([2, 3], items: 4, pages: 2)).map(\.instanceID) == [3], "a copy shown twice is taken once")
        #expect(!repeated.isComplete)

        var empty = CollectionListingTally()
        _ = empty.add(try Self.page([], items: 4, pages: 2))
        _ = empty.add(try Self.page([3, 4], items: 4, pages: 2))
        #expect(empty.problem == "page 1 of 2 came back empty")

        var changed = CollectionListingTally()
        _ = changed.add(try Self.page([1, 2], items: 4, pages: 2))
        _ = changed.add(try Self.page([3], items: 3, pages: 2))
        #expect(changed.problem == "the collection changed while it was read (page 2 said 3 copies in 2 pages, page 1 4 copies in 2 pages)")

        var uncounted = CollectionListingTally()
        _ = uncounted.add(try Self.page([1], items: nil, pages: 1))
        #expect(uncounted.problem == "Discogs did not say how many copies the collection holds")

        var short = CollectionListingTally()
        _ = short.add(try Self.page([1, 2], items: 4, pages: 2))
        #expect(short.problem == "only 1 of 2 pages were read")
    }
}
