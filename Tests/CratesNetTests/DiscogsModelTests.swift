import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesNet

/// The fixtures (recorded Discogs bodies) decode and map as crates keeps them.
@Suite struct DiscogsModelTests {
    /// The answer to adding a copy, which only the client reads.
    @Test func theAddAnswerDecodesInBothShapes() throws {
        // As documented.
        let documented = try JSONDecoder().decode(DiscogsAddedInstance.self, from: Data(#"""
            {"instance_id": 3, "resource_url": "https://api.discogs.com/users/example/collection/folders/1/release/1/instance/3"}
            """#.utf8))
        #expect(documented.instanceID == 3 && documented.instance == nil)
        // As Discogs answers (the recorded 2022 shape), with a 64-bit id.
        let modern = try JSONDecoder().decode(DiscogsAddedInstance.self, from: Data(#"""
            {"id": 213658, "instance_id": 9000000000001, "rating": 0, "folder_id": 1, "date_added": "2022-07-28T04:28:27-07:00",
             "basic_information": {"id": 213658, "title": "Robot.O.Chan", "year": 2004, "artists": [{"name": "Prometheus", "anv": "", "join": ""}],
               "labels": [{"name": "Twisted Records", "catno": "TWSCD25"}], "formats": [{"name": "CD", "qty": "1", "descriptions": ["Album"]}]},
             "resource_url": "https://api.discogs.com/users/Username/collection/folders/1/releases/213658?instance_id=9000000000001"}
            """#.utf8))
        #expect(modern.instanceID == 9_000_000_000_001)
        #expect(modern.instance?.key == DiscogsInstanceKey(folderID: 1, releaseID: 213658, instanceID: 9_000_000_000_001))
        #expect(modern.instance?.release().title == "Robot.O.Chan")
    }

    private func page(_ name: String) throws -> DiscogsSearchPage {
        try JSONDecoder().decode(DiscogsSearchPage.self, from: fixture("search/" + name))
    }

    @Test func modernReleaseMapsToARelease() throws {
        let body = try fixture("releases/5134861.json")
        let r = try JSONDecoder().decode(DiscogsRelease.self, from: body).release(rawJSON: String(decoding: body, as: UTF8.self))
        #expect(r.id == 5_134_861)
        #expect(r.artist == "HammerFall")
        #expect(r.title == "Glory To The Brave")
        #expect(r.genres == ["Rock"] && r.styles == ["Heavy Metal"])
        #expect(r.formats == ["CD, Album, Promo"])
        #expect(r.year == 1997 && r.country == "Germany")
        #expect(r.labels == [.init(name: "Nuclear Blast", catno: "NB 265-2")])
        #expect(r.url == "https://www.discogs.com/release/5134861-HammerFall-Glory-To-The-Brave")
        #expect(r.thumbURL?.hasPrefix("https://i.discogs.com/") == true)
        #expect(r.section == "Rock")
        #expect(r.rawJSON.utf8.count == body.count)
    }

    @Test func release2014MapsWithoutModernFields() throws {
        let body = try fixture("releases/1.json")
        let d = try JSONDecoder().decode(DiscogsRelease.self, from: body)
        let r = d.release(rawJSON: "{}")
        #expect(r.artist == "Persuader, The")
        #expect(r.formats == ["Vinyl, 12\", 33 ⅓ RPM"])
        #expect(r.labels == [.init(name: "Svek", catno: "SK032")])
        #expect(r.year == 1999)
        // Matrix/runout identifiers are not barcodes.
        #expect(d.identifiers.allSatisfy { $0.type != "Barcode" })
    }

    @Test func releaseTextIsCleanedOfControlCharacters() throws {
        let json = #"{"id": 7, "title": "Evil\u001b[2J Title", "artists": [{"name": "Bj\u00f6rk*", "anv": "", "join": "&"}, {"name": "Prince (2)", "anv": "", "join": ""}], "genres": ["Pop\u0007"], "year": 0, "country": "", "labels": [{"name": "Label (3)", "catno": "none"}]}"#
        let r = try JSONDecoder().decode(DiscogsRelease.self, from: Data(json.utf8)).release(rawJSON: json)
        #expect(r.title == "Evil[2J Title")
        #expect(r.artist == "Björk & Prince")
        #expect(r.genres == ["Pop"])
        #expect(r.year == nil && r.country == nil)
        #expect(r.labels == [.init(name: "Label", catno: nil)])
    }

    @Test func oneResultIsClearlyTheOne() throws {
        #expect(DiscogsBarcodeMatch(results: try page("one-hammerfall.json").results) == .one(releaseID: 5_134_861))
    }

    @Test func theSameReleaseTwiceIsOne() throws {
        let p = try page("same-release-twice-holovr.json")
        #expect(p.results.count == 2)
        #expect(DiscogsBarcodeMatch(results: p.results) == .one(releaseID: 10_507_194))
    }

    @Test func severalPressingsAreCandidates() throws {
        let match = DiscogsBarcodeMatch(results: try page("several-dj-healer.json").results)
        guard case .several(let candidates) = match else {
            Issue.record("expected several, got \(match)")
            return
        }
        #expect(candidates.map(\.releaseID) == [11_849_140, 13_416_116])
        let first = candidates[0]
        #expect(first.artist == "DJ Healer" && first.title == "Nothing 2 Loose")
        #expect(first.country == "Germany" && first.year == 2018)
        #expect(first.formats == ["Vinyl, 12\", 33 ⅓ RPM, Album"])
        #expect(first.label == "All Possible Worlds" && first.catno == "APW-2")
        // Same master, same format and country: still two pressings to choose from.
        #expect(candidates[1].year == 2019)
    }

    @Test func emptyAndMastersOnlyAreNone() throws {
        #expect(DiscogsBarcodeMatch(results: try page("empty.json").results) == .none)
        let master = DiscogsSearchPage.Result(id: 1, type: "master", title: "A - B")
        #expect(DiscogsBarcodeMatch(results: [master]) == .none)
    }

    @Test func oldSearchShapeDecodes() throws {
        let p = try page("one-persuader-2014.json")
        let c = try #require(p.results.first).candidate
        #expect(c.artist == "Persuader" || c.artist == "Persuader, The")
        #expect(c.formats == ["Vinyl, 12\", 33 ⅓ RPM"])
        #expect(DiscogsBarcodeMatch(results: p.results) == .one(releaseID: 1))
    }

    @Test func barcodeFieldIsNeverTakenForTheEAN() throws {
        // The healer pressings' barcode[] holds runout text only; the candidates carry none.
        let results = try page("several-dj-healer.json").results
        #expect(results[0].barcode.first?.hasPrefix("APW-2") == true)
    }

    @Test func errorBodiesDecode() throws {
        for name in ["401-unauthenticated", "401-invalid-token", "404-release", "429", "500-query-time"] {
            let m = try JSONDecoder().decode(DiscogsMessage.self, from: fixture("errors/\(name).json"))
            #expect(!m.message.isEmpty)
        }
        let id = try JSONDecoder().decode(DiscogsIdentity.self, from: fixture("identity.json"))
        #expect(id.username == "DamIDhagor" && id.id == 12_579_295)
    }

    @Test func queryFromGTINSkipsOnlyWhatIsNeverARecord() throws {
        let priceLabel = DiscogsBarcodeQuery(gtin: Fixtures.gtin("2012345678903"))
        #expect(priceLabel.forms.isEmpty && priceLabel.skipReason != nil)
        // A book its owner chose to add is searched (Discogs lists audiobooks under ISBNs).
        let isbn = DiscogsBarcodeQuery(gtin: Fixtures.gtin("9780306406157"))
        #expect(isbn.skipReason == nil && isbn.forms.first == "9780306406157")
        let upc = DiscogsBarcodeQuery(gtin: Fixtures.gtin("0727361626525"))
        #expect(upc.skipReason == nil)
        #expect(upc.forms.prefix(2) == ["0727361626525", "727361626525"])
        #expect(upc.forms.contains("7 27361 62652 5"))
        #expect(Set(upc.forms).count == upc.forms.count)
    }

    @Test func previewsAreShortAndClean() {
        let bytes = Array("<html>\u{1b}[31m\u{7}".utf8) + Array(repeating: UInt8(ascii: "x"), count: 200)
        let p = DiscogsText.preview(bytes)
        #expect(!p.contains("\u{1b}") && !p.contains("\u{7}"))
        #expect(p.hasSuffix("…") && p.count <= 81)
    }
}
