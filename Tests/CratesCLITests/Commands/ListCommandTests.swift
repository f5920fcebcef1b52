import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates list`: the collection in the TUI's order, filtered, as tab-separated lines or JSON.
@Suite("crates list (process)", .processTimeLimit)
struct ListCommandTests {
    /// Electronic (two titles), Rock (two titles, one copy twice), and three unmatched.
    /// Returns the record ids in the order the list must show them.
    static func seedSections(_ store: CollectionStore) async throws -> [Int64] {
        let zebra = Seed.release(10, artist: "Zed", title: "Zebra", genre: "Rock")
        let apple = Seed.release(11, artist: "Ann", title: "apple", genre: "Rock")
        let techno = Seed.release(12, artist: "Tess", title: "Techno", genre: "Electronic")
        let ambient = Seed.release(13, artist: "Ada", title: "Ambient", genre: "Electronic")
        let unmatchedA = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed))
        let rockZ = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addedAt: Seed.addedAt, addMethod: .typed, release: zebra))
        let rockA = try await store.add(NewRecord(gtin: Fixtures.gtin(3), addedAt: Seed.addedAt, addMethod: .typed, release: apple))
        let unmatchedB = try await store.add(NewRecord(gtin: Fixtures.gtin(4), addedAt: Seed.addedAt, addMethod: .wedge))
        let elecT = try await store.add(NewRecord(gtin: Fixtures.gtin(5), addedAt: Seed.addedAt, addMethod: .typed, release: techno))
        let rockA2 = try await store.add(NewRecord(gtin: Fixtures.gtin(3), addedAt: Seed.addedAt, addMethod: .typed, release: apple))
        let elecA = try await store.add(NewRecord(gtin: Fixtures.gtin(6), addedAt: Seed.addedAt, addMethod: .typed, release: ambient))
        let unmatchedC = try await store.add(NewRecord(gtin: Fixtures.gtin(7), addedAt: Seed.addedAt, addMethod: .typed))
        return [elecA, elecT, rockA, rockA2, rockZ, unmatchedA, unmatchedB, unmatchedC].map(\.id)
    }

    @Test("every record, one line each, in the TUI's order: sections by name, Unknown last in added order")
    func order() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let expected = try await Self.seedSections(store)
        // The TUI's list reads the store's sections: the same order.
        #expect(try await store.sections().flatMap { $0.rows.map(\.recordID) } == expected)
        let result = try await sandbox.crates(["list"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.map { Int64($0[0]) } == expected)
        #expect(lines.allSatisfy { $0.count == 14 })
        #expect(lines.first == [
            String(expected[0]), Fixtures.gtin(6).canonical, "matched", "Electronic", "Ada", "Ambient", "CD, Album", "1997",
            "", "", "13", "2024-01-31T12:34:56Z", "", "",
        ])
        #expect(lines.last == [String(expected[7]), Fixtures.gtin(7).canonical, "pending", "Unknown", "", "", "", "", "", "", "", "2024-01-31T12:34:56Z", "", ""])
    }

    @Test("--genre (any case, the exact section name) and --state narrow the list")
    func filters() async throws {
        let sandbox = try CommandSandbox()
        let expected = try await Self.seedSections(try sandbox.openStore())
        let rock = try await sandbox.crates(["list", "--genre", "rOCK"])
        #expect(rock.status == 0, "\(rock)")
        #expect(rock.stdoutLines.compactMap { Int64($0.prefix { $0 != "\t" }) } == Array(expected[2...4]))
        let two = try await sandbox.crates(["list", "--genre", "electronic", "--genre", "unknown"])
        #expect(two.status == 0, "\(two)")
        #expect(two.stdoutLines.compactMap { Int64($0.prefix { $0 != "\t" }) } == Array(expected[0...1]) + Array(expected[5...7]))
        let pending = try await sandbox.crates(["list", "--state", "pending"])
        #expect(pending.status == 0, "\(pending)")
        #expect(pending.stdoutLines.compactMap { Int64($0.prefix { $0 != "\t" }) } == Array(expected[5...7]))
        let both = try await sandbox.crates(["list", "--state", "MATCHED,pending", "--genre", "Rock"])
        #expect(both.status == 0, "\(both)")
        #expect(both.stdoutLines.count == 3)
        // Not a prefix match, and a section nobody has is said on stderr, exit 0.
        let typo = try await sandbox.crates(["list", "--genre", "Roc"])
        #expect(typo.status == 0, "\(typo)")
        #expect(typo.stdout.isEmpty)
        #expect(typo.stderr.contains("no section is named \"Roc\" (sections: Electronic, Rock, Unknown)"), "\(typo)")
    }

    /// Queen 1975 vinyl on EMI, The Beatles 1969 vinyl on Apple, Motörhead 1980 CD on Bronze
    /// (in Crate 2 of the Living Room), and a UPC-A not looked up yet.
    static func seedRock(_ store: CollectionStore) async throws -> (queen: Int64, beatles: Int64, motorhead: Int64, upc: Int64) {
        let queen = Seed.release(
            20, artist: "Queen", title: "A Night At The Opera", genre: "Rock", labels: [.init(name: "EMI", catno: "EMTC 103")],
            formats: ["Vinyl, LP, Album"], year: 1975)
        let beatles = Seed.release(
            21, artist: "The Beatles", title: "Abbey Road", genre: "Rock", labels: [.init(name: "Apple Records", catno: "PCS 7088")],
            formats: ["Vinyl, LP, Album"], year: 1969)
        let motorhead = Seed.release(
            22, artist: "Motörhead", title: "Ace Of Spades", genre: "Rock", labels: [.init(name: "Bronze", catno: "BRON 531")],
            formats: ["CD, Album, Reissue"], year: 1980)
        let q = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addedAt: Seed.addedAt, addMethod: .typed, release: queen))
        let b = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addedAt: Seed.addedAt.addingTimeInterval(1), addMethod: .typed, release: beatles))
        let m = try await store.add(NewRecord(gtin: Fixtures.gtin(3), addedAt: Seed.addedAt.addingTimeInterval(2), addMethod: .typed, release: motorhead))
        let u = try await store.add(NewRecord(gtin: try GTIN(parsing: "074644022513"), addedAt: Seed.addedAt, addMethod: .typed))
        let room = try await store.addLocation(name: "Living Room", in: nil)
        let crate = try await store.addLocation(name: "Crate 2", in: room.id)
        _ = try await store.moveRecords([m.id], to: crate.id)
        return (q.id, b.id, m.id, u.id)
    }

    @Test("--reverse turns the order round within each section; --flat drops the sections: the latest added first")
    func reverseAndFlat() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await Self.seedRock(try sandbox.openStore())
        func listed(_ arguments: [String]) async throws -> [Int64] {
            let result = try await sandbox.crates(["list"] + arguments)
            #expect(result.status == 0, "\(result)")
            return result.stdoutLines.compactMap { $0.split(separator: "\t").first.flatMap { Int64($0) } }
        }
        #expect(try await listed(["--sort", "added"]) == [ids.queen, ids.beatles, ids.motorhead, ids.upc])
        #expect(try await listed(["--sort", "added", "--reverse"]) == [ids.motorhead, ids.beatles, ids.queen, ids.upc])
        #expect(try await listed(["--sort", "added", "--reverse", "--flat"]) == [ids.motorhead, ids.beatles, ids.queen, ids.upc])
        #expect(try await listed(["--sort", "title", "--flat"]) == [ids.queen, ids.beatles, ids.motorhead, ids.upc], "A Night…, Abbey…, Ace…, then the unmatched")
        #expect(try await listed(["--sort", "added", "--reverse", "--flat", "format:lp"]) == [ids.beatles, ids.queen])
    }

    @Test("--sort: by artist as shops file it (the default), title, year, added, label, place; a bad one names them")
    func sort() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await Self.seedRock(try sandbox.openStore())
        func listed(_ arguments: [String]) async throws -> [Int64] {
            let result = try await sandbox.crates(["list", "--genre", "rock"] + arguments)
            #expect(result.status == 0, "\(result)")
            return result.stdoutLines.compactMap { Int64($0.prefix { $0 != "\t" }) }
        }
        // The Beatles under B, before Motörhead and Queen.
        #expect(try await listed([]) == [ids.beatles, ids.motorhead, ids.queen])
        #expect(try await listed(["--sort", "artist"]) == [ids.beatles, ids.motorhead, ids.queen])
        #expect(try await listed(["--sort", "title"]) == [ids.queen, ids.beatles, ids.motorhead])
        #expect(try await listed(["--sort", "year"]) == [ids.beatles, ids.queen, ids.motorhead])
        #expect(try await listed(["--sort", "added"]) == [ids.queen, ids.beatles, ids.motorhead])
        #expect(try await listed(["--sort", "label"]) == [ids.beatles, ids.motorhead, ids.queen])
        // No place first (still to shelve), then by place.
        #expect(try await listed(["--sort", "place"]) == [ids.beatles, ids.queen, ids.motorhead])
        let bad = try await sandbox.crates(["list", "--sort", "colour"])
        #expect(bad.status == 64, "\(bad)")
        #expect(ListOrder.allCases.allSatisfy { bad.stderr.contains("- \($0.rawValue)") }, "\(bad)")
    }

    @Test("--year Y or Y1-Y2 and --format narrow the list; a bad year says how to write one")
    func yearAndFormat() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await Self.seedRock(try sandbox.openStore())
        func listed(_ arguments: [String]) async throws -> [Int64] {
            let result = try await sandbox.crates(["list"] + arguments)
            #expect(result.status == 0, "\(result)")
            return result.stdoutLines.compactMap { Int64($0.prefix { $0 != "\t" }) }
        }
        #expect(try await listed(["--year", "1975"]) == [ids.queen])
        #expect(try await listed(["--year", "1969-1975"]) == [ids.beatles, ids.queen])
        #expect(try await listed(["--format", "vinyl"]) == [ids.beatles, ids.queen])
        #expect(try await listed(["--format", "CD", "--year", "1970-1990"]) == [ids.motorhead])
        // A whole word of the format: "lp" is not in "Reissue"'s letters by chance.
        #expect(try await listed(["--format", "lp", "--sort", "year"]) == [ids.beatles, ids.queen])
        let bad = try await sandbox.crates(["list", "--year", "seventies"])
        #expect(bad.status == 64, "\(bad)")
        #expect(bad.stderr.contains("--year seventies: give a year (1977) or two joined by a hyphen (1975-1979)"), "\(bad)")
    }

    @Test("the place column names each copy's place; with --location, which place inside it; a UPC-A stays canonical")
    func placeColumn() async throws {
        let sandbox = try CommandSandbox()
        let ids = try await Self.seedRock(try sandbox.openStore())
        let all = try await sandbox.crates(["list"])
        #expect(all.status == 0, "\(all)")
        let lines = all.stdoutLines.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.first { $0[0] == String(ids.motorhead) }?.last == "Living Room › Crate 2")
        #expect(lines.first { $0[0] == String(ids.queen) }?.last == "")
        // Scripts get the canonical digits, never the printed form.
        #expect(lines.first { $0[0] == String(ids.upc) }?[1] == "0074644022513")
        let room = try await sandbox.crates(["list", "--location", "Living Room"])
        #expect(room.status == 0, "\(room)")
        #expect(room.stdoutLines.count == 1)
        #expect(room.stdoutLines.first?.hasSuffix("\tLiving Room › Crate 2") == true, "\(room)")
    }

    @Test("a bad --state names the valid ones (usage error)")
    func badState() async throws {
        let result = try await CommandSandbox().crates(["list", "--state", "done"])
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(
            "unknown state \"done\": use one of pending, lookingUp, matched, ambiguous, notFound, failed, skipped"), "\(result)")
    }

    @Test("--json: one object per line, same order, with the release when matched")
    func json() async throws {
        let sandbox = try CommandSandbox()
        let expected = try await Self.seedSections(try sandbox.openStore())
        let result = try await sandbox.crates(["list", "--json"])
        #expect(result.status == 0, "\(result)")
        let objects = try result.stdoutLines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.compactMap { ($0["id"] as? NSNumber)?.int64Value } == expected)
        let first = try #require(objects.first)
        #expect(first["section"] as? String == "Electronic")
        #expect((first["release"] as? [String: Any])?["title"] as? String == "Ambient")
        #expect((first["release"] as? [String: Any])?["discogs"] == nil)
        #expect(objects.last?["release"] is NSNull)
        #expect(objects.last?["addMethod"] as? String == "typed")
    }

    @Test("an empty collection prints nothing and exits 0")
    func empty() async throws {
        let sandbox = try CommandSandbox()
        for arguments in [["list"], ["list", "--json"]] {
            let result = try await sandbox.crates(arguments)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result)")
        }
    }

    @Test("more records than a page: each exactly once, in order")
    func manyPages() async throws {
        let sandbox = try CommandSandbox()
        let store = try sandbox.openStore()
        let genres = ["Rock", "Jazz", "Electronic"]
        var records: [NewRecord] = []
        for n in 0..<1_234 {
            let release = n % 4 == 0 ? nil : Seed.release(
                1_000 + n % 50, artist: "Artist \(n % 50)", title: "Title \(n % 50)", genre: genres[n % 50 % 3])
            records.append(NewRecord(gtin: Fixtures.gtin(100 + n), addedAt: Seed.addedAt, addMethod: .import, release: release))
        }
        _ = try await store.addAll(records)
        let expected = try await store.sections().flatMap { $0.rows.map(\.recordID) }
        // Well over a pipe's 64 KB: all of it must come through the runner.
        let result = try await sandbox.crates(["list"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.utf8.count > 100_000)
        let ids = result.stdoutLines.compactMap { Int64($0.prefix { $0 != "\t" }) }
        #expect(ids.count == 1_234)
        #expect(ids == expected)
    }
}
