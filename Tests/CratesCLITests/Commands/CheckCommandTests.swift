import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates check` against a catalogue built by `crates catalogue build` from a generated
/// dump, a collection seeded with copies, a want and a price, and the loopback Discogs
/// server counting every request.
@Suite("crates check (process)", .processTimeLimit)
struct CheckCommandTests {
    /// Releases 1 and 2 are two pressings of master 100; 3 is wanted; 4 is new; 5 and 6
    /// share a barcode (a copy of 5 is owned).
    static let otherPressing = Fixtures.gtin(8_310_001)
    static let owned = Fixtures.gtin(8_310_002)
    static let wanted = Fixtures.gtin(8_310_003)
    static let new = Fixtures.gtin(8_310_004)
    static let shared = Fixtures.gtin(8_310_005)
    static let unknown = Fixtures.gtin(8_310_099)

    static func release(_ id: Int, master: Int? = nil, country: String = "UK", year: Int = 1973) -> Release {
        Fixtures.catalogueRelease(id, master: master, genre: "Rock", country: country, year: year)
    }

    struct Fixture {
        var sandbox: CommandSandbox
        var server: DiscogsTestServer
        var catalogue: String
        var ownedCopy: Int64
        var sharedCopy: Int64
    }

    /// A signed-in sandbox, the catalogue, and the collection: a copy of release 2 in
    /// "Room › Shelf" graded VG+/VG, a copy of 5, release 3 on the wantlist with notes, a
    /// price for release 1. The file checkpointed, so that its bytes are the collection.
    static func fixture() async throws -> Fixture {
        var sandbox = try CommandSandbox()
        let server = try await DiscogsTestServer.start(token: "check-token")
        sandbox.api = server.base
        try await sandbox.signIn(token: "check-token")
        let path = sandbox.directory.appendingPathComponent("discogs-catalogue.sqlite").path
        try await CatalogueFixture.build(
            [
                (release(1, master: 100), [otherPressing]), (release(2, master: 100, country: "US", year: 1979), [owned]),
                (release(3), [wanted]), (release(4), [new]), (release(5), [shared]), (release(6, country: "DE"), [shared]),
            ],
            at: path)
        let (ownedCopy, sharedCopy): (Int64, Int64)
        do {
            let store = try sandbox.openStore()
            let shelf = try await store.addLocation(name: "Shelf", in: try await store.addLocation(name: "Room", in: nil).id)
            var copy = NewRecord(gtin: owned, addMethod: .typed, locationID: shelf.id, release: release(2, master: 100, country: "US", year: 1979))
            copy.grading = CopyGrading(media: .veryGoodPlus, sleeve: .veryGood, rating: try Rating(4))
            ownedCopy = try await store.add(copy).id
            sharedCopy = try await store.add(NewRecord(gtin: shared, addMethod: .typed, release: release(5))).id
            _ = try await store.addWant(WantEntry(release: release(3), notes: "only the first press", rating: try Rating(5), addedAt: Seed.addedAt))
            try await store.storeReleasePrice(releaseID: 1, currency: "GBP", lowestPrice: 12.4, forSale: 14, at: Date().addingTimeInterval(-3 * 86_400))
        }
        #expect(CollectionStore.checkpoint(path: sandbox.database, timeout: 10))
        try await server.reset()  // the sign-in's request is not the check's
        return Fixture(sandbox: sandbox, server: server, catalogue: path, ownedCopy: ownedCopy, sharedCopy: sharedCopy)
    }

    /// The collection's bytes: the file and its -wal.
    static func bytes(_ database: String) -> [Data] {
        [database, database + "-wal"].map { (try? Data(contentsOf: URL(fileURLWithPath: $0))) ?? Data() }
    }

    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("each verdict from the catalogue and the collection: no request, nothing written")
    func verdicts() async throws {
        let fixture = try await Self.fixture()
        let before = Self.bytes(fixture.sandbox.database)
        let result = try await fixture.sandbox.crates(
            ["check", "--json", "--catalogue", fixture.catalogue]
                + [Self.otherPressing, Self.owned, Self.wanted, Self.new, Self.shared].map(\.canonical))
        #expect(result.status == 0, "\(result)")
        let answers = try Self.objects(result.stdout)
        #expect(answers.map { $0["verdict"] as? String } == ["otherPressing", "owned", "wanted", "new", "owned"])

        // Another pressing of the same master: the copy, and how the pressings differ.
        let other = try #require((answers[0]["otherPressings"] as? [[String: Any]])?.first)
        #expect(other["id"] as? Int == Int(fixture.ownedCopy) && other["release"] as? Int == 2 && other["master"] as? Int == 100)
        #expect((other["differences"] as? [String])?.contains("country US, not UK") == true, "\(other)")
        let price = try #require((answers[0]["price"] as? [String: Any])?["1"] as? [String: Any])
        #expect(price["lowest"] as? Double == 12.4 && price["currency"] as? String == "GBP" && price["forSale"] as? Int == 14)
        #expect(price["asOf"] is String)

        // Owned: the copy's place, grades and rating.
        let copy = try #require((answers[1]["owned"] as? [[String: Any]])?.first)
        #expect(copy["place"] as? String == "Room › Shelf" && copy["media"] as? String == "Very Good Plus (VG+)")
        #expect(copy["sleeve"] as? String == "Very Good (VG)" && copy["rating"] as? Int == 4 && copy["release"] as? Int == 2)
        let release = try #require((answers[1]["releases"] as? [[String: Any]])?.first)
        #expect(release["master"] as? Int == 100 && release["source"] as? String == "catalogue" && release["country"] as? String == "US")

        // Wanted: the wantlist's notes and rating.
        let want = try #require((answers[2]["wanted"] as? [[String: Any]])?.first)
        #expect(want["release"] as? Int == 3 && want["notes"] as? String == "only the first press" && want["rating"] as? Int == 5)

        // Ambiguous: every pressing with its own verdict.
        let pressings = try #require(answers[4]["releases"] as? [[String: Any]])
        #expect(pressings.map { $0["id"] as? Int } == [5, 6])
        #expect(pressings.map { $0["verdict"] as? String } == ["owned", "new"])

        #expect(try await fixture.server.stats().requests == 0)
        #expect(Self.bytes(fixture.sandbox.database) == before, "the check wrote to the collection")
    }

    @Test("Discogs unreachable: the catalogue still answers with no request; a code it lacks is unknown, exit 4")
    func offline() async throws {
        let fixture = try await Self.fixture()
        await fixture.server.stop()
        let before = Self.bytes(fixture.sandbox.database)
        let known = try await fixture.sandbox.crates(["check", "--json", "--catalogue", fixture.catalogue, Self.owned.canonical])
        #expect(known.status == 0, "\(known)")
        let unknown = try await fixture.sandbox.crates(["check", "--json", "--catalogue", fixture.catalogue, Self.unknown.canonical])
        #expect(unknown.status == 4, "\(unknown)")
        let answer = try #require(try Self.objects(unknown.stdout).first)
        #expect(answer["verdict"] as? String == "unknown")
        #expect(answer["note"] as? String == "not in the catalogue of 2026-06-01; Discogs cannot be reached", "\(answer)")
        #expect(Self.bytes(fixture.sandbox.database) == before)
    }

    @Test("a code the catalogue lacks is looked up on Discogs once when it can be reached; still nothing added")
    func online() async throws {
        let fixture = try await Self.fixture()
        let before = Self.bytes(fixture.sandbox.database)
        // A barcode the loopback server knows, and the catalogue does not.
        let result = try await fixture.sandbox.crates(["check", "--json", "--catalogue", fixture.catalogue, "5099750442227"])
        #expect(result.status == 0, "\(result)")
        let answer = try #require(try Self.objects(result.stdout).first)
        #expect(answer["verdict"] as? String == "new", "\(answer)")
        #expect((answer["releases"] as? [[String: Any]])?.first?["source"] as? String == "discogs")
        #expect(try await fixture.server.stats().requests == 1)
        #expect(Self.bytes(fixture.sandbox.database) == before)
    }

    @Test("codes that are not a record's are refused (exit 2) and never looked up; standard input answers each line")
    func refusedAndStandardInput() async throws {
        let fixture = try await Self.fixture()
        let isbn = try await fixture.sandbox.crates(["check", "--catalogue", fixture.catalogue, "9781617292156"])
        #expect(isbn.status == 2, "\(isbn)")
        #expect(isbn.stderr.contains("an ISBN"), "\(isbn)")
        let label = try await fixture.sandbox.crates(["check", "--catalogue", fixture.catalogue, try #require(LabelCode(kind: .copy, id: 12)).gtin.canonical])
        #expect(label.status == 2 && label.stderr.contains("record 12"), "\(label)")

        let input = [Self.owned.canonical, "", "  \(Self.new.canonical)  ", "not a code"].joined(separator: "\n") + "\n"
        let piped = try await fixture.sandbox.crates(["check", "--catalogue", fixture.catalogue], stdin: Data(input.utf8))
        #expect(piped.status == 2, "\(piped)")
        let lines = piped.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.map { $0[2] } == ["owned", "new"], "\(piped)")
        #expect(lines.first?[3] == "2" && lines.first?[13] == "Room › Shelf", "\(piped)")
        #expect(try await fixture.server.stats().requests == 0)
    }

    @Test("no catalogue: says how to build one, and still answers from the collection and the wantlist")
    func withoutCatalogue() async throws {
        let fixture = try await Self.fixture()
        await fixture.server.stop()
        let missing = fixture.sandbox.directory.appendingPathComponent("none.sqlite").path
        let result = try await fixture.sandbox.crates(["check", "--json", "--catalogue", missing, Self.owned.canonical, "r3"])
        #expect(result.stderr.contains("crates catalogue fetch"), "\(result)")
        let answers = try Self.objects(result.stdout)
        #expect(answers.first?["verdict"] as? String == "owned", "\(result)")
        #expect((answers.first?["owned"] as? [[String: Any]])?.first?["place"] as? String == "Room › Shelf")
        #expect(answers.last?["verdict"] as? String == "wanted", "\(result)")
        #expect((answers.last?["releases"] as? [[String: Any]])?.first?["source"] as? String == "collection", "\(result)")
        #expect(result.status == 0, "\(result)")
    }
}

/// The collection's marks in `crates lookup` and `crates search` (`owned`, `wanted` in
/// their JSON), from the same fixture.
@Suite("Owned and wanted marks in lookup and search (process)", .processTimeLimit)
struct ListingMarksCommandTests {
    @Test("lookup --json and search --json say what the collection holds of each release")
    func marks() async throws {
        let fixture = try await CheckCommandTests.fixture()
        let lookup = try await fixture.sandbox.crates(["lookup", "--json", "--catalogue", fixture.catalogue, CheckCommandTests.owned.canonical])
        #expect(lookup.status == 0, "\(lookup)")
        let answer = try #require(try CheckCommandTests.objects(lookup.stdout).first)
        let release = try #require((answer["releases"] as? [[String: Any]])?.first)
        #expect((release["owned"] as? [String: Any])?["copies"] as? Int == 1, "\(release)")
        #expect((release["owned"] as? [String: Any])?["place"] as? String == "Room › Shelf")
        #expect(release["wanted"] as? Bool == false)

        let search = try await fixture.sandbox.crates(["search", "--json", "--catalogue", fixture.catalogue, "--catno", "CAT 3"])
        #expect(search.status == 0, "\(search)")
        let hit = try #require(try CheckCommandTests.objects(search.stdout).first)
        #expect(hit["id"] as? Int == 3 && hit["wanted"] as? Bool == true && hit["owned"] is NSNull, "\(hit)")
        #expect(try await fixture.server.stats().requests == 0)
    }
}

/// `crates check` with a catalogue that cannot be read, and `--search`.
@Suite("crates check: a damaged catalogue, --search (process)", .processTimeLimit)
struct CheckCatalogueCommandTests {
    @Test("a file that is no catalogue: says how to build one, and the collection and wantlist still answer")
    func damagedCatalogue() async throws {
        let fixture = try await CheckCommandTests.fixture()
        let bad = fixture.sandbox.directory.appendingPathComponent("damaged.sqlite")
        try Data("not a catalogue at all".utf8).write(to: bad)
        let result = try await fixture.sandbox.crates(["check", "--json", "--catalogue", bad.path, CheckCommandTests.owned.canonical])
        #expect(result.stderr.contains("`crates catalogue fetch` builds a new one"), "\(result)")
        #expect(try CheckCommandTests.objects(result.stdout).first?["verdict"] as? String == "owned", "\(result)")
        #expect(result.status == 0, "\(result)")
    }

    @Test("--search: the catalogue's releases for free text, each with its verdict, no request")
    func search() async throws {
        let fixture = try await CheckCommandTests.fixture()
        let result = try await fixture.sandbox.crates(["check", "--json", "--catalogue", fixture.catalogue, "--search", "Title 100"])
        #expect(result.status == 0, "\(result)")
        let answer = try #require(try CheckCommandTests.objects(result.stdout).first)
        let releases = try #require(answer["releases"] as? [[String: Any]])
        #expect(Set(releases.compactMap { $0["id"] as? Int }) == [1, 2], "\(answer)")
        #expect(answer["verdict"] as? String == "owned")
        #expect(try await fixture.server.stats().requests == 0)
    }
}
