import CratesCore
import CratesTestSupport
import Foundation
import GRDB
import Testing

@testable import CratesStore

/// "v6 collector values" (issue 14), "v7 locations" (issue 15) and "v8 discogs sync" (issue
/// 16) were written side by side: crates runs v6, v7, v8, but a database made by the
/// locations branch had v7 first, and one made by the sync branch v8 first. Each order must
/// end with every column, and v6's rebuild of `record` must keep what v7 and v8 added.
@Suite("Migrations v6, v7 and v8 in any order")
struct MigrationOrderTests {
    @Test("v7 before v6: v6's rebuild keeps locationID, its index, its foreign key and the places; the same columns as v6 before v7")
    func v7BeforeV6() async throws {
        let directory = try TemporaryDirectory(prefix: "crates-v6v7")
        let swappedPath = directory.file("v7-first.sqlite")
        // As the locations branch left a database: v1, v2, v3, then v7, which turned the
        // free-text locations of v1 into places.
        do {
            let queue = try DatabaseQueue(path: swappedPath)
            // As that branch had it: no "v4 claim owner", "v6 collector values" or "v8 discogs
            // sync" yet, so this build runs v4, v6 and v8 after v7.
            let migrator = Schema.migrator(
                Schema.migrations.filter {
                    ![
                        "v4 claim owner", "v6 collector values", "v8 discogs sync", "v9 sync lease",
                        "v10 collection search index", "v11 import entry values", "v12 catalogue edition",
                        "v13 lookup state check", "v14 sort keys", "v15 price observations",
                        "v16 discogs conflicts", "v17 deleted copies", "v18 wantlist", "v19 purchase and loan",
                        "v27 lookup state check by comparison",
                    ].contains($0.identifier)
                })
            try migrator.migrate(queue, upTo: "v3 pinned release")
            try await queue.write { db in
                for (n, location) in [(1, "Living Room › Crate 3"), (2, nil)] as [(Int, String?)] {
                    try db.execute(
                        sql: """
                            INSERT INTO record (gtin, addedAt, addMethod, location, lookupState, sectionKey, rowKey, updatedAt)
                            VALUES (?, ?, 'typed', ?, 'pending', ?, ?, ?)
                            """,
                        arguments: [Fixtures.gtin(n).canonical, n, location, SortKey.unknownSection, SortKey.unmatchedRow, n])
                }
                try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: 2)
            }
            try migrator.migrate(queue)
            let applied = try await queue.read { db in try migrator.appliedIdentifiers(db) }
            #expect(Set(applied) == ["v1", "v2 search text", "v3 pinned release", "v5 release details", "v7 locations"])
            try queue.close()
        }

