import CratesCore
import Testing

/// Typing in the pressing picker narrows the candidates by catalogue number, country, year
/// or label.
@Suite struct CandidateFilterTests {
    static let candidates = [
        ReleaseCandidate(releaseID: 1, artist: "Pink Floyd", title: "The Dark Side Of The Moon", country: "UK", year: 1973, label: "Harvest", catno: "SHVL 804"),
        ReleaseCandidate(releaseID: 2, artist: "Pink Floyd", title: "The Dark Side Of The Moon", country: "Europe", year: 1984, label: "Harvest", catno: "CDP 7 46001 2"),
        ReleaseCandidate(releaseID: 3, artist: "Pink Floyd", title: "The Dark Side Of The Moon", country: "US", year: 1984, label: "Capitol Records", catno: "CDP 7 46001 2"),
        ReleaseCandidate(releaseID: 4, artist: "Pink Floyd", title: "The Dark Side Of The Moon", country: "Germany", year: 1976, label: "Harvest", catno: "1C 062-05 249"),
        ReleaseCandidate(releaseID: 5, artist: "Pink Floyd", title: "The Dark Side Of The Moon", country: "Österreich", year: nil, label: nil, catno: nil),
    ]

    func ids(_ text: String) -> [Int] {
        CandidateFilter(text).apply(Self.candidates).map(\.releaseID)
    }

    @Test func byCatalogueNumberAsPrintedOrNot() {
        #expect(ids("46001") == [2, 3])
        #expect(ids("cdp 7 46") == [2, 3])
        #expect(ids("CDP7460012") == [2, 3])
        #expect(ids("1c062") == [4])
        #expect(ids("shvl-804") == [1])
    }

    @Test func byCountryYearAndLabel() {
        #expect(ids("us") == [3])
        #expect(ids("198") == [2, 3])
        #expect(ids("harv 1984") == [2])
        #expect(ids("cap") == [3])
        #expect(ids("OSTER") == [5])
        #expect(ids("cdp eur") == [2])
    }

    @Test func nothingTypedKeepsAllAndNothingMatchingKeepsNone() {
        #expect(ids("") == [1, 2, 3, 4, 5])
        #expect(ids(" - ") == [1, 2, 3, 4, 5])
        #expect(CandidateFilter(" - ").isEmpty)
        #expect(ids("japan") == [])
    }
}
