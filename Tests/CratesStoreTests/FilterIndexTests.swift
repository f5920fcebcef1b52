import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import GRDBSQLite
import Testing

@_spi(Benchmark) @testable import CratesStore

/// The list's filter through its index (`filterIndex`, `record_filter`): the same records,
/// sections and rows as the scan of the joined tables it replaced, for any filter text, on a
/// collection changed every way after the index was built; and the index in step with it.
@Suite struct FilterIndexTests {
    // MARK: The scan the index replaced

    /// The filter as it was before the index: every word in the record's GTIN, its release's
    /// search text or the collector's, by a scan of `record` joined with `release`. Kept here
    /// as it was, the reference the indexed query must agree with.
    static func scanned(_ db: Database, _ filter: String) throws -> (sections: [SectionSummary], ids: [Int64]) {
        let words = CollectionStore.filterWords(filter)
        let condition = words.isEmpty ? "1" : words.map { _ in
            """
            (instr(coalesce(r.gtin, ''), ?) > 0 OR instr(coalesce(rel.searchText, ''), ?) > 0 \
            OR instr(coalesce(r.ownSearchText, ''), ?) > 0)
            """
        }.joined(separator: " AND ")
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.sectionKey, r.id FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
            WHERE \(condition) ORDER BY r.sectionKey, r.rowKey, r.id
            """, arguments: StatementArguments(words.flatMap { [$0, $0, $0] }))
        var sections: [SectionSummary] = []
        var key: String?
        for (index, row) in rows.enumerated() {
            let sectionKey: String = row[0]
            if sectionKey != key {
                sections.append(SectionSummary(name: SortKey.sectionName(fromKey: sectionKey), count: 0, firstRow: index))
                key = sectionKey
            }
            sections[sections.count - 1].count += 1
        }
        return (sections, rows.map { $0[1] })
    }

    // MARK: A collection with every kind of text

    static let artists = [
        "Björk", "BJÖRK", "Sigur Rós", "坂本龍一", "久石譲", "Motörhead", "AC/DC", "Guns N' Roses", "Édith Piaf",
        "ＡＢＣ", "The \"Quoted\" Band", "Beyoncé", "Mötley Crüe", "Hüsker Dü", "!!!", "*NSYNC", "NEAR", "AND OR NOT",
        "Ólafur Arnalds", "Portishead",
    ]
    static let titles = [
        "Homogenic", "Ágætis byrjun", "戦場のメリークリスマス", "Ace of Spades", "Back in Black", "Zen Arcade",
        "Non, je ne regrette rien", "Dr. Feelgood", "( )", "I'm With You", "Lemonade", "Blue Moon River", "99.9%",
        "Straße", "Noël", "Ænima", "Tago Mago", "x",
    ]
    static let labels: [Release.LabelCredit] = [
        .init(name: "One Little Indian", catno: "TPLP 71"), .init(name: "Columbia", catno: "CDP 7 46001-2"),
        .init(name: "Sony", catno: "SRCL-1234"), .init(name: "Bronze", catno: "BRON 531"),
        .init(name: "Disques Pathé", catno: "2C 062-12345"), .init(name: "エピック", catno: "ESCA-5678"),
        .init(name: "Smekkleysa", catno: nil), .init(name: "Münchner Label", catno: "MÜN:01"),
    ]
    static let own = [
        RecordFields(artist: "Mein Lieblingskünstler"), RecordFields(title: "Ma Copie Préférée"),
        RecordFields(label: "Bootleg Räucherei", catno: "LIM-001"), RecordFields(artist: "坂本", title: "ＣＯＰＹ"),
        RecordFields(catno: "tplp 71 (reissue)"), RecordFields(artist: "Björk", title: "Début"),
    ]

    static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T { items[Int.random(in: 0..<items.count, using: &random)] }

    static func makeRelease(_ id: Int, _ random: inout SeededGenerator) -> Release {
        var labels = [pick(Self.labels, &random)]
        if Bool.random(using: &random) { labels.append(pick(Self.labels, &random)) }
        return Release(
            id: id, artist: pick(artists, &random), title: pick(titles, &random),
            genres: [pick(["Rock", "Electronic", "Jazz", "Stage & Screen"], &random)], styles: [], formats: ["Vinyl, LP"],
            year: 1990, country: "UK", labels: labels, url: nil, thumbURL: nil, rawJSON: "{\"id\": \(id)}")
    }

    /// 400 records: matched (releases shared by several), waiting for their lookup, and
    /// entered by hand without a barcode; a fifth with the collector's values over Discogs'.
    /// Then changed every way the filter's text can change: lookups (a new release, and
    /// releases refreshed with other titles and labels under records already indexed), a
    /// release chosen, edits of the collector's values (set and cleared), records entered by
    /// hand, deleted, and deleted then restored (undo).
    static func changedCollection(_ store: CollectionStore) async throws {
        var random = SeededGenerator(seed: 23)
        let releases = (1...60).map { makeRelease($0, &random) }
        var batch: [NewRecord] = []
        for n in 0..<400 {
            var record: NewRecord
            switch Int.random(in: 0..<20, using: &random) {
            case 0..<11: record = NewRecord(gtin: Fixtures.gtin(n), addMethod: .import, release: pick(releases, &random))
            case 11..<17: record = NewRecord(gtin: Fixtures.gtin(n), addMethod: .wedge)
            default:
                record = NewRecord(
                    gtin: nil, addMethod: .manual,
                    collector: RecordFields(artist: pick(artists, &random), title: "\(pick(titles, &random)) \(n)"), handEntered: true)
            }
            if record.gtin != nil, Int.random(in: 0..<5, using: &random) == 0 { record.collector = pick(own, &random) }
            batch.append(record)
        }
        let ids = try await store.addAll(batch, batchSize: 150)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(400), addMethod: .typed, release: releases[0]))
        // An import: barcodes, a third with the id of a release stored (attached in the
        // batch that inserts them), notes, places and the collector's values.
        let imported = (0..<60).compactMap { n in
            ImportEntry(
                line: n + 1, gtin: Fixtures.gtin(500 + n), releaseID: n % 3 == 0 ? releases[n % releases.count].id : nil,
                note: n % 4 == 0 ? "note \(n)" : nil, location: n % 5 == 0 ? "Shelf › Box" : nil,
                collector: n % 7 == 0 ? pick(own, &random) : nil)
        }
        _ = try await store.importEntries(imported, batchSize: 25)

        // Lookups: new releases, and releases already stored coming back changed.
        var looked = 0
        while looked < 40, let job = try await store.claimNext(now: Date(), lease: 60) {
            var release = looked % 2 == 0 ? makeRelease(100 + looked, &random) : pick(releases, &random)
            if looked % 4 == 1 {
                release.title = "Remastered \(pick(titles, &random))"
                release.labels = [.init(name: "Rhino Ré-édition", catno: "R2 \(looked)")]
            }
            try await store.complete(job, with: looked % 5 == 4 ? .notFound : .matched(release))
            looked += 1
        }
        var pending = try await store.lookupableIDs()
        for id in pending.prefix(5) { try await store.choose(makeRelease(200 + Int(id), &random), for: id) }
        pending = try await store.lookupableIDs()
        for id in pending.dropFirst(5).prefix(5) {
            try await store.enterByHand(id, RecordFields(artist: "Hand Made", title: "Fait à la main \(id)"))
        }
        for id in ids.shuffled(using: &random).prefix(40) {
            var edit = RecordEdit(values: pick(own, &random))
            if Bool.random(using: &random) { edit.clear = Set([.artist, .title, .label, .catno].filter { edit.values[$0] == nil }) }
            try await store.edit(id, edit)
        }
        let doomed = Array(ids.shuffled(using: &random).prefix(30))
        let deleted = try await store.delete(doomed)
        try await store.restore(Array(deleted.prefix(10)))
    }

    /// Filter texts: the hard cases by hand, then pieces of the collection's own texts (any
    /// length from 1 character, case changed), alone and in pairs.
    static func filters(_ random: inout SeededGenerator) -> [String] {
        var filters = [
            "", "b", "B", "ö", "o", "bj", "BJÖ", "bjork", "björk", "ros", "RÓS", "sigur ros", "坂", "坂本", "坂本龍", "龍一",
            "メリー", "エピ", "ac/dc", "/", "n'", "'", "\"", "\"quoted\"", "quoted\" band", "abc", "ＡＢＣ", "ab", "*", "*nsync",
            "near", "NEAR", "and or not", "or", "not", "tplp", "tplp 71", "p 7", "46001-2", "001", "-", "(", "( )", "99.9%",
            "%", "strasse", "straße", "ss", "noel", "aenima", "æ", "ae", "mün:01", ":", "remastered", "rhino re-edition",
            "fait a la main", "hand", "lim-001", "début", "debut", "lieblingskunstler", "préférée", "copy", "ＣＯＰＹ",
            "moon r", "moon river", "m", "mo", "x", "zzz-not-there", "5", "50", "501", "0000", "bjork tplp", "a b c",
        ]
        for n in [3, 77, 250, 399] { filters.append(Fixtures.gtin(n).canonical) }
        let texts = artists + titles + labels.flatMap { [$0.name, $0.catno].compactMap { $0 } }
            + own.flatMap { [$0.artist, $0.title, $0.label, $0.catno].compactMap { $0 } }
            + (0..<20).map { Fixtures.gtin($0 * 19).canonical }
        func piece() -> String {
            let characters = Array(pick(texts, &random))
            let length = Int.random(in: 1...min(7, characters.count), using: &random)
            let start = Int.random(in: 0...(characters.count - length), using: &random)
            let text = String(characters[start..<(start + length)])
            return Bool.random(using: &random) ? text.uppercased() : text
        }
        for n in 0..<200 { filters.append(n % 3 == 0 ? "\(piece()) \(piece())" : piece()) }
        return filters
    }

    /// Each filter's window, by each plan that applies, against the scan: sections, rows
    /// (all of them, and a window inside), and the focus's row (a record kept, one filtered
    /// out or deleted).
    static func expectSameAsScan(_ store: CollectionStore, filters: [String]) async throws {
        let deletedID: Int64 = 1_000_000
        // One held snapshot for every filter: read once, then reused, as between keystrokes.
        let snapshots = FilterSnapshots()
        try await store.read { db in
            // A year or format word is a condition of its own (`ListFilterTerms`), not text; a
            // quote left open is no query (`RecordQuery`): the filter says so instead.
            // A word after a dash ("-1234", a piece of "SRCL-1234") is a negated term, which
            // the scan here does not model (RecordQueryStoreTests tests negation).
            for filter in filters
            where ListFilterTerms(filter).years == nil && ListFilterTerms(filter).formats.isEmpty
                && (try? RecordQuery(parsing: filter)) != nil && !filter.split(separator: " ").contains(where: { $0.hasPrefix("-") })
            {
                let expected = try scanned(db, filter)
                let words = CollectionStore.filterWords(filter)
                var plans: [CollectionStore.FilterPlan?] = [nil, .scan, .memory]
                if let expression = CollectionStore.indexExpression(words) { plans.append(.index(expression)) }
                let someID = try Int64.fetchOne(db, sql: "SELECT id FROM record ORDER BY id LIMIT 1 OFFSET 123") ?? 1
                let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record")
                for plan in plans {
                    let focuses: [Int64?] = [expected.ids.dropFirst(expected.ids.count / 2).first, someID, deletedID]
                    for focus in focuses {
                        let all = try CollectionStore.fetchWindow(
                            db, CollectionQuery(filter: filter, window: RowWindow(offset: 0, limit: 10_000), focus: focus, order: .title),
                            plan: plan, snapshots: plan == .memory ? snapshots : nil)
                        let context = "filter \(filter.debugDescription), plan \(plan.map { "\($0)" } ?? "chosen")"
                        #expect(all.rows.map(\.recordID) == expected.ids, "\(context)")
                        #expect(all.outline.sections == expected.sections, "\(context)")
                        #expect(all.focusRow == focus.flatMap { expected.ids.firstIndex(of: $0) }, "\(context), focus \(focus ?? 0)")
                        #expect(all.totalRecords == total, "\(context)")
                        // A screenful from the top, as the UI asks while a person types: the
                        // scan's first walk may hold every match, or stop before the focus.
                        let top = try CollectionStore.fetchWindow(
                            db, CollectionQuery(filter: filter, window: RowWindow(offset: 0, limit: 60), focus: focus, order: .title),
                            plan: plan, snapshots: plan == .memory ? snapshots : nil)
                        #expect(top.rows.map(\.recordID) == Array(expected.ids.prefix(60)), "\(context), top")
                        #expect(top.outline.sections == expected.sections, "\(context), top")
                        #expect(top.focusRow == focus.flatMap { expected.ids.firstIndex(of: $0) }, "\(context), top, focus \(focus ?? 0)")
                    }
                    let part = try CollectionStore.fetchWindow(
                        db, CollectionQuery(filter: filter, window: RowWindow(offset: 3, limit: 5), order: .title), plan: plan,
                        snapshots: plan == .memory ? snapshots : nil)
                    #expect(part.rows.map(\.recordID) == Array(expected.ids.dropFirst(3).prefix(5)), "filter \(filter.debugDescription)")
                }
            }
        }
    }

    /// The index itself (not only the filter, which `instr` decides) holds exactly each
    /// record's text: a word of 3 characters or more finds in it the records the scan finds,
    /// no record gone, changed away or missing; and `filterText` is what the joined tables say.
    static func expectIndexInStep(_ store: CollectionStore, filters: [String]) async throws {
        // FTS5's own check of its structure (a write: the command is an insert).
        try await store.write { db in try db.execute(sql: "INSERT INTO filterIndex (filterIndex) VALUES ('integrity-check')") }
        try await store.read { db in
            let stale = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
                WHERE r.filterText IS NOT (coalesce(r.gtin, '') || ' ' || coalesce(rel.searchText, '') || ' ' || coalesce(r.ownSearchText, ''))
                """)
            #expect(stale == 0)
            for filter in filters {
                let words = CollectionStore.filterWords(filter)
                guard words.count == 1, let expression = CollectionStore.indexExpression(words) else { continue }
                let found = try Int64.fetchSet(db, sql: "SELECT rowid FROM filterIndex WHERE filterIndex MATCH ?", arguments: [expression])
                #expect(found == Set(try scanned(db, filter).ids), "filter \(filter.debugDescription)")
            }
        }
    }

    @Test("the indexed filter gives the scan's sections, rows and focus, on a collection changed after the index was built")
    func sameResultsAsTheScan() async throws {
        let directory = try TemporaryDirectory()
        let store = try CollectionStore(path: directory.file("crates.sqlite"))
        try await Self.changedCollection(store)
        var random = SeededGenerator(seed: 10)
        let filters = Self.filters(&random)
        try await Self.expectIndexInStep(store, filters: filters)
        try await Self.expectSameAsScan(store, filters: filters)
    }

    // MARK: The snapshot held between keystrokes

    /// What `store` answers for `filter` in `order`, and what the scan of the database
    /// answers in the same transaction.
    static func answerAndScan(
        _ store: CollectionStore, _ filter: String, order: ListOrder = .title, focus: Int64? = nil
    ) async throws -> (answer: CollectionWindow, scan: CollectionWindow) {
        let query = CollectionQuery(filter: filter, window: RowWindow(offset: 0, limit: 10_000), focus: focus, order: order)
        return try await store.read { [filterSnapshots = store.filterSnapshots] db in
            (try CollectionStore.fetchWindow(db, query, snapshots: filterSnapshots), try CollectionStore.fetchWindow(db, query, plan: .scan))
        }
    }

    /// Each filter of a typed text, keystroke by keystroke, answered from the held snapshot as
    /// the scan answers it; the snapshot held afterwards.
    static func expectTypedAsScan(
        _ store: CollectionStore, _ typed: String, order: ListOrder = .title, _ context: String
    ) async throws {
        for length in 1...typed.count {
            let filter = String(typed.prefix(length))
            let (answer, scan) = try await answerAndScan(store, filter, order: order, focus: 7)
            #expect(answer.rows.map(\.recordID) == scan.rows.map(\.recordID), "\(context): filter \(filter.debugDescription)")
            #expect(answer.outline == scan.outline, "\(context): filter \(filter.debugDescription)")
            #expect(answer.focusRow == scan.focusRow, "\(context): filter \(filter.debugDescription)")
        }
        #expect(store.filterSnapshots.isHolding, "\(context)")
    }

    @Test("the filter's snapshot is read again after any change: by another connection, by the store, on one connection")
    func snapshotFollowsChanges() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let store = try CollectionStore(path: path)
        try await Self.changedCollection(store)
        try await Self.expectTypedAsScan(store, "bjork tplp", "before any change")
        let ids = try await store.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM record ORDER BY id") }

        // Another connection (another store on the file, as another process would be):
        // a record's text changed, one added, one deleted, between two keystrokes.
        let other = try CollectionStore(path: path)
        try await other.edit(ids[3], RecordEdit(values: RecordFields(artist: "Zebulon Björkman")))
        _ = try await other.add(NewRecord(gtin: nil, addMethod: .manual, collector: RecordFields(artist: "Zebedee"), handEntered: true))
        _ = try await other.delete([ids[5]])
        try await Self.expectTypedAsScan(store, "zeb", "after another connection's changes")
        let zeb = try await Self.answerAndScan(store, "zeb").answer
        #expect(zeb.outline.rowCount == 2, "both changes seen: \(zeb.rows.map(\.artist))")

        // The store's own writer (not the connection that reads).
        try await store.edit(ids[4], RecordEdit(values: RecordFields(title: "Zebra Crossing")))
        try await Self.expectTypedAsScan(store, "zebra", "after the store's own change")
        #expect(try await Self.answerAndScan(store, "zebra").answer.outline.rowCount == 1)

        // Another order: the snapshot of that order, not the title's.
        try await Self.expectTypedAsScan(store, "bjork", order: .artist, "in the artists' order")
        try await Self.expectTypedAsScan(store, "bjork", order: .title, "back in the titles' order")

        // One connection that writes and reads (an in-memory store): its own writes.
        let memory = try CollectionStore.inMemory()
        try await Self.changedCollection(memory)
        try await Self.expectTypedAsScan(memory, "bjork", "in memory")
        let first = try await memory.read { db in try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM record") ?? 0 }
        try await memory.edit(first, RecordEdit(values: RecordFields(label: "Quixotic Records")))
        try await Self.expectTypedAsScan(memory, "quix", "in memory, after its own change")
        #expect(try await Self.answerAndScan(memory, "quix").answer.outline.rowCount == 1)
    }

    @Test("a word the index finds in few records is answered by the index while no snapshot is held")
    func fewRecordsNeedNoSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let store = try CollectionStore(path: directory.file("crates.sqlite"))
        try await Self.changedCollection(store)
        // No snapshot read for it; one read for a word most records hold, then kept for it.
        for (filter, holding) in [("remastered", false), ("b", true), ("remastered", true)] {
            let (answer, scan) = try await Self.answerAndScan(store, filter, focus: 7)
            #expect(answer.rows.map(\.recordID) == scan.rows.map(\.recordID), "filter \(filter)")
            #expect(answer.outline == scan.outline, "filter \(filter)")
            #expect(!scan.rows.isEmpty, "filter \(filter)")
            #expect(store.filterSnapshots.isHolding == holding, "filter \(filter)")
        }
    }

    @Test("an observed filter follows another connection's change with its snapshot")
    func observedSnapshotFollowsChanges() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        let store = try CollectionStore(path: path)
        try await Self.changedCollection(store)
        let seen = LockBox<[CollectionWindow]>()
        let observation = try store.observeWindow(
            CollectionQuery(filter: "zeb", window: RowWindow(offset: 0, limit: 50)), onError: { _ in }) { seen.append($0) }
        defer { observation.cancel() }
        try await waitUntil("the first answer") { seen.last != nil }
        #expect(seen.last?.outline.rowCount == 0)
        // Keystrokes: the snapshot is read, then held.
        observation.update(CollectionQuery(filter: "bj", window: RowWindow(offset: 0, limit: 50)))
        try await waitUntil("the answer to bj") { seen.last?.filter == "bj" }
        observation.update(CollectionQuery(filter: "zeb", window: RowWindow(offset: 0, limit: 50)))
        try await waitUntil("the answer to zeb") { seen.last?.filter == "zeb" }
        #expect(seen.last?.outline.rowCount == 0)
        let other = try CollectionStore(path: path)
        _ = try await other.add(NewRecord(gtin: nil, addMethod: .manual, collector: RecordFields(artist: "Zebedee"), handEntered: true))
        try await waitUntil("the observer sees the other connection's record", lastSeen: { "\(seen.last?.outline.rowCount ?? -1)" }) {
            seen.last?.outline.rowCount == 1
        }
    }

    @Test("the upgrade of a large collection is announced before it starts, once, with the number of records")
    func upgradeAnnounced() async throws {
        let directory = try TemporaryDirectory()
        func makeOld(_ name: String, records: Int) async throws -> String {
            let path = directory.file(name)
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator(Schema.migrations.filter { $0.identifier != "v10 collection search index" }).migrate(queue)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                        INSERT INTO record (gtin, addedAt, addMethod, lookupState, sectionKey, rowKey, updatedAt)
                        SELECT printf('50%011d', i), i, 'import', 'pending', ?, ?, i FROM n
                        """,
                    arguments: [records, SortKey.unknownSection, SortKey.unmatchedRow])
                try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: records)
            }
            try queue.close()
            return path
        }
        let large = try await makeOld("large.sqlite", records: CollectionStore.upgradeNoticeRecords)
        let small = try await makeOld("small.sqlite", records: CollectionStore.upgradeNoticeRecords - 1)
        var announced: [Int] = []
        _ = try CollectionStore(path: large) { announced.append($0) }
        #expect(announced == [CollectionStore.upgradeNoticeRecords])
        _ = try CollectionStore(path: large) { announced.append($0) }
        _ = try CollectionStore(path: small) { announced.append($0) }
        _ = try CollectionStore(path: directory.file("new.sqlite")) { announced.append($0) }
        #expect(announced == [CollectionStore.upgradeNoticeRecords], "announced only for the large one, once")
        let store = try CollectionStore(path: large)
        #expect(try await store.window(CollectionQuery(filter: "19999", window: RowWindow(offset: 0, limit: 20))).rows.map(\.gtin) == ["5000000019999"])
    }

    @Test("a collection made before the index gets it built by the migration")
    func migrationBuildsTheIndex() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("crates.sqlite")
        var random = SeededGenerator(seed: 5)
        do {
            // As the previous crates left a collection: every migration but the index's (and
            // the sort keys', which came after it).
            let queue = try DatabaseQueue(path: path)
            let migrator = Schema.migrator(Schema.migrations.filter { !["v10 collection search index", "v14 sort keys"].contains($0.identifier) })
            try migrator.migrate(queue)
            let releases = (1...30).map { Self.makeRelease($0, &random) }
            let records: [(releaseID: Int?, collector: RecordFields)] = (0..<200).map { n in
                (n % 3 == 0 ? nil : Int.random(in: 1...30, using: &random), n % 7 == 0 ? Self.pick(Self.own, &random) : .none)
            }
            try await queue.write { db in
                for release in releases { try StoredValues.upsertRelease(db, release, now: Date()) }
                for (n, record) in records.enumerated() {
                    let collector = record.collector
                    try db.execute(
                        sql: """
                            INSERT INTO record (gtin, addedAt, addMethod, lookupState, sectionKey, rowKey, updatedAt,
                                                releaseID, ownArtist, ownTitle, ownLabel, ownCatno, ownSearchText)
                            VALUES (?, ?, 'import', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            Fixtures.gtin(n).canonical, n, record.releaseID == nil ? "pending" : "matched", SortKey.unknownSection,
                            SortKey.unmatchedRow, n, record.releaseID, collector.artist, collector.title, collector.label,
                            collector.catno, StoredValues.ownSearchText(collector),
                        ])
                }
                try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: records.count)
            }
            try queue.close()
        }
        let store = try CollectionStore(path: path)
        let filters = Self.filters(&random)
        try await Self.expectIndexInStep(store, filters: filters)
        try await Self.expectSameAsScan(store, filters: filters)
    }
}
