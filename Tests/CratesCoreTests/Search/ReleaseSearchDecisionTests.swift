import CratesCore
import Testing

/// Issue 14's import rule: matched when exactly one candidate fits the catalogue-number key,
/// or the artist and title when there is no catalogue number.
@Suite struct ReleaseSearchDecisionTests {
    typealias Result = DiscogsSearchPage.Result

    func decide(_ results: [Result], _ query: ReleaseSearchQuery) -> ReleaseSearchDecision {
        ReleaseSearchDecision(hits: ReleaseSearchRanking.rank(results, for: query), query: query)
    }

    @Test func oneExactKeyAmongOthersIsAMatch() throws {
        let results = [
            Result(id: 1, title: "Cat Stevens - Tea For The Tillerman", catno: "ILPS 9135 B"),
            Result(id: 2, title: "Cat Stevens - Tea For The Tillerman", catno: "ILPS 9135"),
        ]
        let decision = decide(results, try ReleaseSearchQuery(catno: "ilps9135"))
        guard case .one(let hit) = decision else {
            Issue.record("expected one, got \(decision)")
            return
        }
        #expect(hit.result.id == 2)
        #expect(decision.hits.count == 1)
    }

    @Test func twoExactKeysAreAmbiguous() throws {
        let results = [
            Result(id: 13_565_620, title: "Arthus (2) - Catuaba EP", catno: "HSH005"),
            Result(id: 6_990_537, title: "Home Street Home - 87trees", catno: "HSH005"),
        ]
        #expect(decide(results, try ReleaseSearchQuery(catno: "HSH 005")).hits.map(\.result.id) == [13_565_620, 6_990_537])
        if case .several = decide(results, try ReleaseSearchQuery(catno: "HSH 005")) {} else { Issue.record("expected several") }
    }

    @Test func noExactKeyButResultsIsAmbiguous() throws {
        let results = [Result(id: 1, title: "Pink Floyd - The Dark Side Of The Moon", catno: "SHVL 804")]
        if case .several(let hits) = decide(results, try ReleaseSearchQuery(artist: "Pink Floyd", catno: "CDP7460012")) {
            #expect(hits.count == 1)
        } else {
            Issue.record("expected several")
        }
    }

    @Test func withoutANumberArtistAndTitleDecide() throws {
        let results = [
            Result(id: 1, title: "Motörhead - Ace Of Spades", catno: "BRON 531"),
            Result(id: 2, title: "Motörhead - Overkill", catno: "BRON 515"),
        ]
        if case .one(let hit) = decide(results, try ReleaseSearchQuery(artist: "Motorhead", title: "ace of spades")) {
            #expect(hit.result.id == 1)
        } else {
            Issue.record("expected one")
        }
        if case .several(let hits) = decide(results, try ReleaseSearchQuery(artist: "Motorhead")) {
            #expect(hits.count == 2)
        } else {
            Issue.record("expected several")
        }
        #expect(decide([], try ReleaseSearchQuery(artist: "Motorhead")) == .none)
    }
}
