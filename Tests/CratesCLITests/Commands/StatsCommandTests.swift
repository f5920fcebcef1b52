import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates stats`: its numbers are the list's, counted another way (SQL aggregates).
@Suite("crates stats (process)", .processTimeLimit)
struct StatsCommandTests {
    /// A generated collection with every kind of copy: matched (several of one release),
    /// pending, failed, being looked up, not found, entered by hand, without a barcode, in
    /// places, graded, with the collector's own values over Discogs', over several genres,
    /// styles, formats, years, countries, labels and months.
    static func seed(_ store: CollectionStore) async throws {
        let releases = [
            Release(id: 1, artist: "A", title: "One", genres: ["Rock"], styles: ["Punk", "Post-Punk"], formats: ["Vinyl, LP, Album"],
                    year: 1979, country: "UK", labels: [.init(name: "Factory", catno: "FACT 10")]),
            Release(id: 2, artist: "B", title: "Two", genres: ["Electronic", "Pop"], styles: ["Techno"], formats: ["CD", "DVD"],
                    year: 1994, country: "Germany", labels: [.init(name: "Tresor", catno: "T1"), .init(name: "NovaMute", catno: "N1")]),
            Release(id: 3, artist: "C", title: "Three", genres: ["Jazz"], styles: ["Modal", "Hard Bop", "Modal"], formats: ["Vinyl"],
                    year: 1959, country: "US", labels: [.init(name: "Blue Note", catno: "BN1"), .init(name: "Blue Note", catno: "BN2")]),
            Release(id: 4, artist: "D", title: "Four", genres: ["Rock"], styles: [], formats: ["Cassette"],
                    year: nil, country: nil, labels: []),
            Release(id: 5, artist: "E", title: "Five", genres: ["Electronic"], styles: ["Ambient"], formats: ["Vinyl", "Vinyl"],
                    year: 2001, country: "UK", labels: [.init(name: "Warp", catno: "WARP1")]),
        ]
        var random = SplitMix(seed: 21)
        let months = (0..<7).map { Date(timeIntervalSince1970: 1_704_067_200 + Double($0) * 2_678_400 + 3600) }
        let places = [nil, "Living Room", "Living Room › Shelf 2", "Cellar"]
        let grades: [CopyGrading] = [
            .none, CopyGrading(media: .veryGoodPlus), CopyGrading(media: .mint, sleeve: .nearMint),
            CopyGrading(sleeve: .veryGood),
        ]
        for n in 0..<60 {
            let kind = random.next(8)
            let release = kind < 4 ? releases[random.next(releases.count)] : nil
            var collector = RecordFields.none
            if kind == 7 {
                collector = RecordFields(
                    artist: "Own \(n)", title: "By hand \(n % 3)", genre: ["Folk", "Rock", nil][n % 3],
                    year: [1968, nil, 2023][n % 3], format: ["LP", nil][n % 2], label: ["Own Label", nil][n % 2],
                    country: ["France", nil][n % 2])
            } else if release != nil, random.next(4) == 0 {
                collector = RecordFields(genre: "Reggae", year: 1985, format: "7\"", label: "Trojan", country: "Jamaica")
            }
            let withoutBarcode = kind == 7 || (release != nil && random.next(5) == 0)
            _ = try await store.add(NewRecord(
                gtin: withoutBarcode ? nil : Fixtures.gtin(1000 + n), addedAt: months[random.next(months.count)],
                addMethod: kind == 7 ? .manual : .typed, location: places[random.next(places.count)], release: release,
                collector: collector, handEntered: kind == 7, grading: grades[random.next(grades.count)]))
        }
        // Some of the pending ones fail, are not found, or are being looked up.
        let outcomes: [LookupOutcome?] = [
            .failed(message: "down", retryAt: Date(timeIntervalSinceNow: 3600)), .notFound, nil,
            .failed(message: "down", retryAt: Date(timeIntervalSinceNow: 3600)),
        ]
        for outcome in outcomes {
            guard let job = try await store.claimNext(now: Date(), lease: 3600) else { break }
            if let outcome { try await store.complete(job, with: outcome) }
        }
    }

    /// The counts `crates list --json` gives, computed here one line at a time.
    static func expected(fromList lines: [String]) throws -> [String: Any] {
        var totals: [String: Int] = [:]
        var dimensions: [String: [String: Int]] = [:]
        var releases: Set<Int> = []
        func count(_ dimension: String, _ key: String?) {
            guard let key, !key.isEmpty else { return }
            dimensions[dimension, default: [:]][key, default: 0] += 1
        }
        for line in lines {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let release = record["release"] as? [String: Any]
            let collector = record["collector"] as? [String: Any] ?? [:]
            let state = try #require(record["state"] as? String)
            totals["copies", default: 0] += 1
            if let id = release?["id"] as? Int { releases.insert(id) } else { totals["records", default: 0] += 1 }
            totals["matched", default: 0] += state == "matched" ? 1 : 0
            totals["waiting", default: 0] += ["pending", "lookingUp", "failed"].contains(state) ? 1 : 0
            totals["handEntered", default: 0] += state == "handEntered" ? 1 : 0
            totals["withoutBarcode", default: 0] += record["gtin"] is NSNull ? 1 : 0
            let location = record["location"] as? [String: Any]
            totals["inPlaces", default: 0] += location == nil ? 0 : 1
            let graded = !(record["mediaCondition"] is NSNull) || !(record["sleeveCondition"] is NSNull)
            totals["graded", default: 0] += graded ? 1 : 0

            count("genre", record["section"] as? String)
            for style in Set(release?["styles"] as? [String] ?? []) { count("style", style) }
            let year = collector["year"] as? Int ?? release?["year"] as? Int
            count("year", year.map(String.init))
            count("decade", year.map { "\($0 / 10 * 10)s" })
            let formats = (release?["formats"] as? [String] ?? []).joined(separator: " + ")
            // By medium, the first level of the format chart.
            let format = collector["format"] as? String ?? formats
            count("format", format.isEmpty ? nil : FormatMedium.of(format).rawValue)
            count("country", collector["country"] as? String ?? release?["country"] as? String)
            if let label = collector["label"] as? String {
                count("label", label)
            } else {
                let labels = (release?["labels"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                for label in Set(labels) { count("label", label) }
            }
            count("location", location?["path"] as? String)
            count("added", (record["addedAt"] as? String).map { String($0.prefix(7)) })
            count("grade", record["mediaCondition"] as? String)
        }
        totals["records", default: 0] += releases.count
        return ["totals": totals, "dimensions": dimensions]
    }

    /// The JSON's arrays as dictionaries, checking their order on the way: time order for
    /// decades and months, else largest first.
    static func actual(_ stdout: String) throws -> (totals: [String: Int], dimensions: [String: [String: Int]]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let totals = try #require(object["totals"] as? [String: Int])
        var dimensions: [String: [String: Int]] = [:]
        for dimension in StatisticsDimension.allCases {
            let entries = try #require(object[dimension.rawValue] as? [[String: Any]], "\(dimension)")
            let pairs = entries.compactMap { entry in (entry["key"] as? String).flatMap { key in (entry["count"] as? Int).map { (key, $0) } } }
            #expect(pairs.count == entries.count)
            if dimension.inTimeOrder {
                #expect(pairs.map(\.0) == pairs.map(\.0).sorted(), "\(dimension)")
            } else {
                #expect(pairs.map(\.1) == pairs.map(\.1).sorted(by: >), "\(dimension)")
            }
            dimensions[dimension.rawValue] = Dictionary(pairs) { a, _ in a }
        }
        return (totals, dimensions)
    }

    @Test("stats --json agrees with list --json: totals and every dimension, with and without a filter")
    func agreesWithList() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(try sandbox.openStore())
        for filter in [[], ["--genre", "rock"], ["--location", "Living Room"], ["--genre", "Electronic", "--state", "matched"]] {
            let list = try await sandbox.crates(["list", "--json"] + filter)
            #expect(list.status == 0, "\(list)")
            let stats = try await sandbox.crates(["stats", "--json"] + filter)
            #expect(stats.status == 0, "\(stats)")
            #expect(stats.stdoutLines.count == 1)
            let expected = try Self.expected(fromList: list.stdoutLines)
            let actual = try Self.actual(stats.stdout)
            #expect(actual.totals == expected["totals"] as? [String: Int], "\(filter)")
            for dimension in StatisticsDimension.allCases {
                let want = (expected["dimensions"] as? [String: [String: Int]])?[dimension.rawValue] ?? [:]
                #expect(actual.dimensions[dimension.rawValue] == want, "\(filter) \(dimension)")
            }
            if filter.isEmpty {
                // The generated collection has every kind of copy the totals count.
                let totals = actual.totals
                for name in ["matched", "waiting", "handEntered", "withoutBarcode", "inPlaces", "graded"] {
                    #expect((totals[name] ?? 0) > 0, "\(name)")
                }
                #expect((totals["records"] ?? 0) < (totals["copies"] ?? 0))
                #expect(actual.dimensions["added"]?.count ?? 0 > 3)
            }
        }
    }

    @Test("the charts: one per dimension asked, bars in eighth blocks within COLUMNS, 40 wide")
    func charts() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(try sandbox.openStore())
        var environment = sandbox.environment
        environment["COLUMNS"] = "40"
        let result = try await ProcessRunner.crates(["stats", "--by", "decade,genre"], environment: environment)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first?.hasPrefix("records") == true, "\(result)")
        #expect(lines.contains("Decades") && lines.contains("Genres") && !lines.contains("Styles"), "\(result)")
        let bars = lines.filter { $0.contains("█") || $0.contains("▏") }
        #expect(bars.count >= 4)
        #expect(bars.allSatisfy { $0.count <= 40 }, "\(bars)")
        #expect(bars.contains { $0.count == 40 })
        let decades = Array(lines.drop { $0 != "Decades" }.dropFirst().prefix { !$0.isEmpty })
        #expect(decades.map { String($0.prefix(5)) } == ["1950s", "1960s", "1970s", "1980s", "1990s", "2000s", "2020s"].filter { decade in
            decades.contains { $0.hasPrefix(decade) }
        })
        #expect(decades.count >= 3, "\(decades)")
    }

    @Test("formats by medium, each with its descriptions under it, in text and JSON")
    func formatsByMedium() async throws {
        let sandbox = try CommandSandbox()
        try await Self.seed(try sandbox.openStore())
        let text = try await sandbox.crates(["stats", "--by", "format"])
        #expect(text.status == 0, "\(text)")
        let chart = Array(text.stdoutLines.drop { $0 != "Formats" }.dropFirst().prefix { !$0.isEmpty })
        #expect(chart.first?.hasPrefix("LP ") == true, "\(chart)")
        #expect(chart.contains { $0.hasPrefix("  Album ") }, "\(chart)")
        #expect(!chart.contains { $0.hasPrefix("Vinyl") }, "whole format texts are not counted: \(chart)")
        let json = try await sandbox.crates(["stats", "--json", "--by", "format"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let formats = try #require(object["format"] as? [[String: Any]])
        let lp = try #require(formats.first { $0["key"] as? String == "LP" })
        let descriptions = try #require(lp["descriptions"] as? [[String: Any]])
        #expect(descriptions.first?["key"] as? String == "Album", "\(lp)")
        #expect(Set(formats.compactMap { $0["key"] as? String }).isSubset(of: FormatMedium.allCases.map(\.rawValue)))
    }

    @Test("a bad --by names the dimensions (usage error)")
    func badDimension() async throws {
        let result = try await CommandSandbox().crates(["stats", "--by", "colour"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--by colour: not a dimension; use one of genre, style, decade"), "\(result)")
    }
}

/// A small deterministic generator (SplitMix64), so that the generated collection is the
/// same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
