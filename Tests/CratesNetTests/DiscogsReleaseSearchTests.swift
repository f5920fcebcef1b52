import CratesTestSupport
import CratesCore
import Foundation
import Testing

@testable import CratesNet

/// Searches without a barcode (issue 14), through the real libcurl transport against the
/// loopback server's field search over Fixtures/discogs/search/corpus.json.
@Suite struct DiscogsReleaseSearchTests {
    /// The field searches the server received, each as its parameters
    /// (GET /_control/stats, `field_searches`).
    struct FieldSearches: Decodable {
        var requests: Int
        var fieldSearches: [[String: String]]?

        enum CodingKeys: String, CodingKey {
            case requests
            case fieldSearches = "field_searches"
        }

        var all: [[String: String]] { fieldSearches ?? [] }
        var catnos: [String?] { all.map { $0["catno"] } }
    }

    func fieldSearches(_ server: DiscogsTestServer) async throws -> FieldSearches {
        let control = try CurlTransport(configuration: .init(userAgent: "crates-tests", totalTimeout: 60))
        let response = try await control.send(HTTPRequest(url: server.base + "/_control/stats"))
        return try JSONDecoder().decode(FieldSearches.self, from: response.body)
    }

    func search(_ server: DiscogsTestServer, limiter: RateLimiter = RateLimiter(configuration: .init(limit: 60, window: 60))) throws -> DiscogsReleaseSearch {
        DiscogsReleaseSearch(client: try testClient(server, limiter: limiter))
    }

    // MARK: - Catalogue numbers

    @Test func aCatalogueNumberAsPrintedCostsOneRequest() async throws {
        let server = try await DiscogsTestServer.start()
        let found = try await search(server).search(try ReleaseSearchQuery(catno: "1C 064-82 306"))
        #expect(found.requests == 1 && found.forms == [.asTyped])
        guard case .one(let hit) = found.decision else {
            Issue.record("expected one release, got \(found.decision)")
            return
        }
        #expect(hit.candidate.artist == "Kraftwerk" && hit.candidate.title == "Trans Europa Express")
        #expect(hit.candidate.catno == "1C 064-82 306" && hit.candidate.country == "Germany" && hit.candidate.year == 1977)
        let stats = try await fieldSearches(server)
        #expect(stats.requests == 1)
        #expect(stats.all.first == ["type": "release", "catno": "1C 064-82 306", "per_page": "100", "page": "1"])
    }

    @Test func oneNumberOnTwoPressingsIsForAPersonToChoose() async throws {
        let server = try await DiscogsTestServer.start()
        let found = try await search(server).search(try ReleaseSearchQuery(catno: "CDP 7 46001 2"))
        #expect(found.requests == 1)
        guard case .several(let hits) = found.decision else {
            Issue.record("expected several, got \(found.decision)")
            return
        }
        #expect(hits.map(\.candidate.country) == ["Europe", "US"])
        #expect(hits.allSatisfy { $0.match.catalogueNumber && $0.candidate.artist == "Pink Floyd" })
        #expect(hits.map(\.candidate.label) == ["Harvest", "Capitol Records"])
    }

    @Test func typedWithoutSpacesIsSentAgainRespaced() async throws {
        let server = try await DiscogsTestServer.start()
        let limiter = RateLimiter(configuration: .init(limit: 60, window: 60))
        let found = try await search(server, limiter: limiter).search(try ReleaseSearchQuery(catno: "ILPS9135"))
        #expect(found.requests == 2 && found.forms == [.asTyped, .respaced])
        #expect(found.hits.map(\.candidate.catno) == ["ILPS 9135"])
        if case .one(let hit) = found.decision {
            #expect(hit.completedRelease()?.title == "Tea For The Tillerman")
        } else {
            Issue.record("expected one, got \(found.decision)")
        }
        #expect(try await fieldSearches(server).catnos == ["ILPS9135", "ILPS 9135"])
        // Every request went through the one limiter.
        #expect(await limiter.statistics.sent == 2)
    }

    @Test(arguments: ["ilps 9135", "Ilps-9135", "ILPS  9135", "ilps/9135", "ＩＬＰＳ　９１３５"])
    func caseAndPunctuationCostNothingMore(typed: String) async throws {
        let server = try await DiscogsTestServer.start()
        let found = try await search(server).search(try ReleaseSearchQuery(catno: typed))
        #expect(found.requests == 1)
        #expect(found.hits.map(\.candidate.catno) == ["ILPS 9135"])
        #expect(try await fieldSearches(server).catnos == [typed])
    }

