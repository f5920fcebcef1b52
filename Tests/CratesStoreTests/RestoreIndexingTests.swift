import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@_spi(Benchmark) @testable import CratesStore

/// A restore writes its records with the triggers that index each row lifted, and indexes
/// them all at the end (`Schema.withoutRowIndexTriggers`, `Schema.indexRecords`): the
/// restored collection must be indexed exactly as the triggers index the original, and the
/// triggers must be back afterwards, whether the restore went through or failed part-way.
@Suite struct RestoreIndexingTests {
    /// What a backup holds, read from `store` as `crates export --json` reads it.
    struct Backup: Sendable {
        var snapshot: CollectionStore.BackupSnapshot?
        var records: [ExportedRecord] = []
    }

    static func backup(of store: CollectionStore) async throws -> Backup {
        let box = LockedBox(Backup())
        try await store.forEachBackupPage(ExportFilter(), pageSize: 37) { snapshot in
            box.withLock { $0.snapshot = snapshot }
        } _: { page in
            box.withLock { $0.records += page }
        }
        return box.withLock { $0 }
    }

    /// Hands `backup` to the writer, as `CollectionRestore` does a file.
    static func write(_ backup: Backup, to writer: CollectionStore.RestoreWriter) throws {
        guard let snapshot = backup.snapshot else { throw CollectionBackup.ReadError("no snapshot") }
        writer.header(snapshot.header)
        for place in snapshot.places { try writer.place(place) }
        for (table, rows) in snapshot.tables {
            for row in rows { try writer.row(table, Dictionary(row, uniquingKeysWith: { first, _ in first })) }
        }
        for record in backup.records { try writer.record(record) }
    }

    /// Every record's indexed columns, and the triggers, as the database holds them.
    static func indexed(_ store: CollectionStore) async throws -> (rows: [[DatabaseValue]], triggers: [String: String]) {
        try await store.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, sectionKey, rowKey, filterText, artistKey, yearKey, labelKey, placeKey FROM record ORDER BY id
                """).map { Array($0.databaseValues) }
            let triggers = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
                .reduce(into: [String: String]()) { $0[$1[0]] = $1[1] }
            return (rows, triggers)
        }
    }

    @Test("a restored collection has the filter's text and index and the sort keys the triggers gave the original")
    func restoredAsIndexed() async throws {
        let directory = try TemporaryDirectory()
        let original = try CollectionStore(path: directory.file("original.sqlite"))
        try await FilterIndexTests.changedCollection(original)
        // Sort keys from places, the collector's year, label and catalogue number.
        let shelf = try await original.addLocation(name: "Crate 9", in: nil)
        let ids = try await original.addAll((0..<5).map {
            NewRecord(
                gtin: Fixtures.gtin(900 + $0), addMethod: .typed, locationID: shelf.id,
                collector: RecordFields(artist: "The Band \($0)", title: "T", year: 1970 + $0, label: "Label \($0)", catno: "C-\($0)"))
        })
        #expect(ids.count == 5)
        let backup = try await Self.backup(of: original)
        #expect(backup.records.count > 400)

        let restored = try CollectionStore(path: directory.file("restored.sqlite"))
        try await restored.restore { writer in try Self.write(backup, to: writer) }
        let (before, after) = (try await Self.indexed(original), try await Self.indexed(restored))
        #expect(after.rows == before.rows)
        #expect(after.triggers == before.triggers)
        var random = SeededGenerator(seed: 31)
        let filters = FilterIndexTests.filters(&random)
        try await FilterIndexTests.expectIndexInStep(restored, filters: filters)
        // The triggers index what is written after the restore.
        _ = try await restored.add(NewRecord(gtin: Fixtures.gtin(990), addMethod: .typed))
        #expect(try await restored.window(CollectionQuery(filter: Fixtures.gtin(990).canonical, window: RowWindow(offset: 0, limit: 5)))
            .rows.map(\.gtin) == [Fixtures.gtin(990).canonical])
    }

    @Test("a restore that fails part-way leaves the collection empty, with every trigger, indexing as before")
    func failedRestoreLeavesTheTriggers() async throws {
        let directory = try TemporaryDirectory()
        let original = try CollectionStore(path: directory.file("original.sqlite"))
        _ = try await original.addAll((0..<50).map { NewRecord(gtin: Fixtures.gtin($0), addMethod: .typed) })
        let backup = try await Self.backup(of: original)
        let store = try CollectionStore(path: directory.file("restored.sqlite"))
        let before = try await Self.indexed(store)
        #expect(before.rows.isEmpty && !before.triggers.isEmpty)
        await #expect(throws: CollectionBackup.ReadError.self) {
            try await store.restore { writer in
                try Self.write(backup, to: writer)
                throw CollectionBackup.ReadError("stopped after the records")
            }
        }
        #expect(try await Self.indexed(store) == before)
        _ = try await store.add(NewRecord(gtin: Fixtures.gtin(7), addMethod: .typed))
        #expect(try await store.window(CollectionQuery(filter: Fixtures.gtin(7).canonical, window: RowWindow(offset: 0, limit: 5)))
            .rows.map(\.gtin) == [Fixtures.gtin(7).canonical])
        let text = try await store.read { db in try String.fetchOne(db, sql: "SELECT artistKey FROM record") }
        #expect(text?.isEmpty == false, "the sort keys' trigger ran")
    }
}