        // This build runs the ones missing: v4, v6 and v8, after v7.
        let swapped = try CollectionStore(path: swappedPath)
        #expect(try await swapped.integrityProblems().isEmpty)
        #expect(try await swapped.record(1)?.location?.pathText == "Living Room › Crate 3")
        #expect(try await swapped.record(2)?.location == nil)
        let crate = try #require(try await swapped.record(1)?.location)
        // Both features on the rebuilt table: a record without a barcode, in a place.
        let byHand = try await swapped.add(NewRecord(
            gtin: nil, addMethod: .manual, locationID: crate.id, collector: RecordFields(artist: "A", title: "T"), handEntered: true))
        #expect(byHand.id == 3 && byHand.gtin == nil && byHand.lookupState == .handEntered && byHand.location?.id == crate.id)
        let inCrate = try await swapped.window(CollectionQuery(window: RowWindow(offset: 0, limit: 10), location: crate.id))
        #expect(Set(inCrate.rows.map(\.recordID)) == [1, 3])
        // The list's filter finds the collector's values inside a place.
        let found = try await swapped.window(CollectionQuery(filter: "a t", window: RowWindow(offset: 0, limit: 10), location: crate.id))
        #expect(found.rows.map(\.recordID) == [3])
        let keys = try await swapped.read { db in
            try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(record)").map { row -> String in
                "\(row["from"] as String) → \(row["table"] as String) \(row["on_delete"] as String)"
            }.sorted()
        }
        #expect(keys.contains("locationID → location SET NULL"), "\(keys)")
        #expect(try await swapped.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count } == 0)

        // The same schema as a database made in the usual order, but for column order.
        let usual = try CollectionStore(path: directory.file("v6-first.sqlite"))
        #expect(try await Self.schema(swapped) == Self.schema(usual))
        #expect(try await Self.schema(usual).columns.contains("locationID NOT NULL=0"))
        #expect(try await Self.schema(usual).columns.contains("gtin NOT NULL=0"))
        // v6's rebuild keeps v4's column (the claim's owner), in either order.
        #expect(try await Self.schema(usual).columns.contains("claimOwner NOT NULL=0"))
        #expect(try await Self.schema(swapped).columns.contains("claimOwner NOT NULL=0"))
    }

    @Test(
        "v8 before v6 (and v7): v6's rebuild keeps the grading columns, their values and the links; the same columns as the usual order",
        arguments: [["v8 discogs sync"], ["v7 locations", "v8 discogs sync"]])
    func v8BeforeV6(first: [String]) async throws {
        let directory = try TemporaryDirectory(prefix: "crates-v8v6")
        let path = directory.file("v8-first.sqlite")
        // As the sync branch left a database (v1, v2, v3, v8; or v7 before it as well): a
        // graded copy, linked to a Discogs instance, and its undo-safe id counter.
        do {
            let queue = try DatabaseQueue(path: path)
            let early = ["v1", "v2 search text", "v3 pinned release"] + first
            let migrator = Schema.migrator(early.compactMap { id in Schema.migrations.first { $0.identifier == id } })
            try migrator.migrate(queue)
            try await queue.write { db in
                for n in 1...2 {
                    try db.execute(
                        sql: """
                            INSERT INTO record (gtin, addedAt, addMethod, lookupState, sectionKey, rowKey, updatedAt,
                                                mediaCondition, sleeveCondition, rating)
                            VALUES (?, ?, 'typed', 'pending', ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            Fixtures.gtin(n).canonical, n, SortKey.unknownSection, SortKey.unmatchedRow, n,
                            n == 1 ? MediaCondition.veryGoodPlus.rawValue : nil, n == 1 ? SleeveCondition.generic.rawValue : nil, n == 1 ? 4 : 0,
                        ])
                }
                try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: 2)
                try db.execute(sql: "DELETE FROM record WHERE id = 2")  // a trigger counts it out
                try db.execute(
                    sql: "INSERT INTO discogsCopy (instanceID, recordID, releaseID, folderID, baseRating, syncedAt) VALUES (?, 1, 7, 1, 4, 0)",
                    arguments: [Int64(5_000_000_001)])
            }
            let applied = try await queue.read { db in try migrator.appliedIdentifiers(db) }
            #expect(Set(applied) == Set(early))
            try queue.close()
        }

        // This build runs the ones missing, v6 among them, after v8.
        let store = try CollectionStore(path: path)
        #expect(try await store.integrityProblems().isEmpty)
        let graded = try #require(try await store.record(1))
        #expect(graded.grading == CopyGrading(media: .veryGoodPlus, sleeve: .generic, rating: try Rating(4)))
        #expect(try await store.details(1)?.discogs?.instanceID == 5_000_000_001)
        // Both features on the rebuilt table: a pulled copy is a record without a barcode.
        let byHand = try await store.add(NewRecord(
            gtin: nil, addMethod: .manual, collector: RecordFields(artist: "A", title: "T"), handEntered: true,
            grading: CopyGrading(rating: try Rating(2))))
        #expect(byHand.id == 3, "the id of the copy deleted before the migration is never reused")
        #expect(byHand.gtin == nil && byHand.grading.rating.value == 2)

        let usual = try CollectionStore(path: directory.file("usual.sqlite"))
        #expect(try await Self.schema(store) == Self.schema(usual))
        #expect(try await Self.schema(usual).columns.isSuperset(of: ["mediaCondition NOT NULL=0", "rating NOT NULL=1", "gtin NOT NULL=0"]))
    }

    /// A collection made by a build without "v4 claim owner" (main before issue 12 was merged:
    /// v1–v3, then v6, v7, v8): this build runs v4 last, on the table v6 rebuilt, and a
    /// claim then names its process (a kill -9's claim is free at once).
    @Test("v4 after v6, v7 and v8: claimOwner added to the rebuilt table; the same schema as the usual order; claims name their owner")
    func v4Last() async throws {
        let directory = try TemporaryDirectory(prefix: "crates-v4last")
        let path = directory.file("v4-last.sqlite")
        try await OlderCollection.make(at: path, migrations: Schema.migrations.filter { $0.identifier != "v4 claim owner" }) { queue async throws in
            #expect(try await queue.read { db in try db.columns(in: "record").contains { $0.name == "claimOwner" } } == false)
        }
        let store = try CollectionStore(path: path)
        #expect(try await store.integrityProblems().isEmpty)
        let usual = try CollectionStore(path: directory.file("usual.sqlite"))
        #expect(try await Self.schema(store) == Self.schema(usual))
        #expect(try await Self.schema(store).columns.contains("claimOwner NOT NULL=0"))
        let record = try await store.add(NewRecord(gtin: Fixtures.gtin(1), addMethod: .typed))
        let job = try #require(try await store.claimNext(now: Date(), lease: 900))
        #expect(job.recordID == record.id)
        let owner = try await store.read { db in try String.fetchOne(db, sql: "SELECT claimOwner FROM record WHERE id = ?", arguments: [record.id]) }
        #expect(owner != nil && owner == ClaimOwner.current)
    }

    /// The record table's columns (name, whether NOT NULL) and the indexes and triggers on it.
    static func schema(_ store: CollectionStore) async throws -> RecordSchema {
        try await store.read { db in
            RecordSchema(
                columns: Set(try Row.fetchAll(db, sql: "PRAGMA table_info(record)").map { row in
                    "\(row["name"] as String) NOT NULL=\(row["notnull"] as Int)"
                }),
                dependents: Set(try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'record' AND type IN ('index', 'trigger') AND sql IS NOT NULL")))
        }
    }

    struct RecordSchema: Equatable, Sendable {
        var columns: Set<String>
        var dependents: Set<String>
    }
}