    @Test func spacesTypedWhereTheSleeveHasNoneAreRemoved() async throws {
        let server = try await DiscogsTestServer.start()
        let found = try await search(server).search(try ReleaseSearchQuery(catno: "tplp 71 cd"))
        #expect(found.requests == 2 && found.forms == [.asTyped, .compacted])
        #expect(found.hits.map(\.candidate.catno) == ["TPLP71CD"])
        #expect(found.hits.first?.candidate.artist == "Björk")
        #expect(try await fieldSearches(server).catnos == ["tplp 71 cd", "tplp71cd"])
    }

    /// "cdp7460012" against the printed "CDP 7 46001 2": EMI's grouping is known, so the
    /// second request has the index's words (the help's own example). Other digit groups
    /// run together ("1c06482306" for "1C 064-82 306") need the artist: the third request
    /// finds it by key.
    @Test func digitGroupsRunTogether() async throws {
        let server = try await DiscogsTestServer.start()
        let alone = try await search(server).search(try ReleaseSearchQuery(catno: "cdp7460012"))
        #expect(alone.requests == 2 && alone.forms == [.asTyped, .respaced])
        #expect(alone.hits.prefix(2).map(\.candidate.catno) == ["CDP 7 46001 2", "CDP 7 46001 2"])
        #expect(alone.hits.prefix(2).allSatisfy { $0.match.catalogueNumber })
        #expect(try await fieldSearches(server).catnos == ["cdp7460012", "cdp 7 46001 2"])

        let other = try await search(server).search(try ReleaseSearchQuery(catno: "1c06482306"))
        #expect(other.hits.isEmpty && other.decision == .none)
        let withArtist = try await search(server).search(try ReleaseSearchQuery(artist: "kraftwerk", catno: "1c06482306"))
        #expect(withArtist.requests == 3 && withArtist.forms == [.asTyped, .respaced, .withoutCatalogueNumber])
        #expect(withArtist.hits.first?.candidate.catno == "1C 064-82 306")
        #expect(withArtist.hits.first?.match.catalogueNumber == true)
        #expect(try await fieldSearches(server).all.last?["artist"] == "kraftwerk")
    }

    @Test func theSearchStopsAtTheFirstExactKey() async throws {
        let server = try await DiscogsTestServer.start()
        // Found as typed: the respaced and artist-only forms are never sent.
        let found = try await search(server).search(try ReleaseSearchQuery(artist: "Kraftwerk", catno: "1c 064 82 306"))
        #expect(found.requests == 1)
        // Not found in three requests: the fourth form is not sent.
        let lost = try await search(server).search(try ReleaseSearchQuery(catno: "1C064-82306"))
        #expect(lost.requests == 3 && lost.forms == [.asTyped, .respaced, .compacted] && lost.hits.isEmpty)
        let recovered = try await search(server).search(try ReleaseSearchQuery(artist: "Kraftwerk", catno: "1C064-82306"))
        #expect(recovered.requests == 3)
        #expect(recovered.hits.first?.candidate.catno == "1C 064-82 306")
        if case .one = recovered.decision {} else { Issue.record("expected one, got \(recovered.decision)") }
        #expect(try await fieldSearches(server).requests == 7)
    }

    // MARK: - Artist and title

    @Test func accentsAndCaseFold() async throws {
        let server = try await DiscogsTestServer.start()
        let bjork = try await search(server).search(try ReleaseSearchQuery(artist: "BJORK", title: "homogenic"))
        #expect(bjork.requests == 1)
        #expect(bjork.hits.map(\.candidate.catno) == ["TPLP 71", "TPLP71CD"])
        #expect(bjork.hits.allSatisfy { $0.candidate.artist == "Björk" && $0.match.artist == .exact && $0.match.title == .exact })
        let motorhead = try await search(server).search(try ReleaseSearchQuery(artist: "motorhead", title: "Ace of Spades"))
        #expect(motorhead.hits.map(\.candidate.artist) == ["Motörhead"])
        let husker = try await search(server).search(try ReleaseSearchQuery(artist: "Husker Du"))
        #expect(husker.hits.map(\.candidate.title) == ["Zen Arcade"])
        let edith = try await search(server).search(try ReleaseSearchQuery(artist: "EDITH piaf"))
        #expect(edith.hits.map(\.candidate.artist) == ["Édith Piaf"])
        let sakamoto = try await search(server).search(try ReleaseSearchQuery(artist: "坂本龍一"))
        #expect(sakamoto.hits.map(\.candidate.title) == ["音楽図鑑"])
    }

