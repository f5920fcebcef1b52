import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesStore

/// The query language run in the store: the UI's filter (`window`) and `crates list`
/// (`forEachPage`) keep the same records, whichever plan the filter takes.
@Suite("RecordQuery in the store")
struct RecordQueryStoreTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

    static func disc(
        _ id: Int, artist: String, title: String, year: Int, format: String, country: String = "UK",
        genres: [String] = ["Rock"], styles: [String] = ["Prog Rock"], label: String = "EMI", catno: String = "EMC 1"
    ) -> Release {
        Release(
            id: id, artist: artist, title: title, genres: genres, styles: styles, formats: [format], year: year, country: country,
            labels: [.init(name: label, catno: catno)], url: nil, thumbURL: nil, rawJSON: "{}")
    }

    /// Queen 1975 LP (VG+, ★4, in Crate A1, added a year ago), Queen 1986 CD (NM), Fleetwood
    /// Mac 1977 LP (G, in Shelf 1), Björk 1997 CD (US, ★2, added a week ago), one unmatched.
    static func collection() async throws -> (CollectionStore, [Int64], (shelf: Int64, crate: Int64)) {
        let (store, _) = try StoreKind.memory.make()
        let shelf = try await store.addLocation(name: "Shelf 1", in: nil)
        let crate = try await store.addLocation(name: "Crate A1", in: shelf.id)
        let day = 86_400.0
        let ids = try await store.addAll([
            NewRecord(
                gtin: Fixtures.gtin(1), addedAt: now.addingTimeInterval(-365 * day), addMethod: .typed, locationID: crate.id,
                release: disc(1, artist: "Queen", title: "A Night At The Opera", year: 1975, format: "Vinyl, LP, Album"),
                grading: CopyGrading(media: .veryGoodPlus, sleeve: .veryGood, rating: Rating(clamping: 4))),
            NewRecord(
                gtin: Fixtures.gtin(2), addedAt: now.addingTimeInterval(-100 * day), addMethod: .typed,
                release: disc(2, artist: "Queen", title: "A Kind Of Magic", year: 1986, format: "CD, Album", label: "Parlophone", catno: "CDP 7 46267 2"),
                grading: CopyGrading(media: .nearMint)),
            NewRecord(
                gtin: Fixtures.gtin(3), addedAt: now.addingTimeInterval(-50 * day), addMethod: .typed, locationID: shelf.id,
                release: disc(3, artist: "Fleetwood Mac", title: "Rumours", year: 1977, format: "Vinyl, LP", genres: ["Rock", "Pop"], styles: ["Soft Rock"], label: "Warner Bros. Records", catno: "BSK 3010"),
                grading: CopyGrading(media: .good)),
            NewRecord(
                gtin: Fixtures.gtin(4), addedAt: now.addingTimeInterval(-7 * day), addMethod: .typed,
                release: disc(4, artist: "Björk", title: "Homogenic", year: 1997, format: "CD, Album", country: "US", genres: ["Electronic"], styles: ["Trip Hop"], label: "One Little Indian", catno: "TPLP 71 CD"),
                grading: CopyGrading(rating: Rating(clamping: 2))),
            NewRecord(gtin: Fixtures.gtin(5), addedAt: now.addingTimeInterval(-1 * day), addMethod: .wedge),
        ])
        return (store, ids, (shelf.id, crate.id))
    }

    /// The ids the UI's filter keeps (each plan the store may take) and `crates list` keeps,
    /// checked to agree, sorted.
    static func kept(_ store: CollectionStore, _ text: String) async throws -> [Int64] {
        let query = try RecordQuery(parsing: text)
        var plans: [[Int64]] = []
        for plan in [nil, CollectionStore.FilterPlan.scan, .memory] as [CollectionStore.FilterPlan?] {
            let window = try await store.read { db in
                try CollectionStore.fetchWindow(
                    db, CollectionQuery(filter: text, window: RowWindow(offset: 0, limit: 100)), plan: plan)
            }
            #expect(window.filterError == nil, "\(text): \(window.filterError ?? "")")
            plans.append(window.rows.map(\.recordID).sorted())
        }
        let listed = LockedBox<[Int64]>([])
        try await store.forEachPage(ExportFilter(query: query), detail: .listing) { page in
            listed.withLock { $0 += page.map(\.record.id) }
        }
        #expect(Set(plans).count == 1, "\(text): the plans disagree: \(plans)")
        #expect(listed.withLock { $0.sorted() } == plans[0], "\(text): list and filter disagree")
        return plans[0]
    }

    @Test("every field keeps what it names; negation keeps the rest; terms are ANDed")
    func fields() async throws {
        let (store, ids, _) = try await Self.collection()
        let (lp75, cd86, lp77, cd97, pending) = (ids[0], ids[1], ids[2], ids[3], ids[4])
        func expectKept(_ text: String, _ expected: [Int64], sourceLocation: SourceLocation = #_sourceLocation) async throws {
            #expect(try await Self.kept(store, text) == expected.sorted(), "\(text)", sourceLocation: sourceLocation)
        }
        try await expectKept("artist:queen", [lp75, cd86])
        try await expectKept("artist:bjork", [cd97])
        try await expectKept("title:rumours", [lp77])
        try await expectKept("label:parlophone", [cd86])
        try await expectKept("catno:bsk", [lp77])
        try await expectKept("genre:pop", [lp77])
        try await expectKept("style:\"trip hop\"", [cd97])
        try await expectKept("format:lp", [lp75, lp77])
        try await expectKept("format:cd artist:queen", [cd86])
        try await expectKept("country:us", [cd97])
        try await expectKept("year:1970..1979", [lp75, lp77])
        try await expectKept("year:1980..", [cd86, cd97])
        try await expectKept("-year:", [pending])
        try await expectKept("state:pending", [pending])
        try await expectKept("media:VG+..", [lp75, cd86])
        try await expectKept("media:..VG", [lp77])
        try await expectKept("sleeve:", [lp75])
        try await expectKept("rating:4..", [lp75])
        try await expectKept("rating:", [lp75, cd97])
        try await expectKept("-rating:", [cd86, lp77, pending])
        try await expectKept("queen -opera", [cd86])
        try await expectKept("queen 1975", [lp75])
        try await expectKept("vinyl 1977 fleetwood", [lp77])
        try await expectKept("-artist:queen -format:", [pending])
        try await expectKept("artist:queen year:1970..1979 format:lp", [lp75])
    }

    @Test("place: the place and the places inside it; place: alone, any place; -place:, none")
    func places() async throws {
        let (store, ids, _) = try await Self.collection()
        #expect(try await Self.kept(store, "place:\"Shelf 1\"") == [ids[0], ids[2]])
        #expect(try await Self.kept(store, "place:\"Crate A1\"") == [ids[0]])
        #expect(try await Self.kept(store, "place:") == [ids[0], ids[2]])
        #expect(try await Self.kept(store, "-place:") == [ids[1], ids[3], ids[4]])
        // A place the collection lacks: the filter says so, with the term.
        let window = try await store.window(CollectionQuery(filter: "place:Attic", window: RowWindow(offset: 0, limit: 10)))
        #expect(window.rows.isEmpty)
        #expect(window.filterError?.hasPrefix("place:Attic: ") == true, "\(window.filterError ?? "")")
        await #expect(throws: StoreError.query(RecordQueryError(term: "place:Attic", kind: .place("no place is called “Attic” (see `crates location list`)")))) {
            try await store.forEachPage(ExportFilter(query: try RecordQuery(parsing: "place:Attic")), detail: .listing) { _ in }
        }
    }

    @Test("added: a month, a range of days, an age counted back from now")
    func added() async throws {
        let (store, ids, _) = try await Self.collection()
        let query = try RecordQuery(parsing: "added:..30d")
        let recent = try await store.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM record r WHERE \(try query.sql(db, now: Self.now)!.0) ORDER BY id",
                               arguments: try query.sql(db, now: Self.now)!.1)
        }
        #expect(recent == [ids[3], ids[4]])
        // 2026-11-18 less 50 days is 2026-09-29: September.
        #expect(try await Self.kept(store, "added:2026-09") == [ids[2]])
        #expect(try await Self.kept(store, "added:2025..2025") == [ids[0]])
    }

    @Test("wanted: keeps the copies whose release is on the wantlist, with words in its notes; a removed want is not")
    func wanted() async throws {
        let (store, ids, _) = try await Self.collection()
        let day = Self.now
        _ = try await store.addWant(WantEntry(releaseID: 1, artist: "Queen", title: "A Night At The Opera", notes: "an upgrade, NM sleeve", addedAt: day))
        _ = try await store.addWant(WantEntry(releaseID: 3, artist: "Fleetwood Mac", title: "Rumours", addedAt: day))
        _ = try await store.addWant(WantEntry(releaseID: 4, artist: "Björk", title: "Homogenic", addedAt: day))
        _ = try await store.removeWant(4, now: day)
        #expect(try await Self.kept(store, "wanted:") == [ids[0], ids[2]])
        #expect(try await Self.kept(store, "wanted:upgrade") == [ids[0]])
        #expect(try await Self.kept(store, "-wanted: artist:queen") == [ids[1]])
    }

    /// Six records holding "zappa" among 60 that do not, so that the trigram index narrows
    /// every query below (at most one record in ten): A 1969 US LP; B 1974 LP of "UK &
    /// Europe" on DiscReet; C a 1979 CD the collector calls a 1975 LP; D and E entered by
    /// hand, without a release (D a 1972 LP, E nothing but its artist and title); F "Zäppa",
    /// a 1977 German LP without styles or labels.
    static func zappa() async throws -> (CollectionStore, [String: Int64]) {
        let (store, _) = try StoreKind.memory.make()
        var records = (0..<60).map { n in
            NewRecord(gtin: Fixtures.gtin(100 + n), addMethod: .typed, release: disc(
                100 + n, artist: "Someone \(n)", title: "Filler \(n)", year: 1960 + n % 30, format: n % 2 == 0 ? "Vinyl, LP" : "CD"))
        }
        records += [
            NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, release: disc(
                1, artist: "Frank Zappa", title: "Hot Rats", year: 1969, format: "Vinyl, LP, Album", country: "US", styles: ["Jazz-Rock"])),
            NewRecord(gtin: Fixtures.gtin(2), addMethod: .typed, release: disc(
                2, artist: "Frank Zappa", title: "Apostrophe", year: 1974, format: "Vinyl, LP", country: "UK & Europe", label: "DiscReet")),
            NewRecord(gtin: Fixtures.gtin(3), addMethod: .typed, release: disc(
                3, artist: "Frank Zappa", title: "Sheik Yerbouti", year: 1979, format: "CD, Album"),
                collector: RecordFields(year: 1975, format: "LP")),
            NewRecord(gtin: nil, addMethod: .manual, collector: RecordFields(
                artist: "Frank Zappa", title: "Bootleg", year: 1972, format: "LP"), handEntered: true),
            NewRecord(gtin: nil, addMethod: .manual, collector: RecordFields(artist: "Zappa", title: "Live"), handEntered: true),
            NewRecord(gtin: Fixtures.gtin(6), addMethod: .typed, release: Release(
                id: 6, artist: "Zäppa Tribute", title: "Muffin Man", genres: ["Rock"], styles: [], formats: ["Vinyl, LP"], year: 1977,
                country: "Germany", labels: [], url: nil, thumbURL: nil, rawJSON: "{}")),
        ]
        let ids = try await store.addAll(records)
        return (store, Dictionary(uniqueKeysWithValues: zip(["A", "B", "C", "D", "E", "F"], ids.suffix(6))))
    }

    @Test("a query the index narrows lists what a test of every record keeps, in each order")
    func narrowed() async throws {
        let (store, id) = try await Self.zappa()
        let expected: [(String, String)] = [
            ("zappa", "ABCDEF"),
            ("zappa format:lp year:1970..1979", "BCDF"),
            ("ZÄPPA format:LP year:..1979", "ABCDF"),
            ("artist:zappa -year:1970..1979", "AE"),
            ("zappa -format:lp", "E"),
            ("zappa -format:", "E"),
            ("zappa year:", "ABCDF"),
            ("zappa -year:", "E"),
            ("zappa country:uk", "BC"),
            ("zappa -country:uk", "ADEF"),
            ("zappa style:jazz", "A"),
            ("zappa -style:", "DEF"),
            ("zappa -label:", "DEF"),
            ("zappa label:discreet", "B"),
            ("zappa -label:discreet", "ACDEF"),
            ("zappa genre:rock -artist:frank", "F"),
        ]
        for (text, letters) in expected {
            let query = try RecordQuery(parsing: text)
            let kept = letters.compactMap { id[String($0)] }.sorted()
            let narrowed = try await store.read { db in try CollectionStore.indexedMatches(db, query) }
            #expect(narrowed?.sorted() == kept, "\(text)")
            // The UI's filter, whose own plan (nil) is the index's here, and its other plans.
            #expect(try await Self.kept(store, text) == kept, "\(text)")
            for order in ListOrder.allCases {
                let listed = LockedBox<[Int64]>([])
                try await store.forEachPage(ExportFilter(order: order, query: query), detail: .listing, pageSize: 2) { page in
                    listed.withLock { $0 += page.map(\.record.id) }
                }
                // Every record tested by the query's subqueries, in the list's order.
                let everyRecord = try await store.recordIDs(matching: query, order: order)
                #expect(listed.withLock { $0 } == everyRecord, "\(text), \(order)")
            }
        }
    }

    @Test("a bad term in the filter: the window is empty and says why")
    func refusals() async throws {
        let (store, _, _) = try await Self.collection()
        for (text, start) in [("artst:queen", "artst:queen: artst is not a field"), ("year:1979..1970", "year:1979..1970: the range runs the wrong way round")] {
            let window = try await store.window(CollectionQuery(filter: text, window: RowWindow(offset: 0, limit: 10)))
            #expect(window.rows.isEmpty && window.outline.rowCount == 0)
            #expect(window.filterError?.hasPrefix(start) == true, "\(window.filterError ?? "")")
            #expect(window.totalRecords == 5)
        }
    }
}
