import CratesCore
import Foundation
import Testing

/// Issue 13: a search result carries what the list shows, so one search completes a record.
@Suite struct SearchResultCompletionTests {
    /// The first hit of discogs-search-catno-hsh005-2019.json, as recorded.
    static let arthus = """
        {"user_data": {"in_collection": false, "in_wantlist": false}, "community": {"have": 0, "want": 0},
         "catno": "HSH005", "year": "2019", "format_quantity": 0, "id": 13565620, "style": ["Tech House"],
         "thumb": "https://img.discogs.com/jDjQ/R-13565620.jpeg", "title": "Arthus (2) - Catuaba EP",
         "label": ["Hossh Records", "Syncrophone"], "master_id": 0, "type": "release", "format": ["File", "WAV", "EP"],
         "barcode": [], "master_url": null, "genre": ["Electronic"], "country": "UK",
         "uri": "/Arthus-Catuaba-EP/release/13565620",
         "formats": [{"descriptions": ["WAV", "EP"], "name": "File", "qty": "4"}],
         "cover_image": "https://img.discogs.com/i6oP/R-13565620.jpeg", "resource_url": "https://api.discogs.com/releases/13565620"}
        """

    func result(_ json: String) throws -> DiscogsSearchPage.Result {
        try JSONDecoder().decode(DiscogsSearchPage.Result.self, from: Data(json.utf8))
    }

    @Test func aResultWithOneSeparatorCompletesARelease() throws {
        let hit = try result(Self.arthus)
        let release = try #require(hit.completedRelease(webBase: "https://www.discogs.com"))
        #expect(release.id == 13_565_620)
        #expect(release.artist == "Arthus" && release.title == "Catuaba EP")
        #expect(release.genres == ["Electronic"] && release.styles == ["Tech House"])
        #expect(release.section == "Electronic")
        #expect(release.formats == ["File, WAV, EP"])
        #expect(release.year == 2019 && release.country == "UK")
        #expect(release.labels == [Release.LabelCredit(name: "Hossh Records", catno: "HSH005"), Release.LabelCredit(name: "Syncrophone", catno: nil)])
        #expect(release.url == "https://www.discogs.com/Arthus-Catuaba-EP/release/13565620")
        #expect(release.thumbURL == "https://img.discogs.com/jDjQ/R-13565620.jpeg")
        #expect(release.hasFullDetails == false)
        // The result's own JSON is kept, compact, with every member Discogs sent.
        let raw = try JSONSerialization.jsonObject(with: Data(release.rawJSON.utf8)) as? [String: Any]
        #expect(raw?["title"] as? String == "Arthus (2) - Catuaba EP")
        #expect((raw?["community"] as? [String: Any])?["have"] as? Int == 0)
        #expect(raw?.count == 21)
        #expect(!release.rawJSON.contains("\n"))
    }