    @Test func disambiguationsAndNameVariationsAreStripped() async throws {
        let server = try await DiscogsTestServer.start()
        let arthus = try await search(server).search(try ReleaseSearchQuery(artist: "Arthus"))
        let hit = try #require(arthus.hits.first)
        #expect(hit.result.title == "Arthus (2) - Catuaba EP")
        #expect(hit.candidate.artist == "Arthus")
        let (release, requests) = try await search(server).release(for: hit)
        #expect(requests == 0)
        #expect(release.artist == "Arthus" && release.title == "Catuaba EP" && !release.hasFullDetails)
        #expect(release.url == server.base + "/Arthus-Catuaba-EP/release/13565620")
        #expect(release.genres == ["Electronic"] && release.styles == ["Tech House"])
        #expect(release.labels.first == Release.LabelCredit(name: "Hossh Records", catno: "HSH005"))

        let nirvana = try await search(server).search(try ReleaseSearchQuery(artist: "nirvana"))
        #expect(Set(nirvana.hits.map(\.candidate.artist)) == ["Nirvana"])
        #expect(nirvana.hits.count == 3)

        let prodigy = try await search(server).search(try ReleaseSearchQuery(artist: "Prodigy"))
        #expect(prodigy.hits.map(\.result.title).contains("Prodigy* - Prodigy"))
        #expect(!prodigy.hits.map(\.candidate.artist).contains { $0.contains("*") })
        let nemesis = try await search(server).search(try ReleaseSearchQuery(title: "prodigy beat"))
        #expect(nemesis.hits.map(\.candidate.artist) == ["DJ Nemesis vs Klubrockers"])
    }

