import CratesCore
import Foundation
import GRDB

/// How many copies of each import key the collection holds (one query per kind of key):
/// counted inside each batch of an import, and by a dry run, which reads the file without
/// changing it.
extension CollectionStore {
    /// How many copies of each of `keys` the collection holds; keys it does not hold are
    /// absent. A barcode counts every record of that GTIN; a release id every record matched
    /// to that release or imported with it (`pinnedReleaseID`).
    ///
    /// Not for a decision to add: another process may add between this read and the add
    /// (`importEntries(_:copies:)` counts and adds in one transaction). The benchmark's
    /// `--racy` baseline shows that race, hence the SPI.
    @_spi(Benchmark)
    public func copies(of keys: Set<ImportKey>) async throws(StoreError) -> [ImportKey: Int] {
        try await read { db in try Self.copies(db, of: keys) }
    }

    /// `copies(of:)` from the database at `path` without creating, migrating or changing
    /// anything (`crates import --dry-run`): a missing file is an empty collection. A file
    /// that is not a crates database, or is a newer crates', is refused as by `init(path:)`.
    public static func copies(of keys: Set<ImportKey>, inFileAt path: String) throws(StoreError) -> [ImportKey: Int] {
        try reading(fileAt: path, empty: [:]) { db in try Self.copies(db, of: keys) }
    }

    /// What an import of `file` would do (`crates import --dry-run`), against the database
    /// at `path` as `copies(of:inFileAt:)` reads it: one snapshot, the copies counted a batch
    /// of lines at a time (`ImportPlan.init(file:copies:batchSize:held:)`), so that the memory
    /// a dry run takes does not grow with the collection's or the file's keys.
    public static func importPlan(_ file: ImportFile, copies: Bool, inFileAt path: String) throws(StoreError) -> ImportPlan {
        try reading(fileAt: path, empty: ImportPlan(file: file, present: [:], copies: copies)) { db in
            try ImportPlan(file: file, copies: copies) { keys in try Self.copies(db, of: keys) }
        }
    }

    /// `body` in one read of the database at `path`, opened read-only without creating,
    /// migrating or changing anything; `empty` when there is no file.
    private static func reading<T>(fileAt path: String, empty: @autoclosure () -> T, _ body: (Database) throws -> T) throws(StoreError) -> T {
        guard FileManager.default.fileExists(atPath: path) else { return empty() }
        try inspect(path: path)
        let configuration = Self.configuration(label: "crates.store.dry-run", readonly: true)
        do {
            // Opened as immutable when no process has it open (no -wal file): a read-only
            // connection to a WAL database would otherwise create -wal and -shm beside it.
            if !FileManager.default.fileExists(atPath: path + "-wal"), urisEnabled,
               let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
               let queue = try? DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
            {
                defer { try? queue.close() }
                // A file immutable=1 cannot read (it is being written meanwhile): opened as usual.
                if let value = try? queue.read(body) { return value }
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read(body)
        } catch {
            throw StoreError.opening(path: path, error)
        }
    }

    // MARK: Counting

    /// Keys bound per statement when counting copies (SQLite allows 32,766 parameters; a
    /// few hundred keep each statement's plan a handful of index seeks).
    static let keysPerStatement = 500

    /// How many copies of each key: index seeks only (`record_gtin`, `record_release`,
    /// `record_pinned`), so the cost follows the number of keys, not of records, which
    /// matters when it runs inside every batch of an import.
    static func copies(_ db: Database, of keys: Set<ImportKey>) throws -> [ImportKey: Int] {
        var gtins: [String] = []
        var releases: [Int] = []
        var described: [String] = []
        for key in keys {
            switch key {
            case .gtin(let gtin): gtins.append(gtin.canonical)
            case .release(let id): releases.append(id)
            case .described(let text): described.append(text)
            }
        }
        var counts: [ImportKey: Int] = [:]
        // Before migration v6 (a dry run reads an older file as it is) no record has a key.
        if !described.isEmpty, try db.columns(in: "record").contains(where: { $0.name == "entryKey" }) {
            for chunk in stride(from: 0, to: described.count, by: keysPerStatement) {
                let part = Array(described[chunk..<min(chunk + keysPerStatement, described.count)])
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT entryKey, COUNT(*) FROM record WHERE entryKey IN (\(placeholders(part.count))) GROUP BY entryKey",
                    arguments: StatementArguments(part))
                while let row = try rows.next() { counts[.described(row[0])] = row[1] }
            }
        }
        for chunk in stride(from: 0, to: gtins.count, by: keysPerStatement) {
            let part = Array(gtins[chunk..<min(chunk + keysPerStatement, gtins.count)])
            let rows = try Row.fetchCursor(
                db, sql: "SELECT gtin, COUNT(*) FROM record WHERE gtin IN (\(placeholders(part.count))) GROUP BY gtin",
                arguments: StatementArguments(part))
            while let row = try rows.next() {
                let text: String = row[0]
                if let gtin = GTIN(canonical: text) { counts[.gtin(gtin)] = row[1] }
            }
        }
        guard !releases.isEmpty else { return counts }
        // A release's copies: records matched to it, and records waiting with it pinned
        // (COALESCE(releaseID, pinnedReleaseID), written as two indexed queries). Before
        // migration v3 a database has no pinned releases.
        let pinned = try db.columns(in: "record").contains { $0.name == "pinnedReleaseID" }
        var queries = ["SELECT releaseID, COUNT(*) FROM record WHERE releaseID IN (%@) GROUP BY releaseID"]
        if pinned {
            queries.append(
                "SELECT pinnedReleaseID, COUNT(*) FROM record WHERE pinnedReleaseID IN (%@) AND releaseID IS NULL GROUP BY pinnedReleaseID")
        }
        for chunk in stride(from: 0, to: releases.count, by: keysPerStatement) {
            let part = Array(releases[chunk..<min(chunk + keysPerStatement, releases.count)])
            for query in queries {
                let rows = try Row.fetchCursor(
                    db, sql: query.replacingOccurrences(of: "%@", with: placeholders(part.count)),
                    arguments: StatementArguments(part))
                while let row = try rows.next() {
                    let id: Int = row[0]
                    counts[.release(id), default: 0] += row[1]
                }
            }
        }
        return counts
    }
}