    /// The picker fetches a pressing's full-size cover (`cover_image`), not its thumbnail: the
    /// cover cache keeps one image a release for the details and `crates cover -o` too.
    @Test func aCandidateKeepsItsCoversAddress() throws {
        let candidate = try result(Self.arthus).candidate
        #expect(candidate.coverURL == "https://img.discogs.com/i6oP/R-13565620.jpeg")
        #expect(candidate.thumbURL == "https://img.discogs.com/jDjQ/R-13565620.jpeg")
        // An anonymous answer's empty address is none.
        let anonymous = Self.arthus.replacingOccurrences(of: "https://img.discogs.com/i6oP/R-13565620.jpeg", with: "")
        #expect(try result(anonymous).candidate.coverURL == nil)
        // Kept with the record's candidates (and read from those stored before it was kept).
        let stored = try JSONDecoder().decode(ReleaseCandidate.self, from: JSONEncoder().encode(candidate))
        #expect(stored.coverURL == candidate.coverURL)
        let old = try JSONDecoder().decode(ReleaseCandidate.self, from: Data(#"{"releaseID": 1, "artist": "A", "title": "T", "formats": []}"#.utf8))
        #expect(old.coverURL == nil)
    }

    @Test func nameVariationsAndDisambiguationsAreStripped() throws {
        let cases: [(String, String)] = [
            ("Prodigy* - Prodigy", "Prodigy"),
            ("Nirvana (2) - The Story Of Simon Simopath", "Nirvana"),
            ("DJ Nemesis (4) vs Klubrockers - Prodigy Beat", "DJ Nemesis vs Klubrockers"),
            ("ZXX & Jon Kennedy (2) - House Prodigy ", "ZXX & Jon Kennedy"),
            ("Gajah (Acid Reign)* - Poverty's Prodigy", "Gajah (Acid Reign)"),
            ("Prodigy, The (2) - The Prodigy", "Prodigy, The"),
            ("Sm*sh - Sm*sh", "Sm*sh"),
            ("Plan B (4), Prodigy* - Ill Manors", "Plan B, Prodigy"),
        ]
        for (title, artist) in cases {
            let hit = DiscogsSearchPage.Result(id: 1, title: title, catno: "X 1")
            #expect(hit.candidate.artist == artist, "\(title)")
            #expect(hit.completedRelease()?.artist == artist, "\(title)")
        }
        #expect(DiscogsSearchPage.Result(id: 1, title: "ZXX & Jon Kennedy (2) - House Prodigy ").completedRelease()?.title == "House Prodigy")
    }

    @Test func severalSeparatorsOrNoneMeanFetchTheRelease() {
        let jay = DiscogsSearchPage.Result(id: 4_087_807, title: "Jay-Z - 99 Problems - Prodigy Remix")
        #expect(jay.titleSplit == .ambiguous(separators: 2))
        #expect(jay.completedRelease() == nil)
        // For display, the first " - " still splits.
        #expect(jay.candidate.artist == "Jay-Z" && jay.candidate.title == "99 Problems - Prodigy Remix")
        let russian = DiscogsSearchPage.Result(id: 3_254_091, title: "Prodigy* - Звёзды Авторадио - Prodigy")
        #expect(russian.completedRelease() == nil)
        let none = DiscogsSearchPage.Result(id: 5, title: "Untitled")
        #expect(none.titleSplit == .noSeparator && none.completedRelease() == nil)
        let empty = DiscogsSearchPage.Result(id: 6, title: "Artist - ")
        #expect(empty.completedRelease() == nil)
        let master = DiscogsSearchPage.Result(id: 7, type: "master", title: "A - B")
        #expect(master.completedRelease() == nil)
        #expect(DiscogsName.splitExactly("Jay-Z - 99 Problems") == .split(artist: "Jay-Z", title: "99 Problems"))
    }

    @Test func labelsAreDedupedAndTheNumberGoesToTheFirst() {
        let hit = DiscogsSearchPage.Result(
            id: 5_797_336, title: "Kurt Vile - Childish Prodigy", year: 0, format: ["CD", "Album"],
            label: ["Matador", "Matador", " ", "West West Side Music*", "Uniform Recording (2)"], catno: "none")
        let release = hit.completedRelease()
        let expected = [
            Release.LabelCredit(name: "Matador", catno: nil), Release.LabelCredit(name: "West West Side Music", catno: nil),
            Release.LabelCredit(name: "Uniform Recording", catno: nil),
        ]
        #expect(release?.labels == expected)
        #expect(release?.year == nil)
        #expect(release?.formats == ["CD, Album"])
        #expect(release?.rawJSON == "{}")
    }

    @Test func controlCharactersFromTheNetworkAreCleaned() {
        let hit = DiscogsSearchPage.Result(
            id: 1, title: "Evil\u{1B}[31m - Title\u{7}", country: "U\u{9B}K", label: ["La\u{1B}bel"], catno: "C\u{0}1",
            genre: ["Ro\u{7}ck"])
        let release = hit.completedRelease()
        #expect(release?.artist == "Evil[31m" && release?.title == "Title")
        #expect(release?.country == "UK" && release?.labels.first?.name == "Label" && release?.labels.first?.catno == "C1")
        #expect(release?.genres == ["Rock"])
    }

    @Test func releasesEncodedBeforeTheFlagDecodeAsFull() throws {
        let old = #"{"id":1,"artist":"A","title":"T","genres":[],"styles":[],"formats":[],"labels":[],"rawJSON":"{}"}"#
        let release = try JSONDecoder().decode(Release.self, from: Data(old.utf8))
        #expect(release.hasFullDetails)
        var partial = release
        partial.hasFullDetails = false
        let again = try JSONDecoder().decode(Release.self, from: JSONEncoder().encode(partial))
        #expect(again == partial)
    }
}
