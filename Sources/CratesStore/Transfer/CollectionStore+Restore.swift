import CratesCore
import Foundation
import GRDB

/// `crates export --json` as a backup (everything a restore needs, read in the records'
/// snapshot) and `crates import` of that file restoring it (`CollectionBackup`).
extension CollectionStore {
    /// What the export writes before the records.
    public struct BackupSnapshot: Sendable {
        public var header: CollectionBackup.Header
        /// Every place, empty ones too, by id.
        public var places: [CollectionBackup.Place]
        /// The rows of `CollectionBackup.tableSections`, by section, in that order.
        public var tables: [(name: String, rows: [CollectionBackup.Row])]
    }

    /// `forEachPage(filter, detail: .full)` with `snapshot` called first, from the same
    /// read transaction: the places, the ids handed out and the sync's tables as they were
    /// when the records were read.
    public func forEachBackupPage(
        _ filter: ExportFilter, pageSize: Int = 500,
        snapshot: @escaping @Sendable (BackupSnapshot) throws -> Void,
        _ body: @escaping @Sendable ([ExportedRecord]) throws -> Void
    ) async throws {
        do {
            try await writer.read { db in
                try snapshot(try Self.backupSnapshot(db, complete: filter == ExportFilter()))
                try Self.walk(db, filter: filter, detail: .full, pageSize: max(1, pageSize), body)
            }
        } catch let error as DatabaseError {
            throw StoreError.wrap(error)
        }
    }

