import CratesTestSupport
import CratesCore
import Testing

@Suite struct ReleaseSearchRankingTests {
    typealias Result = DiscogsSearchPage.Result

    static let pressings: [Result] = [
        Result(id: 1, title: "Pink Floyd - The Dark Side Of The Moon", country: "US", year: 1973, format: ["Vinyl", "LP", "Album"], label: ["Harvest"], catno: "SMAS-11163"),
        Result(id: 2, title: "Pink Floyd - The Dark Side Of The Moon", country: "US", year: 1984, format: ["CD", "Album"], label: ["Capitol Records"], catno: "CDP 7 46001 2"),
        Result(id: 3, title: "Various - Dark Side Of The Moon Redux", country: "UK", year: 2003, format: ["CD", "Compilation"], label: ["Harvest"], catno: "CDP7460012"),
        Result(id: 4, title: "Pink Floyd - The Dark Side Of The Moon", country: "Europe", year: 1984, format: ["CD", "Album"], label: ["Harvest"], catno: "CDP 7 46001 2"),
        Result(id: 5, title: "Pink Floyd - Dark Side", country: "UK", year: 1973, format: ["Vinyl", "LP"], label: ["Harvest"], catno: "SHVL 804"),
    ]

    @Test func exactCatalogueNumberFirstThenArtistAndTitleThenYearCountryFormat() throws {
        let query = try ReleaseSearchQuery(artist: "pink floyd", title: "the dark side of the moon", catno: "cdp-7-46001-2", country: "Europe")
        let ranked = ReleaseSearchRanking.rank(Self.pressings, for: query)
        // 2, 3 and 4 share the key; 2 and 4 also fit artist and title exactly; 4 is from Europe.
        #expect(ranked.map(\.result.id) == [4, 2, 3, 1, 5])
        #expect(ranked[0].match == ReleaseSearchMatch(catalogueNumber: true, artist: .exact, title: .exact, country: true))
        #expect(ranked[2].match.artist == .none && ranked[2].match.title == .words)  // "Various - Dark Side Of The Moon Redux"
        #expect(ranked[4].match.title == .none)  // "Dark Side" lacks words asked
    }

    @Test func allWordsBeforeSomeWordsAndAccentsFold() throws {
        let results = [
            Result(id: 10, title: "Björk - Homogenic Live", catno: "TPLP 999"),
            Result(id: 11, title: "Bjork Tribute Band - Homogenic", catno: "X 1"),
            Result(id: 12, title: "Björk* - Homogenic", catno: "TPLP 71"),
            Result(id: 13, title: "Björk - Debut", catno: "TPLP 31"),
        ]
        let ranked = ReleaseSearchRanking.rank(results, for: try ReleaseSearchQuery(artist: "BJORK", title: "homogenic"))
        #expect(ranked.map(\.result.id) == [12, 10, 11, 13])
        #expect(ranked[0].candidate.artist == "Björk")
        #expect(ranked[0].match.artistAndTitle == 4 && ranked[1].match.artistAndTitle == 3 && ranked[2].match.artistAndTitle == 3)
    }

    @Test func formatYearAndLabelAsGiven() throws {
        let query = try ReleaseSearchQuery(artist: "Pink Floyd", label: "harvest", year: "1984", format: "cd", currentYear: 2026)
        let ranked = ReleaseSearchRanking.rank(Self.pressings, for: query)
        #expect(ranked.first?.result.id == 4)   // CD, 1984, Harvest
        #expect(ranked[1].result.id == 2)       // CD, 1984, Capitol
        #expect(ranked[0].match.narrowing == 2 && ranked[0].match.label)
        #expect(!ranked[1].match.label)
    }

    @Test func mastersAndRepeatsAreLeftOut() throws {
        let results = [
            Result(id: 7, type: "master", title: "Pink Floyd - The Dark Side Of The Moon"),
            Result(id: 8, title: "Pink Floyd - The Dark Side Of The Moon", catno: "SHVL 804"),
            Result(id: 8, title: "Pink Floyd - The Dark Side Of The Moon", catno: "SHVL 804"),
        ]
        #expect(ReleaseSearchRanking.rank(results, for: try ReleaseSearchQuery(artist: "Pink Floyd")).map(\.result.id) == [8])
    }

    /// Seeded: whatever order Discogs sends, a result better on some criterion comes first,
    /// and equals keep Discogs' order.
    @Test func rankingIsAStableSortOnTheCriteria() throws {
        var generator = SeededGenerator(seed: 0x5EA4C4)
        let query = try ReleaseSearchQuery(artist: "pink floyd", title: "dark side", catno: "CDP 7 46001 2", year: "1984", country: "US", currentYear: 2026)
        for _ in 0..<200 {
            let shuffled = Self.pressings.shuffled(using: &generator) + Self.pressings.shuffled(using: &generator).map {
                var copy = $0
                copy.id += 100
                return copy
            }
            let ranked = ReleaseSearchRanking.rank(shuffled, for: query)
            #expect(ranked.count == shuffled.count)
            for (a, b) in zip(ranked, ranked.dropFirst()) {
                let x = a.match, y = b.match
                let key = { (m: ReleaseSearchMatch) in [m.catalogueNumber ? 1 : 0, m.artistAndTitle, m.narrowing, m.label ? 1 : 0] }
                #expect(key(x).lexicographicallyPrecedes(key(y)) == false)
                if key(x) == key(y) {
                    let ia = try #require(shuffled.firstIndex { $0.id == a.result.id })
                    let ib = try #require(shuffled.firstIndex { $0.id == b.result.id })
                    #expect(ia < ib)
                }
            }
            #expect(ranked.first?.result.id == 2 || ranked.first?.result.id == 102)
        }
    }
}
