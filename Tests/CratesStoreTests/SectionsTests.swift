import CratesCore
@testable import CratesStore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@Suite struct SectionsTests {
    /// Matched records in several genres (Unicode, commas, case), unmatched ones, and a
    /// release without genre.
    private func fill(_ store: CollectionStore) async throws -> [String: Int64] {
        let entries: [(key: String, gtin: Int, release: Release?)] = [
            ("homogenic", 1, release(1, artist: "Björk", title: "Homogenic", genres: ["Electronic", "Pop"])),
            ("debut", 2, release(2, artist: "Björk", title: "Debut", genres: ["Electronic"])),
            ("merry", 3, release(3, artist: "坂本龍一", title: "戦場のメリークリスマス", genres: ["Stage & Screen"])),
            ("ageatis", 4, release(4, artist: "Sigur Rós", title: "Ágætis Byrjun", genres: ["Rock"])),
            ("abbey", 5, release(5, artist: "The Beatles", title: "abbey road", genres: ["Rock"])),
            ("blue", 6, release(6, artist: "Joni Mitchell", title: "Blue", genres: ["Folk, World, & Country", "Pop"])),
            ("sakamoto-b2", 7, release(7, artist: "坂本龍一", title: "B-2 Unit", genres: ["electronic"])),
            ("nogenre", 8, release(8, artist: "Field Recordist", title: "Birds", genres: [])),
            ("pending-b", 20, nil),
            ("pending-a", 10, nil),
            ("edith", 9, release(9, artist: "Édith Piaf", title: "Éternelle", genres: ["Pop"])),
            ("edith-copy", 9, release(9, artist: "Édith Piaf", title: "Éternelle", genres: ["Pop"])),
            ("ageatis-other-artist", 11, release(10, artist: "Amiina", title: "Ágætis Byrjun", genres: ["Rock"])),
        ]
        var ids: [String: Int64] = [:]
        for entry in entries {
            ids[entry.key] = try await store.add(NewRecord(gtin: Fixtures.gtin(entry.gtin), addMethod: .typed, release: entry.release)).id
        }
        return ids
    }

    @Test("a row carries the catalogue that did not know its record (the list says so), in every way rows are read")
    func rowsCarryTheCatalogueEdition() async throws {
        let (store, directory) = try StoreKind.file.make()
        defer { withExtendedLifetime(directory) {} }
        let waiting = try await store.add(NewRecord(gtin: Fixtures.gtin(41), addMethod: .typed)).id
        let other = try await store.add(NewRecord(gtin: Fixtures.gtin(42), addMethod: .typed)).id
        let edition = CatalogueEdition(dumpDate: "20260601")
        let batch = try await store.answerFromCatalogue(edition, now: Date(), limit: 10) { job in
            job.recordID == waiting ? .absent : .unavailable(.unreadable(path: "x", reason: "not now"))
        }
        #expect(batch.absent == 1)
        let sections = try await store.sections()
        let listed = sections.flatMap(\.rows)
        #expect(listed.first { $0.recordID == waiting }?.catalogueEdition == edition)
        #expect(listed.first { $0.recordID == other }?.catalogueEdition == nil)
        let window = try await store.window(RowWindow(offset: 0, limit: 10))
        #expect(window.rows.first { $0.recordID == waiting }?.catalogueEdition == edition)
        let filtered = try await store.window(CollectionQuery(filter: Fixtures.gtin(41).canonical, window: RowWindow(offset: 0, limit: 10)))
        #expect(filtered.rows.map(\.recordID) == [waiting] && filtered.rows.first?.catalogueEdition == edition, "\(filtered.rows)")
    }

    @Test(arguments: StoreKind.allCases)
    func sectionsAndRowsFollowTheOrderingRules(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        let ids = try await fill(store)
        let sections = try await store.sections(order: .title)

        // Sections by name, case- and diacritic-insensitively; two names differing only in
        // case stay two sections, side by side; Unknown (no match, or no genre) last.
        #expect(sections.map(\.name) == [
            "Electronic", "electronic", "Folk, World, & Country", "Pop", "Rock", "Stage & Screen", "Unknown",
        ])
        func rows(_ name: String) -> [Int64] { sections.first { $0.name == name }?.rows.map(\.recordID) ?? [] }
        // By title, folded ("Debut" < "Homogenic").
        #expect(rows("Electronic") == [ids["debut"], ids["homogenic"]].compactMap { $0 })
        // "abbey road" before "Ágætis Byrjun" (Á folds to a); same title: by artist
        // ("Amiina" < "Sigur Rós").
        #expect(rows("Rock") == [ids["abbey"], ids["ageatis-other-artist"], ids["ageatis"]].compactMap { $0 })
        // Two copies of one release stay two rows.
        #expect(rows("Pop") == [ids["edith"], ids["edith-copy"]].compactMap { $0 })
        #expect(rows("Stage & Screen") == [ids["merry"]].compactMap { $0 })
        // Unmatched rows have no title: they come first, in the order they were added (not
        // by GTIN); then titled ones.
        #expect(rows("Unknown") == [ids["pending-b"], ids["pending-a"], ids["nogenre"]].compactMap { $0 })

        let merry = try #require(sections.first { $0.name == "Stage & Screen" }?.rows.first)
        #expect(merry.artist == "坂本龍一")
        #expect(merry.title == "戦場のメリークリスマス")
        #expect(merry.formats == "CD, Album")
        #expect(merry.year == 1997)
        #expect(merry.lookupState == .matched)
        let pending = try #require(sections.last?.rows.first)
        #expect(pending.artist == nil && pending.title == nil && pending.lookupState == .pending)
        #expect(pending.gtin == Fixtures.gtin(20).canonical)
    }

    @Test(arguments: StoreKind.allCases)
    func outlineAndWindowsAgreeWithTheFullList(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        _ = try await fill(store)
        let sections = try await store.sections()
        let all = sections.flatMap(\.rows)

        let outline = try await store.outline()
        #expect(outline.sections.map(\.name) == sections.map(\.name))
        #expect(outline.sections.map(\.count) == sections.map(\.rows.count))
        #expect(outline.rowCount == all.count)
        var first = 0
        for (index, summary) in outline.sections.enumerated() {
            #expect(summary.firstRow == first)
            #expect(outline.sectionIndex(forRow: first) == index)
            #expect(outline.sectionIndex(forRow: first + summary.count - 1) == index)
            first += summary.count
        }
        #expect(outline.sectionIndex(forRow: all.count) == nil)
        #expect(outline.sectionIndex(forRow: -1) == nil)

        for (offset, limit) in [(0, 3), (2, 5), (0, 100), (all.count - 2, 10), (all.count, 5), (0, 0)] {
            let window = try await store.window(RowWindow(offset: offset, limit: limit))
            #expect(window.outline == outline)
            #expect(window.rows == Array(all[min(offset, all.count)..<min(offset + limit, all.count)]))
        }
    }

    @Test func emptyCollectionHasNoSections() async throws {
        let store = try CollectionStore.inMemory()
        #expect(try await store.sections().isEmpty)
        #expect(try await store.outline().rowCount == 0)
        #expect(try await store.window(RowWindow(offset: 0, limit: 60)).rows.isEmpty)
    }

    @Test func aRecordMovesSectionWhenItsReleaseIsAttachedOrChanges() async throws {
        let store = try CollectionStore.inMemory()
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .wedge))
        #expect(try await store.sections().map(\.name) == ["Unknown"])

        try await store.choose(release(1, title: "Zebra", genres: ["Jazz"]), for: record.id)
        #expect(try await store.sections().map(\.name) == ["Jazz"])

        // Discogs re-tells the same release with another genre (another record's match):
        // every record of the release moves.
        let other = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addMethod: .wedge))
        try await store.choose(release(1, title: "Zebra", genres: ["Blues"]), for: other.id)
        let sections = try await store.sections()
        #expect(sections.map(\.name) == ["Blues"])
        #expect(sections[0].rows.map(\.recordID) == [record.id, other.id])
        try await expectOutlineMatchesSections(store)
    }

    /// The list queries walk the index: no sort at query time, whatever the size.
    @Test func listQueriesUseTheIndexWithoutSorting() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        _ = try CollectionStore(path: path)
        let queue = try DatabaseQueue(path: path)
        // Each order walks its own index (`ListOrder.keyColumn`).
        let indexes: [ListOrder: String] = [
            .title: "record_order", .artist: "record_by_artist", .year: "record_by_year", .added: "record_by_added",
            .label: "record_by_label", .place: "record_by_place",
        ]
        for order in ListOrder.allCases {
            let plans = try queue.read { db in
                // The whole list, and a window's ids (the window's rows are then read by id).
                try [
                    CollectionStore.rowQuery(order),
                    "SELECT id FROM record ORDER BY \(order.orderTerms("")) LIMIT 60 OFFSET 100",
                ].map { sql in
                    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
                }
            }
            for plan in plans {
                // By title, record_filter serves too: it begins with record_order's columns.
                let index = plan.contains(indexes[order] ?? "?") || (order == .title && plan.contains("record_filter"))
                #expect(index, "\(order): \(plan)")
                #expect(!plan.contains("TEMP B-TREE"), "\(order): \(plan)")
            }
        }
    }
}
