import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesStore

/// The list's windows the other way round and flat (`CollectionQuery.descending`, `flat`):
/// every window, the focus's row and the outline agree with `crates list --reverse/--flat`'s
/// order (`forEachPage`, which sorts in SQL), in every order, unfiltered and through each of
/// the filter's plans, across the groups' boundaries and among records with equal keys.
@Suite struct ListArrangementTests {
    private func release(_ id: Int, _ artist: String, _ title: String, genre: String, year: Int) -> Release {
        Release(
            id: id, artist: artist, title: title, genres: [genre], styles: [], formats: ["Vinyl, LP"],
            year: year, country: "UK", labels: [.init(name: "Label \(id % 3)", catno: "CAT \(id)")],
            url: nil, thumbURL: nil, rawJSON: "{\"id\": \(id)}")
    }

    /// Rock and Jazz records, the same release twice, records not matched yet (equal keys in
    /// every order: no title, no artist), and copies added at the same moment (equal keys in
    /// the added order).
    private func fill(_ store: CollectionStore) async throws {
        var records: [NewRecord] = []
        let same = Date(timeIntervalSince1970: 5_000)
        for n in 0..<14 {
            let genre = n % 3 == 0 ? "Jazz" : "Rock"
            let title = ["Blue", "Abbey Road", "Kind Of Blue", "Ace", "Zebra"][n % 5]
            records.append(NewRecord(
                gtin: Fixtures.gtin(n + 1), addedAt: n % 4 == 0 ? same : Date(timeIntervalSince1970: Double(1_000 + n * 7 % 11)),
                addMethod: .typed, release: release(n % 11 + 1, "Artist \(n % 6)", title, genre: genre, year: 1960 + n % 5)))
        }
        for n in 0..<5 {
            records.append(NewRecord(
                gtin: Fixtures.gtin(100 + n), addedAt: n < 3 ? same : Date(timeIntervalSince1970: Double(900 + n)), addMethod: .wedge))
        }
        _ = try await store.addAll(records)
    }

    /// The ids `crates list` writes for `filter` in this arrangement.
    private func listed(_ store: CollectionStore, _ arrangement: ListArrangement, query: String = "") async throws -> [Int64] {
        var filter = ExportFilter(order: arrangement.order, query: try RecordQuery(parsing: query))
        filter.descending = arrangement.descending
        filter.flat = arrangement.flat
        let ids = LockedBox<[Int64]>([])
        try await store.forEachPage(filter, detail: .listing, pageSize: 7) { page in ids.withLock { $0 += page.map(\.record.id) } }
        return ids.withLock { $0 }
    }

    private static let arrangements: [ListArrangement] = ListOrder.allCases.flatMap { order in
        [(false, false), (true, false), (false, true), (true, true)].map {
            ListArrangement(order: order, descending: $0.0, flat: $0.1)
        }
    }

    private func query(_ arrangement: ListArrangement, filter: String = "", _ window: RowWindow, focus: Int64? = nil) -> CollectionQuery {
        CollectionQuery(
            filter: filter, window: window, focus: focus, order: arrangement.order, descending: arrangement.descending,
            flat: arrangement.flat)
    }

    @Test(arguments: StoreKind.allCases)
    func everyWindowAndFocusAgreesWithTheListInEachArrangement(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        try await fill(store)
        let sectioned = try await store.window(CollectionQuery(window: RowWindow(offset: 0, limit: 0)))
        for arrangement in Self.arrangements {
            let all = try await listed(store, arrangement)
            #expect(all.count == 19)
            let context = "\(arrangement)"
            // Windows of each size from every row: across sections and groups, past the end.
            for limit in [1, 4, 30] {
                for offset in 0...all.count {
                    let window = try await store.window(query(arrangement, RowWindow(offset: offset, limit: limit)))
                    #expect(window.rows.map(\.recordID) == Array(all.dropFirst(offset).prefix(limit)), "\(context) \(offset)+\(limit)")
                    #expect(window.descending == arrangement.descending && window.flat == arrangement.flat)
                }
            }
            for (row, id) in all.enumerated() {
                let window = try await store.window(query(arrangement, RowWindow(offset: 0, limit: 2), focus: id))
                #expect(window.focusRow == row, "\(context) focus \(id)")
            }
            // Flat: one section of every record; else the sections as ever, A–Z.
            let outline = try await store.window(query(arrangement, RowWindow(offset: 0, limit: 0))).outline
            if arrangement.flat {
                #expect(outline.sections == [SectionSummary(name: CollectionOutline.flatName, count: 19, firstRow: 0)])
            } else {
                #expect(outline == sectioned.outline)
            }
        }
    }

