import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@_spi(Benchmark) @testable import CratesStore

/// An import writes the rows described by their values with the triggers that index each
/// inserted row lifted, and sorts and indexes each batch itself
/// (`CollectionStore.insertDescribed`): the records must hold exactly what the triggers give
/// the same rows, the index must be in step, and the triggers must be back after each batch.
@Suite struct ImportIndexingTests {
    /// Described rows of every kind (the collector's values over the description, a genre,
    /// a year, a label and catalogue number, notes, dates, places, grading, rows entered by
    /// hand), between barcodes, some with a release already stored.
    static func entries(releases: [Release]) -> [ImportEntry] {
        var random = SeededGenerator(seed: 41)
        let places = [nil, "Shelf › Box", "Shelf › Box › Left", "Crate 9", "Ätherische Kiste"]
        return (0..<240).compactMap { n -> ImportEntry? in
            let place = FilterIndexTests.pick(places, &random)
            let grading = CopyGrading(
                media: n % 3 == 0 ? FilterIndexTests.pick(MediaCondition.allCases, &random) : nil,
                rating: Rating(clamping: n % 6))
            let date = n % 4 == 0 ? Date(timeIntervalSince1970: 1_600_000_000 + Double(n) * 86_400) : nil
            if n % 5 == 4 {
                return ImportEntry(
                    line: n + 2, gtin: Fixtures.gtin(3_000 + n), releaseID: n % 10 == 4 ? releases[n % releases.count].id : nil,
                    note: "note \(n)", addedAt: date, location: place, grading: grading)
            }
            let described = RecordFields(
                artist: n % 7 == 1 ? nil : FilterIndexTests.pick(FilterIndexTests.artists, &random),
                title: n % 11 == 2 ? nil : "\(FilterIndexTests.pick(FilterIndexTests.titles, &random)) \(n)",
                genre: n % 3 == 0 ? FilterIndexTests.pick(["Rock", "Jazz", "Stage & Screen"], &random) : nil,
                year: n % 4 == 1 ? 1960 + n % 50 : (n % 13 == 0 ? 12_345 : nil),
                label: n % 2 == 0 ? FilterIndexTests.pick(FilterIndexTests.labels, &random).name : nil,
                catno: n % 3 == 1 ? nil : "CAT-\(n)", country: n % 5 == 0 ? "Ísland" : nil)
            return ImportEntry(
                line: n + 2, gtin: nil, note: n % 2 == 0 ? "a note, \(n)" : nil, addedAt: date, location: place,
                described: described, grading: grading,
                collector: n % 9 == 0 ? FilterIndexTests.pick(FilterIndexTests.own, &random) : nil, handEntered: n % 17 == 3)
        }
    }

    /// Every record's columns but those the triggers compute, then those: `sectionKey` and
    /// `rowKey` (written by the insert), `filterText` and the four sort keys.
    static let derived = ["filterText", "artistKey", "yearKey", "labelKey", "placeKey"]

    /// `store`'s records written again, row by row with the triggers in place, into a new
    /// collection (with the same places and releases): what the triggers make of them.
    static func reindexedByTheTriggers(_ store: CollectionStore, in directory: TemporaryDirectory) async throws -> CollectionStore {
        // Each table's columns and rows: the places and releases whole, the records less
        // what the triggers compute.
        let tables = try await store.read { db in
            try ["location", "release", "record"].map { table -> (String, [String], [[DatabaseValue]]) in
                let columns = try db.columns(in: table).map(\.name).filter { table != "record" || !derived.contains($0) }
                let rows = try Row.fetchAll(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY rowid")
                return (table, columns, rows.map { Array($0.databaseValues) })
            }
        }
        let reference = try CollectionStore(path: directory.file("reference.sqlite"))
        try await reference.write { db in
            for (table, columns, rows) in tables {
                for row in rows {
                    try db.execute(
                        sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(CollectionStore.placeholders(columns.count)))",
                        arguments: StatementArguments(row))
                }
            }
        }
        return reference
    }

    @Test("described rows imported have the filter's text and index and the sort keys the triggers give them")
    func describedRowsAsTheTriggersIndexThem() async throws {
        let directory = try TemporaryDirectory()
        let store = try CollectionStore(path: directory.file("crates.sqlite"))
        var random = SeededGenerator(seed: 43)
        let releases = (1...6).map { FilterIndexTests.makeRelease($0, &random) }
        try await store.write { db in
            for release in releases { _ = try StoredValues.upsertRelease(db, release, now: Date()) }
        }
        // Records already there, so that the batches' ids start above others.
        _ = try await store.addAll((0..<20).map { NewRecord(gtin: Fixtures.gtin(2_000 + $0), addMethod: .typed) })
        let before = try await RestoreIndexingTests.indexed(store)
        let entries = Self.entries(releases: releases)
        let outcome = try await store.importEntries(
            ImportEntries(entries), copies: false, keepingValues: true, batchSize: 17)
        #expect(outcome.added == entries.count)
        let after = try await RestoreIndexingTests.indexed(store)
        #expect(after.triggers == before.triggers, "the triggers are back after each batch")

        let reference = try await Self.reindexedByTheTriggers(store, in: directory)
        #expect(after.rows == (try await RestoreIndexingTests.indexed(reference)).rows)
        // A record without a barcode: its text begins with the empty barcode's separator.
        let described = after.rows.filter { String.fromDatabaseValue($0[3])?.hasPrefix(" ") == true }
        #expect(described.count > 100, "the described rows are compared")
        #expect(!described.contains { String.fromDatabaseValue($0[4])?.isEmpty ?? true }, "every described row is sorted")
        let values = try await store.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE gtin IS NULL AND entryValues = 'keep'")
        }
        #expect(values == described.count)