    static func backupSnapshot(_ db: Database, complete: Bool) throws -> BackupSnapshot {
        func sequence(_ table: String) throws -> Int64 {
            max(
                try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table]) ?? 0,
                try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM \(table)") ?? 0)
        }
        let tree = try fetchTree(db)
        var places: [CollectionBackup.Place] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, parentID, name, createdAt FROM location ORDER BY id") {
            let id: Int64 = row[0]
            places.append(CollectionBackup.Place(
                id: id, parentID: row[1], name: row[2], createdAt: StoredValues.date(row[3]),
                path: tree.location(id)?.pathText ?? row[2]))
        }
        var tables: [(String, [CollectionBackup.Row])] = []
        for table in CollectionBackup.tableSections {
            var rows: [CollectionBackup.Row] = []
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(table) ORDER BY rowid")
            while let row = try cursor.next() {
                rows.append(zip(row.columnNames, row.databaseValues).map { column, value in
                    switch value.storage {
                    case .null: (column, .null)
                    case .int64(let number): (column, .integer(number))
                    case .double(let number): (column, .real(number))
                    case .string(let text): (column, .text(text))
                    case .blob(let data): (column, .text(String(decoding: data, as: UTF8.self)))
                    }
                })
            }
            tables.append((table, rows))
        }
        // A whole export says what each section holds, so that a restore can tell a cut file.
        var counts: [String: Int]?
        if complete {
            var all = ["places": places.count, "records": try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record") ?? 0]
            for (name, rows) in tables { all[name] = rows.count }
            counts = all
        }
        return BackupSnapshot(
            header: CollectionBackup.Header(
                complete: complete, recordSequence: try sequence("record"), locationSequence: try sequence("location"), counts: counts),
            places: places, tables: tables)
    }

    /// Why a restore was refused before anything was written.
    public struct RestoreError: Error, Hashable, Sendable, CustomStringConvertible {
        public var records: Int
        public var places: Int
        public var discogsCopies: Int

        public var description: String {
            var held: [String] = []
            if records > 0 { held.append(records == 1 ? "1 record" : "\(records) records") }
            if places > 0 { held.append(places == 1 ? "1 place" : "\(places) places") }
            if discogsCopies > 0 { held.append(discogsCopies == 1 ? "1 Discogs link" : "\(discogsCopies) Discogs links") }
            return "the collection is not empty (\(held.joined(separator: ", "))): an export is restored into an empty "
                + "collection only, with its own ids and label codes. Restore into a new one (--db NEW.sqlite), "
                + "or import the CSV export (crates export --csv) to add its records to this one"
        }
    }

    /// Writes a restored collection into this one, which must be empty (no record, place or
    /// Discogs link: `RestoreError` otherwise), in ONE write transaction: `body` reads the
    /// file and hands each part to the `RestoreWriter` as it goes; anything it throws
    /// (a bad line, Ctrl-C) rolls everything back, so a restore is whole or nothing. The
    /// filter's text and index and the sort keys are computed once every record is in
    /// (`Schema.indexRecords`), in the same transaction.
    /// Returns `body`'s result.
    public func restore<T: Sendable>(_ body: @escaping @Sendable (RestoreWriter) throws -> T) async throws -> T {
        do {
            return try await writer.write { db in
                let counts = try Row.fetchOne(db, sql: """
                    SELECT (SELECT COUNT(*) FROM record), (SELECT COUNT(*) FROM location),
                           (SELECT COUNT(*) FROM discogsCopy) + (SELECT COUNT(*) FROM discogsAccount)
                    """)
                let refusal = RestoreError(records: counts?[0] ?? 0, places: counts?[1] ?? 0, discogsCopies: counts?[2] ?? 0)
                if refusal.records + refusal.places + refusal.discogsCopies > 0 { throw refusal }
                // A place may come before the place it is in (it was moved into a newer one):
                // the foreign keys are checked at the commit.
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                // The records go in with the triggers that index each row lifted, and are
                // indexed together at the end (a million records: minutes less).
                return try Schema.withoutRowIndexTriggers(db) {
                    let writer = RestoreWriter(db: db)
                    let result = try body(writer)
                    try writer.finish()
                    try Schema.indexRecords(db)
                    return result
                }
            }
        } catch let error as DatabaseError {
            throw StoreError.wrap(error, busyTimeout: busyTimeout)
        }
    }

    /// Writes the parts of a restore, inside `restore(_:)`'s transaction.
    public final class RestoreWriter: @unchecked Sendable {
        // Used only on the store's writer queue, inside the one transaction that made it
        // (`restore(_:)` never lets it out).
        private let db: Database
        private var sequences: (record: Int64, location: Int64) = (0, 0)
        private var columns: [String: Set<String>] = [:]
        /// Releases written so far: one release shared by many copies is written once.
        private var releases: Set<Int> = []

        init(db: Database) {
            self.db = db
        }

        public func header(_ header: CollectionBackup.Header) {
            sequences = (header.recordSequence, header.locationSequence)
        }

        /// Runs `body`, a database error said in crates' words (`StoreError`).
        private func storing(_ what: @autoclosure () -> String, _ body: () throws -> Void) throws {
            do {
                try body()
            } catch let error as DatabaseError {
                throw CollectionBackup.ReadError("\(what()) cannot be stored: \(StoreError.wrap(error))")
            }
        }

        public func place(_ place: CollectionBackup.Place) throws {
            try storing("place \(place.id) (\(place.name))") { try insertPlace(place) }
        }

        private func insertPlace(_ place: CollectionBackup.Place) throws {
            try db.execute(
                sql: "INSERT INTO location (id, parentID, name, nameKey, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [place.id, place.parentID, place.name, LocationName.key(place.name), StoredValues.seconds(place.createdAt)])
            try CollectionStore.refreshPlaceKeys(db)
        }

        /// A row of one of `CollectionBackup.tableSections`, its columns checked against the
        /// table's.
        public func row(_ table: String, _ values: [String: CollectionBackup.Value]) throws {
            try storing("a row of \(table)") { try insertRow(table, values) }
        }

        private func insertRow(_ table: String, _ values: [String: CollectionBackup.Value]) throws {
            guard CollectionBackup.tableSections.contains(table) else { throw CollectionBackup.ReadError("no section \(table)") }
            let known = try columns[table] ?? Set(db.columns(in: table).map(\.name))
            columns[table] = known
            if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
                throw CollectionBackup.ReadError("\(table) has a column this crates does not know (\(unknown)): written by a newer crates")
            }
            let names = values.keys.sorted()
            let arguments: [(any DatabaseValueConvertible)?] = names.map { name in
                switch values[name] ?? .null {
                case .null: nil
                case .integer(let number): number
                case .real(let number): number
                case .text(let text): text
                }
            }
            try db.execute(
                sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(CollectionStore.placeholders(names.count)))",
                arguments: StatementArguments(arguments))
        }

        /// A record with its own id, its release (as exported), pinned release and history.
        public func record(_ entry: ExportedRecord) throws {
            try storing("record \(entry.record.id)") { try insertRecord(entry) }
        }

        private func insertRecord(_ entry: ExportedRecord) throws {
            if let release = entry.release, !releases.contains(release.id) {
                try StoredValues.upsertRelease(db, release, now: entry.releaseFetchedAt ?? Date())
                releases.insert(release.id)
            }
            let before = db.totalChangesCount
            try StoredValues.insertExisting(db, entry.record)
            guard db.totalChangesCount > before else {
                throw CollectionBackup.ReadError("record \(entry.record.id) is in the file twice")
            }
            if let pinned = entry.pinnedReleaseID {
                try db.cachedStatement(sql: "UPDATE record SET pinnedReleaseID = ? WHERE id = ?")
                    .execute(arguments: [pinned, entry.record.id])
            }
            for event in entry.history ?? [] {
                try StoredValues.addEvent(db, recordID: entry.record.id, at: event.at, kind: event.kind, message: event.message)
            }
        }

        /// Checks what the rows written name: a record in a place the file did not hold is
        /// refused, and so is a Discogs link to a record it did not hold, unless the link
        /// says the copy was deleted in crates (`discogsCopy.deletedAt`). Version 2 files
        /// (`strictLinks` false) had no such mark: their links without a record are kept as
        /// faults (a sync reports them and never removes them on Discogs), and counted.
        /// Returns how many links lack their record.
        public func checkReferences(strictLinks: Bool) throws -> Int {
            if let row = try Row.fetchOne(db, sql: """
                SELECT id, locationID FROM record WHERE locationID IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM location l WHERE l.id = record.locationID) LIMIT 1
                """)
            {
                let (record, place): (Int64, Int64) = (row[0], row[1])
                throw CollectionBackup.ReadError("record \(record) is in place \(place), which the export does not hold")
            }
            let missing = try Int64.fetchAll(db, sql: """
                SELECT c.recordID FROM discogsCopy c WHERE c.deletedAt IS NULL
                    AND NOT EXISTS (SELECT 1 FROM record r WHERE r.id = c.recordID) ORDER BY c.recordID
                """)
            if strictLinks, let first = missing.first {
                throw CollectionBackup.ReadError(
                    "\(missing.count == 1 ? "a Discogs link names record" : "\(missing.count) Discogs links name records, the first") \(first), "
                        + "which the export does not hold (it lost records)")
            }
            return missing.count
        }

        /// The ids handed out: never fewer than the file's, so that no id is given again.
        func finish() throws {
            for (table, seq) in [("record", sequences.record), ("location", sequences.location)] {
                let current = max(
                    try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table]) ?? 0,
                    try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM \(table)") ?? 0)
                let wanted = max(current, seq)
                try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = ?", arguments: [table])
                if wanted > 0 {
                    try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", arguments: [table, wanted])
                }
            }
        }
    }
}
