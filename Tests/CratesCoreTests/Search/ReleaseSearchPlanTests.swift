import CratesCore
import Testing

/// How many requests each kind of search may cost, and which forms it sends.
@Suite struct ReleaseSearchPlanTests {
    func plan(_ query: ReleaseSearchQuery) -> [(ReleaseSearchPlan.Form, String?)] {
        ReleaseSearchPlan(query).steps.map { ($0.form, $0.query.catno) }
    }

    func forms(_ query: ReleaseSearchQuery) -> [ReleaseSearchPlan.Form] {
        ReleaseSearchPlan(query).steps.map(\.form)
    }

    @Test func aNumberAsPrintedHasOneMoreFormWithoutItsSpaces() throws {
        // "ILPS 9135": respacing gives the same words, so the second form is the compacted one.
        let steps = plan(try ReleaseSearchQuery(catno: "ILPS 9135"))
        #expect(steps.map(\.0) == [.asTyped, .compacted])
        #expect(steps.map(\.1) == ["ILPS 9135", "ILPS9135"])
    }

    @Test func aNumberTypedWithoutSpacesIsRespaced() throws {
        let steps = plan(try ReleaseSearchQuery(catno: "cdp7460012"))
        #expect(steps.map(\.0) == [.asTyped, .respaced])
        #expect(steps.map(\.1) == ["cdp7460012", "cdp 7 46001 2"])
    }

    @Test func withAnArtistOrTitleTheThirdFormDropsTheNumber() throws {
        let query = try ReleaseSearchQuery(artist: "Pink Floyd", catno: "cdp7460012")
        let steps = ReleaseSearchPlan(query).steps
        #expect(steps.map(\.form) == [.asTyped, .respaced, .withoutCatalogueNumber])
        #expect(steps[2].query.catno == nil && steps[2].query.artist == "Pink Floyd")
        #expect(steps.allSatisfy { $0.query.artist == "Pink Floyd" })
    }

    @Test func aLabelAloneDoesNotEarnTheThirdForm() throws {
        #expect(forms(try ReleaseSearchQuery(catno: "cdp7460012", label: "Harvest")) == [.asTyped, .respaced])
    }

    @Test func neverMoreThanThreeRequests() throws {
        // Respaced, without the number and compacted all apply: the compacted form is dropped.
        let query = try ReleaseSearchQuery(artist: "Pink Floyd", catno: "CDP7 46001-2")
        #expect(forms(query) == [.asTyped, .respaced, .withoutCatalogueNumber])
        #expect(forms(try ReleaseSearchQuery(catno: "1C064-82306")) == [.asTyped, .respaced, .compacted])
        for catno in ["CDP 7 46001 2", "cdp7460012", "1C064-82306", "SHVL-804", "MOVLP 001", "x", "7599-26094-2", "CDP7 46001-2"] {
            for artist in [nil, "Pink Floyd"] {
                let steps = ReleaseSearchPlan(try ReleaseSearchQuery(artist: artist, catno: catno)).steps
                #expect(steps.count <= ReleaseSearchPlan.maximumRequests)
                // No two forms send the same words.
                let sent = steps.map { $0.query.catno.map(CatalogueNumber.words) }
                #expect(Set(sent.map { $0?.joined(separator: " ") ?? "-" }).count == sent.count)
            }
        }
    }

    @Test func aOneWordNumberCostsOneRequestAlone() throws {
        #expect(forms(try ReleaseSearchQuery(catno: "6314")) == [.asTyped])
        #expect(forms(try ReleaseSearchQuery(catno: "PFRLP")) == [.asTyped])
    }

    @Test func withoutANumberTheFieldsThenFreeText() throws {
        let query = try ReleaseSearchQuery(artist: "Dark Side Of The Moon", title: "Pink Floyd", year: "1973", currentYear: 2026)
        let steps = ReleaseSearchPlan(query).steps
        #expect(steps.map(\.form) == [.asTyped, .freeText])
        let free = steps[1].query
        #expect(free.artist == nil && free.title == nil && free.year == 1973)
        #expect(free.text == "Dark Side Of The Moon Pink Floyd")
        #expect(forms(try ReleaseSearchQuery(artist: "Björk")) == [.asTyped])
        #expect(forms(try ReleaseSearchQuery(text: "bjork homogenic")) == [.asTyped])
    }

    @Test func goals() throws {
        let withNumber = ReleaseSearchPlan(try ReleaseSearchQuery(catno: "ILPS-9135"))
        #expect(withNumber.goal == .catalogueNumber(key: "ilps9135"))
        let exact = DiscogsSearchPage.Result(id: 1, title: "Cat Stevens - Tea For The Tillerman", catno: "ILPS 9135")
        let other = DiscogsSearchPage.Result(id: 2, title: "Cat Stevens - Tea For The Tillerman", catno: "ILPS 9135 B")
        let master = DiscogsSearchPage.Result(id: 3, type: "master", title: "Cat Stevens - Tea For The Tillerman", catno: "ILPS 9135")
        #expect(withNumber.isReached(by: [other, exact]))
        #expect(!withNumber.isReached(by: [other, master]))
        #expect(!withNumber.isReached(by: []))
        let byArtist = ReleaseSearchPlan(try ReleaseSearchQuery(artist: "Cat Stevens"))
        #expect(byArtist.goal == .anyResult)
        #expect(byArtist.isReached(by: [other]) && !byArtist.isReached(by: [master]))
    }
}