        var filters = FilterIndexTests.filters(&random)
        filters += ["cat-1", "CAT-12", "ísland", "a note", "Box"]
        try await FilterIndexTests.expectIndexInStep(store, filters: filters)
        try await FilterIndexTests.expectSameAsScan(store, filters: filters)
        // The triggers index what is written afterwards.
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(990), addMethod: .typed))
        #expect(try await store.window(CollectionQuery(filter: Fixtures.gtin(990).canonical, window: RowWindow(offset: 0, limit: 5)))
            .rows.map(\.gtin) == [Fixtures.gtin(990).canonical])
        #expect(try await store.read { db in
            try String.fetchOne(db, sql: "SELECT artistKey FROM record WHERE gtin = ?", arguments: [Fixtures.gtin(990).canonical])
        }?.isEmpty == false)
    }

    /// A list of barcodes in no place is written with its sort keys computed once a batch and
    /// the insert triggers lifted (`insertImported`): the same rows as the triggers make,
    /// releases attached at once, the collector's values and records entered by hand too.
    @Test("barcodes imported in no place have the filter's text and index and the sort keys the triggers give them")
    func barcodesInNoPlaceAsTheTriggersIndexThem() async throws {
        let directory = try TemporaryDirectory()
        let store = try CollectionStore(path: directory.file("crates.sqlite"))
        var random = SeededGenerator(seed: 47)
        let releases = (1...4).map { FilterIndexTests.makeRelease($0, &random) }
        try await store.write { db in
            for release in releases { _ = try StoredValues.upsertRelease(db, release, now: Date()) }
        }
        _ = try await store.addAll((0..<20).map { NewRecord(gtin: Fixtures.gtin(2_000 + $0), addMethod: .typed) })
        let before = try await RestoreIndexingTests.indexed(store)
        var entries: [ImportEntry] = []
        for n in 0..<120 {
            let releaseID: Int? = n % 6 == 1 ? releases[n % releases.count].id : nil
            let note: String? = n % 4 == 0 ? "note \(n)" : nil
            let addedAt: Date? = n % 3 == 0 ? Date(timeIntervalSince1970: 1_600_000_000 + Double(n) * 86_400) : nil
            let collector: RecordFields? = n % 9 == 0 ? FilterIndexTests.pick(FilterIndexTests.own, &random) : nil
            let entry = ImportEntry(
                line: n + 1, gtin: Fixtures.gtin(5_000 + n), releaseID: releaseID, note: note, addedAt: addedAt,
                grading: CopyGrading(rating: Rating(clamping: n % 6)), collector: collector, handEntered: n % 17 == 3)
            if let entry { entries.append(entry) }
        }
        // Bare barcodes at the end: whole batches of them go as a flat array of codes.
        for n in 120..<160 {
            if let entry = ImportEntry(line: n + 1, gtin: Fixtures.gtin(5_000 + n)) { entries.append(entry) }
        }
        let outcome = try await store.importEntries(ImportEntries(entries), copies: false, batchSize: 17)
        #expect(outcome.added == entries.count)
        let after = try await RestoreIndexingTests.indexed(store)
        #expect(after.triggers == before.triggers, "the triggers are back after each batch")
        let reference = try await Self.reindexedByTheTriggers(store, in: directory)
        #expect(after.rows == (try await RestoreIndexingTests.indexed(reference)).rows)
        let matched = try await store.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE releaseID IS NOT NULL")
        }
        #expect(matched ?? 0 > 10, "records matched to a release stored are compared")

        var filters = FilterIndexTests.filters(&random)
        filters += [Fixtures.gtin(5_007).canonical, "note 1", "note"]
        try await FilterIndexTests.expectIndexInStep(store, filters: filters)
        try await FilterIndexTests.expectSameAsScan(store, filters: filters)
    }

    /// The insert lifts the row triggers that check or follow each row
    /// (`Schema.rowCheckTriggers`) and holds the batch to their rules after it.
    @Test("barcodes imported keep the rules of the row triggers the insert lifts: a link naming a new id is no longer marked deleted")
    func importedBarcodesKeepTheLiftedTriggersRules() async throws {
        let store = try CollectionStore.inMemory()
        // Links whose copies are gone, marked deleted, naming ids the import gives and one it
        // does not (as links restored from a damaged export may).
        try await store.write { db in
            for (instance, record) in [(1, 2), (2, 50)] {
                try db.execute(
                    sql: "INSERT INTO discogsCopy (instanceID, recordID, releaseID, folderID, syncedAt, deletedAt) VALUES (?, ?, 7, 1, 0, 0)",
                    arguments: [instance, record])
            }
        }
        let entries = ImportEntries((1...5).compactMap { ImportEntry(line: $0, gtin: Fixtures.gtin($0)) })
        let outcome = try await store.importEntries(entries, copies: false, batchSize: 2)
        #expect(outcome.added == 5)
        let marks = try await store.read { db in
            try Row.fetchAll(db, sql: "SELECT recordID, deletedAt FROM discogsCopy ORDER BY recordID").map { row -> Double? in row[1] }
        }
        #expect(marks == [nil, 0])
        let triggers = try await store.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name IN ('record_lookupState_insert', 'record_restored_copy')")
        }
        #expect(triggers.count == 2, "the triggers are back after each batch")
    }
}
