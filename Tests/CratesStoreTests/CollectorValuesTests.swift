import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@_spi(Benchmark) @testable import CratesStore

/// Records without a barcode and the collector's own values (issue 14, migration "v6
/// collector values"), against real SQLite files.
@Suite("Collector's values and records without a barcode")
struct CollectorValuesTests {
    func temporaryPath() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory(prefix: "crates-v6")
        return (directory, directory.file("crates.sqlite"))
    }

    @Test("v6 rebuilds a v3 database: rows, ids, history, counts, indexes and triggers kept; gtin nullable")
    func migrationFromV3() async throws {
        let (directory, path) = try temporaryPath()
        defer { _ = directory }
        // A database as crates wrote it before v6, with a record deleted (its id must stay used).
        try await OlderCollection.make(at: path, upTo: "v3 pinned release") { queue in
            try await queue.write { db in
                try db.execute(sql: """
                    INSERT INTO release (id, artist, title, genresJSON, stylesJSON, formatsJSON, labelsJSON, fetchedAt, searchText)
                    VALUES (249504, 'Rick Astley', 'Never Gonna Give You Up', '["Pop"]', '[]', '[]', '[]', 0, 'rick astley never');
                    INSERT INTO record (gtin, addedAt, addMethod, releaseID, lookupState, sectionKey, rowKey, updatedAt)
                    VALUES ('5012345678900', 1, 'typed', 249504, 'matched', '0pop\u{1}Pop', 'x', 1);
                    INSERT INTO record (gtin, addedAt, addMethod, lookupState, sectionKey, rowKey, updatedAt)
                    VALUES ('5099750442227', 2, 'wedge', 'pending', '1\u{1}Unknown', '\u{1}\u{1}', 2);
                    INSERT INTO record (gtin, addedAt, addMethod, lookupState, sectionKey, rowKey, updatedAt)
                    VALUES ('0077774620024', 3, 'wedge', 'pending', '1\u{1}Unknown', '\u{1}\u{1}', 3);
                    INSERT INTO sectionCount VALUES ('0pop\u{1}Pop', 1), ('1\u{1}Unknown', 2);
                    INSERT INTO lookupEvent (recordID, at, kind, message) VALUES (1, 5, 'matched', 'release 249504');
                    DELETE FROM record WHERE id = 3;
                    """)
            }
        }
        let store = try CollectionStore(path: path)
        #expect(try await store.integrityProblems().isEmpty)
        let details = try #require(try await store.details(1))
        #expect(details.record.gtin?.canonical == "5012345678900" && details.release?.id == 249_504)
        #expect(details.history.map(\.message) == ["release 249504"], "the history stays with its record")
        #expect(try await store.outline().sections.map(\.count) == [1, 1], "the counts came over")
        // The id of the record deleted before the migration is not reused.
        let added = try await store.add(NewRecord(gtin: nil, addMethod: .manual, collector: RecordFields(artist: "A", title: "T"), handEntered: true))
        #expect(added.id == 4 && added.gtin == nil && added.lookupState == .handEntered)
        // Deleting goes through the trigger that was made again.
        try await store.delete([2])
        #expect(try await store.outline().sections.map(\.name) == ["Pop", "Unknown"])
        #expect(try await store.outline().sections.map(\.count) == [1, 1])
        let schema = try await store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'record' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY name")
        }
        #expect(schema == [
            "record_by_added", "record_by_artist", "record_by_label", "record_by_place", "record_by_year",
            "record_deleted_copy", "record_entryKey", "record_filter", "record_filter_added", "record_filter_changed", "record_filter_indexed",
            "record_filter_removed", "record_gtin", "record_location", "record_lookupState_insert",
            "record_lookupState_update", "record_order", "record_out_on_loan", "record_pinned", "record_queue",
            "record_recounted", "record_release", "record_restored_copy", "record_sort_added", "record_sort_changed", "record_uncounted",
        ])
        let foreignKeys = try await store.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count }
        #expect(foreignKeys == 0)
    }

    @Test("the collector's values win over the release's, move the record, and survive a new version of the release")
    func valuesWinAndFollow() async throws {
        let store = try CollectionStore.inMemory()
        let rock = release(1, artist: "Pink Floyd", title: "The Dark Side Of The Moon", genres: ["Rock"])
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed, release: rock))
        try await store.edit(record.id, try RecordEdit.checked(values: [.genre: "Jazz", .title: "Zebra", .year: "1974"]))
        var sections = try await store.sections()
        #expect(sections.map(\.name) == ["Jazz"])
        #expect(sections.first?.rows.first?.title == "Zebra")
        // A lookup brings a new version of the release: Discogs' values change, the
        // collector's still win.
        var newer = rock
        newer.title = "Dark Side"
        newer.genres = ["Electronic"]
        try await store.choose(newer, for: record.id)
        sections = try await store.sections()
        #expect(sections.map(\.name) == ["Jazz"])
        #expect(sections.first?.rows.first?.title == "Zebra")
        let details = try #require(try await store.details(record.id))
        #expect(details.release?.title == "Dark Side", "Discogs' value is refreshed, kept apart")
        #expect(details.shown.year == 1974 && details.shown.title == "Zebra")
        // Given back to Discogs: its genre and title show again.
        try await store.edit(record.id, try RecordEdit.checked(values: [:], clear: ["genre", "title"]))
        sections = try await store.sections()
        #expect(sections.map(\.name) == ["Electronic"])
        #expect(sections.first?.rows.first?.title == "Dark Side")
        #expect(try await store.record(record.id)?.collector == RecordFields(year: 1974))
    }

    @Test("a record entered by hand: its genre's section, never queued, never claimed; found by the filter")
    func handEntered() async throws {
        let store = try CollectionStore.inMemory()
        let fields = RecordFields(artist: "The Nice", title: "Ars Longa Vita Brevis", genre: "Rock", year: 1968, catno: "IMSP 020")
        let record = try await store.add(NewRecord(gtin: nil, addMethod: .manual, collector: fields, handEntered: true))
        #expect(record.lookupState == .handEntered)
        #expect(try await store.sections().map(\.name) == ["Rock"])
        #expect(try await store.retry([record.id]).isEmpty, "no lookup overwrites it")
        #expect(try await store.claimNext(now: Date(), lease: 60) == nil)
        #expect(try await store.record(record.id)?.lookupState == .handEntered)
        let found = try await store.window(CollectionQuery(filter: "imsp 020", window: RowWindow(offset: 0, limit: 10)))
        #expect(found.rows.map(\.recordID) == [record.id])
        #expect(found.rows.first?.gtin == "" && found.rows.first?.displayTitle == "The Nice — Ars Longa Vita Brevis")
        // Counted by what it describes: the same record typed again (in other case) is there.
        let again = NewRecord(gtin: nil, addMethod: .manual, collector: RecordFields(artist: "the nice", title: "ars longa vita brevis", catno: "imsp-020"), handEntered: true)
        #expect(try await store.addIfAbsent(again) == .present(copies: 1))
        // Linked to a release later: matched, its own values kept.
        try await store.choose(release(7, artist: "Nice", title: "Ars Longa", genres: ["Jazz"]), for: record.id)
        let linked = try #require(try await store.details(record.id))
        #expect(linked.record.lookupState == .matched && linked.release?.id == 7)
        #expect(linked.shown.title == "Ars Longa Vita Brevis" && linked.shown.genre == "Rock")
        #expect(linked.history.last?.message == "linked to release 7: Nice — Ars Longa")
    }

    @Test("a record without a barcode waiting for a lookup is claimed with the search its own values make")
    func describedRecordIsSearched() async throws {
        let store = try CollectionStore.inMemory()
        let entry = try #require(ImportEntry(
            line: 2, gtin: nil, described: RecordFields(artist: "Cat Stevens", title: "Tea For The Tillerman", catno: "ILPS 9135")))
        let ids = try await store.importEntries([entry])
        let job = try #require(try await store.claimNext(now: Date(), lease: 60))
        #expect(job.recordID == ids[0] && job.gtin == nil && job.releaseID == nil)
        #expect(job.search?.catno == "ILPS 9135" && job.search?.artist == "Cat Stevens")
        try await store.complete(job, with: .notFound)
        let row = try #require(try await store.sections().first?.rows.first)
        #expect(row.lookupState == .notFound && row.displayTitle == "Cat Stevens — Tea For The Tillerman",
                "a row not found still shows what it is")
        #expect(try await store.copies(of: [.described(try #require(entry.described?.entryKey))]).values.first == 1)
        #expect(try await store.enterNotFoundByHand(entryKeys: [try #require(entry.described?.entryKey)]) == 1)
        #expect(try await store.record(ids[0])?.lookupState == .handEntered)
    }

    /// A row of crates' export without a barcode carries its described columns and the
    /// collector's own values: the copy is stored under the key of the values it keeps, and
    /// the import counts by that key, so the same file imported again adds nothing.
    @Test("a described row that also names the collector's values, imported twice: one copy")
    func describedRowWithCollectorValuesImportedTwice() async throws {
        let store = try CollectionStore.inMemory()
        let entry = try #require(ImportEntry(
            line: 2, gtin: nil, described: RecordFields(artist: "Cat Stevens", title: "Tea For The Tillerman", catno: "ILPS 9135"),
            collector: RecordFields(title: "Tea For The Tillerman (UK)")))
        let first = try await store.importEntries(ImportEntries([entry]), copies: false)
        let again = try await store.importEntries(ImportEntries([entry]), copies: false)
        #expect(first.added == 1 && again.added == 0 && again.present == 1)
        #expect(try await store.outline().rowCount == 1)
    }

    @Test("delete and undo bring the collector's values back; the export reads them")
    func undoAndExport() async throws {
        let store = try CollectionStore.inMemory()
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(2), addMethod: .typed, release: release(3)))
        try await store.edit(record.id, try RecordEdit.checked(values: [.country: "UK"], note: "signed"))
        let deleted = try await store.delete([record.id])
        try await store.restore(deleted)
        let back = try #require(try await store.record(record.id))
        #expect(back.collector == RecordFields(country: "UK") && back.note == "signed")
        let exported = try #require(try await store.exported(record.id))
        #expect(exported.shown.country == "UK" && exported.release?.id == 3)
        let page = LockBox<[ExportedRecord]>()
        try await store.forEachPage(detail: .full) { records in page.withLock { $0 += records } }
        #expect(page.all.map(\.record.collector) == [RecordFields(country: "UK")])
    }
}