    /// Several " - ": the search result cannot say which is the artist's, so the release is
    /// fetched (the server builds it from the corpus) and gives the credits apart.
    @Test func anAmbiguousTitleIsCompletedFromTheRelease() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        let found = try await DiscogsReleaseSearch(client: client).search(try ReleaseSearchQuery(artist: "Jay-Z"))
        let hit = try #require(found.hits.first)
        #expect(hit.result.titleSplit == .ambiguous(separators: 2))
        #expect(hit.completedRelease() == nil)
        let (release, requests) = try await DiscogsReleaseSearch(client: client).release(for: hit)
        #expect(requests == 1)
        #expect(release.artist == "Jay-Z" && release.title == "99 Problems - Prodigy Remix" && release.hasFullDetails)
        #expect(release.url == "https://www.discogs.com/release/4087807-Jay-Z-99-Problems-Prodigy-Remix")
        let russian = try await client.release(id: 3_254_091)
        #expect(russian.artist == "Prodigy" && russian.title == "Звёзды Авторадио - Prodigy")
    }

    @Test func sixtyPressingsComeInOneRequestAndNarrow() async throws {
        let server = try await DiscogsTestServer.start()
        let found = try await search(server).search(try ReleaseSearchQuery(artist: "Pink Floyd", title: "Dark Side of the Moon"))
        #expect(found.requests == 1 && found.isComplete)
        #expect(found.hits.count == 60)
        #expect(Set(found.hits.map(\.result.id)).count == 60)
        if case .several = found.decision {} else { Issue.record("expected several") }
        let candidates = found.hits.map(\.candidate)
        #expect(CandidateFilter("cdp 7 46").apply(candidates).map(\.country) == ["Europe", "US"])
        #expect(CandidateFilter("1c062 1980").apply(candidates).map(\.catno) == ["1C 062-05 249"])
        // "SHVL 804", "SHVL.804", "SHVL-804", and within "Q4SHVL 804" and "TC-SHVL 804".
        #expect(CandidateFilter("shvl804").apply(candidates).map(\.country) == ["UK", "UK", "UK", "Australia", "New Zealand"])
        #expect(CandidateFilter("mfsl").apply(candidates).count == 1)
    }

    @Test func fieldsSwappedAreFoundAsFreeText() async throws {
        let server = try await DiscogsTestServer.start()
        let found = try await search(server).search(try ReleaseSearchQuery(artist: "Tea For The Tillerman", title: "Cat Stevens"))
        #expect(found.requests == 2 && found.forms == [.asTyped, .freeText])
        #expect(found.hits.count == 2)
        #expect(try await fieldSearches(server).all.last?["q"] == "Tea For The Tillerman Cat Stevens")
    }

    @Test func narrowingFieldsAreSentAndRanked() async throws {
        let server = try await DiscogsTestServer.start()
        let query = try ReleaseSearchQuery(artist: "Pink Floyd", year: "1984", country: "Japan", format: "CD", currentYear: 2026)
        let found = try await search(server).search(query)
        #expect(found.hits.map(\.candidate.catno) == ["CP35-3017"])
        let sent = try #require(try await fieldSearches(server).all.first)
        #expect(sent["year"] == "1984" && sent["country"] == "Japan" && sent["format"] == "CD")
    }

    // MARK: - What costs nothing, and what fails

    @Test func emptyOrAbsurdInputCostsNoRequest() async throws {
        let server = try await DiscogsTestServer.start()
        let finder = try search(server)
        // (artist, title, catno, year, country)
        let absurd: [(String?, String?, String?, String?, String?)] = [
            (nil, nil, nil, nil, nil),
            ("  ", "", nil, nil, nil),
            (nil, String(repeating: "x", count: 5000), nil, nil, nil),
            ("Ab\u{1B}[2Jba", nil, nil, nil, nil),
            ("Can", nil, nil, "99999", nil),
            (nil, nil, nil, "1973", "UK"),
            (nil, nil, "- / -", nil, nil),
        ]
        var messages: [String] = []
        for (artist, title, catno, year, country) in absurd {
            do {
                let query = try ReleaseSearchQuery(artist: artist, title: title, catno: catno, year: year, country: country)
                _ = try await finder.search(query)
                Issue.record("a search was sent")
            } catch let error as ReleaseSearchError {
                messages.append(error.description)
            }
        }
        #expect(messages.count == absurd.count)
        #expect(messages.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 } })
        #expect(try await fieldSearches(server).requests == 0)
        // A sentinel: the counter does count a search that is sent.
        _ = try await finder.search(try ReleaseSearchQuery(catno: "ILPS 9135"))
        #expect(try await fieldSearches(server).requests == 1)
    }

    @Test func notSignedInIsUnauthorized() async throws {
        let server = try await DiscogsTestServer.start()
        let anonymous = DiscogsReleaseSearch(client: try testClient(server, credentials: nil))
        await #expect(throws: DiscogsError.unauthorized(message: "You must authenticate to access this resource.")) {
            _ = try await anonymous.search(try ReleaseSearchQuery(artist: "Björk"))
        }
        let revoked = DiscogsReleaseSearch(client: try testClient(server, credentials: .personalToken("revoked")))
        await #expect(throws: DiscogsError.unauthorized(message: "Invalid consumer token. Please register an app before making requests.")) {
            _ = try await revoked.search(try ReleaseSearchQuery(catno: "ILPS9135"))
        }
        // A refusal stops the plan: one request each.
        #expect(try await fieldSearches(server).requests == 2)
    }

    @Test func aFailedRequestFailsTheSearch() async throws {
        let server = try await DiscogsTestServer.start()
        try await server.inject("json500", count: 1, match: "catno=ILPS%209135")
        await #expect(throws: DiscogsError.self) {
            _ = try await search(server).search(try ReleaseSearchQuery(catno: "ILPS9135"))
        }
        #expect(try await fieldSearches(server).requests == 2)
    }

    /// OAuth 1.0a signs the query with its UTF-8 text percent-encoded (RFC 5849 §3.6); the
    /// server checks each signature with its own code.
    @Test func signedSearchesWithAccentsAndCJK() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try await oauthClient(server)
        let finder = DiscogsReleaseSearch(client: client)
        #expect(try await finder.search(try ReleaseSearchQuery(artist: "Björk", title: "Homogenic")).hits.count == 2)
        #expect(try await finder.search(try ReleaseSearchQuery(artist: "坂本龍一", catno: "28MS-0075")).hits.count == 1)
        #expect(try await finder.search(try ReleaseSearchQuery(text: "Motörhead & Ace+Of/Spades?")).hits.count == 1)
        #expect(try await server.stats().badSignatures == 0)
    }

    // MARK: - Pages

    @Test func pagesAreDiscogsPages() async throws {
        let server = try await DiscogsTestServer.start()
        let client = try testClient(server)
        let query = try ReleaseSearchQuery(artist: "Pink Floyd")
        let first = try await client.searchReleases(query, page: 1, perPage: 50)
        #expect(first.results.count == 50)
        #expect(first.pagination == DiscogsSearchPage.Pagination(page: 1, pages: 2, items: 60, perPage: 50))
        let second = try await client.searchReleases(query, page: 2, perPage: 50)
        #expect(second.results.count == 10)
        #expect(Set(first.results.map(\.id)).isDisjoint(with: second.results.map(\.id)))
        await #expect(throws: DiscogsError.notFound(message: "Page 3 is outside of valid range [1, 2].")) {
            _ = try await client.searchReleases(query, page: 3, perPage: 50)
        }
        // Discogs' largest page is 100; asking more is asking 100.
        let big = try await client.searchReleases(query, perPage: 500)
        #expect(big.results.count == 60 && big.pagination?.perPage == 100)
        var limited = DiscogsReleaseSearch(client: client)
        limited.perPage = 20
        let partial = try await limited.search(query)
        #expect(partial.hits.count == 20 && !partial.isComplete)
    }

    @Test func theBarcodeSearchIsUnchanged() async throws {
        let server = try await DiscogsTestServer.start()
        let page = try await testClient(server).searchReleases(barcode: "7 27361 62652 5")
        #expect(page.results.map(\.id) == [5_134_861])
        let stats = try await server.stats()
        #expect(stats.searches == ["7 27361 62652 5"])
        #expect(try await fieldSearches(server).all.isEmpty)
    }
}
