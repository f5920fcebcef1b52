import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// A bar of the statistics as a narrowing of the list: for every dimension and every bar,
/// the list holds exactly as many copies as the bar counted, by the same rule (the
/// collector's value over Discogs', a copy in each of its styles and labels, a place
/// directly), with a filter too.
@Suite struct StatisticsFacetTests {
    @Test(arguments: StoreKind.allCases)
    func everyBarListsItsCount(_ kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        _ = directory
        let releases = [
            Release(id: 1, artist: "A", title: "One", genres: ["Rock"], styles: ["Punk", "Post-Punk", "Punk"], formats: ["Vinyl"],
                    year: 1979, country: "UK", labels: [.init(name: "Factory", catno: "F1"), .init(name: "Factory", catno: "F2")]),
            Release(id: 2, artist: "B", title: "Two", genres: ["Electronic"], styles: ["Techno"], formats: ["CD, Album", "DVD"],
                    year: 1994, country: "Germany", labels: [.init(name: "Tresor", catno: "T1"), .init(name: "NovaMute", catno: "N1")]),
            Release(id: 3, artist: "C", title: "Three", genres: ["Jazz"], styles: [], formats: ["Vinyl, LP, Album, Reissue"],
                    year: nil, country: nil, labels: []),
        ]
        let months = (0..<3).map { Date(timeIntervalSince1970: 1_704_067_200 + Double($0) * 2_678_400 + 3600) }
        let places = [nil, "Room", "Room › Shelf", "Cellar"]
        let grades: [CopyGrading] = [.none, CopyGrading(media: .veryGoodPlus), CopyGrading(media: .mint)]
        for n in 0..<30 {
            var collector = RecordFields.none
            if n % 5 == 0 { collector = RecordFields(genre: "Reggae", year: 1985, format: "7\"", label: "Trojan", country: "Jamaica") }
            let release = n % 7 == 6 ? nil : releases[n % 3]
            _ = try await store.add(NewRecord(
                gtin: Fixtures.gtin(100 + n), addedAt: months[n % 3], addMethod: .typed, location: places[n % 4],
                release: release, collector: collector, grading: grades[n % 3]))
        }
        let statistics = try await store.statistics()
        var bars = 0
        for (dimension, counts) in statistics.dimensions {
            #expect(!counts.isEmpty, "\(dimension)")
            // The format chart's second level (descriptions within a medium) lists too.
            let facets = counts.flatMap { count in
                [(count, StatisticsFacet(dimension, count.key))]
                    + count.children.map { ($0, StatisticsFacet(dimension, count.key, detail: $0.key)) }
            }
            for (count, facet) in facets {
                let window = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 100), facet: facet))
                #expect(window.outline.rowCount == count.count, "\(facet)")
                #expect(window.rows.count == count.count, "\(facet)")
                #expect(window.facet == facet && window.totalRecords == 30)
                // With a filter as well: the filter's matches among the bar's copies.
                let filtered = try await store.window(CollectionQuery(filter: "one", window: RowWindow(offset: 0, limit: 100), facet: facet))
                let matching = try await store.window(CollectionQuery(filter: "one", window: RowWindow(offset: 0, limit: 100)))
                #expect(Set(filtered.rows.map(\.recordID)) == Set(window.rows.map(\.recordID)).intersection(matching.rows.map(\.recordID)),
                        "\(facet)")
                bars += 1
            }
        }
        #expect(bars > 20)
        // Formats by medium: "Vinyl" and "Vinyl, LP, …" are LPs, the collector's 7" apart.
        let formats = try #require(statistics.counts(.format))
        #expect(formats.map(\.key) == ["LP", "CD", "7\""], "\(formats)")
        #expect(formats.first?.children.map(\.key) == ["Album", "Reissue"], "\(formats)")
        // The statistics screen's places chart has a "no place" bar, which lists those copies.
        let screen = try await store.statistics(dimensions: [.location], placeless: true)
        let none = try #require(screen.counts(.location)?.first { $0.key == StatisticsFacet.noPlace })
        #expect(none.count == 8, "copies 0, 4, 8 … 28 are in no place")
        let placeless = try await store.window(
            CollectionQuery(window: RowWindow(offset: 0, limit: 100), facet: StatisticsFacet(.location, StatisticsFacet.noPlace)))
        #expect(placeless.rows.count == 8)
        #expect(statistics.counts(.location)?.contains { $0.key == StatisticsFacet.noPlace } == false, "crates stats counts places only")
        // A bar that is gone (a place renamed, a genre emptied meanwhile) lists nothing.
        for facet in [StatisticsFacet(.location, "Nowhere"), StatisticsFacet(.genre, "Polka"), StatisticsFacet(.decade, "x")] {
            #expect(try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 10), facet: facet)).rows.isEmpty)
        }
    }
}