    @Test func everyFilterPlanAgreesWithTheListInEachArrangement() async throws {
        let store = try CollectionStore.inMemory()
        try await fill(store)
        let snapshots = FilterSnapshots()
        // "blue": a word of three letters (the index); "r", "bl": shorter (the scan); a
        // record's barcode, which only one record holds.
        for filter in ["blue", "r", "bl", Fixtures.gtin(3).canonical, "artist:\"artist 2\""] {
            for arrangement in Self.arrangements {
                let expected = try await listed(store, arrangement, query: filter)
                // A field's term is a condition of its own: only the words take a plan.
                let words = try RecordQuery(parsing: filter).indexWords
                var plans: [CollectionStore.FilterPlan?] = [nil, .scan, .memory]
                if words.count == CollectionStore.filterWords(filter).count, let expression = CollectionStore.indexExpression(words) {
                    plans.append(.index(expression))
                }
                for plan in plans {
                    let context = "\(filter) \(arrangement) \(plan.map { "\($0)" } ?? "chosen")"
                    try await store.read { db in
                        for offset in [0, 1, 3, expected.count - 1, expected.count] where offset >= 0 {
                            let window = try CollectionStore.fetchWindow(
                                db, query(arrangement, filter: filter, RowWindow(offset: offset, limit: 3), focus: expected.last),
                                plan: plan, snapshots: plan == .memory ? snapshots : nil)
                            #expect(window.rows.map(\.recordID) == Array(expected.dropFirst(offset).prefix(3)), "\(context) at \(offset)")
                            #expect(window.focusRow == (expected.isEmpty ? nil : expected.count - 1), "\(context) focus")
                            #expect(window.outline.rowCount == expected.count, "\(context) count")
                            if arrangement.flat { #expect(window.outline.sections.count == (expected.isEmpty ? 0 : 1), "\(context)") }
                        }
                    }
                }
            }
        }
    }

    /// The flat list is held in memory between windows (`FlatList`), and read again once the
    /// records change: a record added shows at once, in its place, in either direction.
    @Test(arguments: StoreKind.allCases)
    func theFlatListFollowsTheRecordsAsTheyChange(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { withExtendedLifetime(directory) {} }
        try await fill(store)
        for descending in [false, true] {
            let arrangement = ListArrangement(order: .added, descending: descending, flat: true)
            let before = try await store.window(query(arrangement, RowWindow(offset: 0, limit: 100)))
            #expect(before.rows.map(\.recordID) == (try await listed(store, arrangement)))
        }
        let added = try await store.addAll([NewRecord(
            gtin: Fixtures.gtin(500), addedAt: Date(timeIntervalSince1970: 9_000), addMethod: .typed,
            release: release(40, "Artist 9", "Late", genre: "Rock", year: 1999))])
        for descending in [false, true] {
            let arrangement = ListArrangement(order: .added, descending: descending, flat: true)
            let expected = try await listed(store, arrangement)
            #expect(expected.count == 20)
            let after = try await store.window(query(arrangement, RowWindow(offset: 0, limit: 100), focus: expected[3]))
            #expect(after.rows.map(\.recordID) == expected, "descending \(descending)")
            #expect(after.focusRow == 3)
            // The latest added: first turned round (the records not matched yet stay last).
            #expect(expected.contains(added[0]) && (!descending || expected.first == added.first))
        }
    }

    /// A word most records hold, in a collection larger than the scan's first walk keeps
    /// (`scanProbeLimit`): the window from the walk in the list's order, the focus counted
    /// in its group.
    @Test func aWordMostRecordsHoldPagesAndFocusesInEachArrangement() async throws {
        let store = try CollectionStore.inMemory()
        let count = CollectionStore.scanProbeLimit + 300
        var records: [NewRecord] = []
        for n in 0..<count {
            let matched = n % 10 != 0
            records.append(NewRecord(
                gtin: Fixtures.gtin(n + 1), addedAt: Date(timeIntervalSince1970: Double(1_000 + n % 97)), addMethod: .typed,
                release: matched ? release(n + 1, "Artist \(n % 37)", "Title \(n % 53)", genre: n % 2 == 0 ? "Jazz" : "Rock", year: 1970) : nil))
        }
        _ = try await store.addAll(records)
        // Every barcode starts "50" (`Fixtures.gtin`), so every record matches.
        let filter = "50"
        for arrangement in Self.arrangements where arrangement.order == .added || arrangement.order == .artist {
            let expected = try await listed(store, arrangement, query: filter)
            #expect(expected.count == count)
            try await store.read { db in
                for (offset, focusRow) in [(0, count - 1), (count - 50, 5), (CollectionStore.scanProbeLimit - 10, count / 2)] {
                    let window = try CollectionStore.fetchWindow(
                        db, query(arrangement, filter: filter, RowWindow(offset: offset, limit: 40), focus: expected[focusRow]),
                        plan: .scan)
                    #expect(window.rows.map(\.recordID) == Array(expected.dropFirst(offset).prefix(40)), "\(arrangement) at \(offset)")
                    #expect(window.focusRow == focusRow, "\(arrangement) focus")
                }
            }
        }
    }

    /// In sections, each section's part of a window is a walk of the order's own index
    /// (`record_by_artist`, …), either way round, and no sort. Flat windows use no SQL
    /// ordering (`FlatList`, held in memory: no index for them).
    @Test func theWindowsWalkAnIndexEitherWayRound() async throws {
        let store = try CollectionStore.inMemory()
        try await fill(store)
        let sectioned: [ListOrder: String] = [
            .title: "record_order", .artist: "record_by_artist", .year: "record_by_year", .added: "record_by_added",
            .label: "record_by_label", .place: "record_by_place",
        ]
        try await store.read { db in
            for arrangement in Self.arrangements where !arrangement.isSectionsAscending && !arrangement.flat {
                for group in try arrangement.groups(db) {
                    let plan = try Row.fetchAll(db, sql: """
                        EXPLAIN QUERY PLAN SELECT r.id FROM record r WHERE \(group.condition)
                        ORDER BY \(arrangement.groupOrderTerms()) LIMIT 10 OFFSET 5
                        """, arguments: [group.value]).map { $0["detail"] as String? ?? "" }.joined(separator: "; ")
                    let index = sectioned[arrangement.order] ?? "?"
                    // By title, record_filter serves too: it begins with record_order's columns.
                    #expect(plan.contains(index) || (index == "record_order" && plan.contains("record_filter")), "\(arrangement): \(plan)")
                    #expect(!plan.contains("TEMP B-TREE"), "\(arrangement): \(plan)")
                }
            }
        }
    }
}
