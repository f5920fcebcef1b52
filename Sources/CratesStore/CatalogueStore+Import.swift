import CratesCore
import Foundation
import GRDB

/// What `crates import` needs of the store: how many copies of each key the collection
/// holds (one query per kind of key), the new records added in batches, and afterwards what
/// of the file still needs a person or waits for Discogs.
extension CatalogueStore {
    /// How many copies of each of `keys` the collection holds; keys it does not hold are
    /// absent. A barcode counts every record of that GTIN; a release id every record matched
    /// to that release or imported with it (`pinnedReleaseID`).
    public func copies(of keys: Set<ImportKey>) async throws(StoreError) -> [ImportKey: Int] {
        try await read { db in try Self.copies(db, of: keys) }
    }

    /// `copies(of:)` from the database at `path` without creating, migrating or changing
    /// anything (`crates import --dry-run`): a missing file is an empty collection. A file
    /// that is not a crates database, or is a newer crates', is refused as by `init(path:)`.
    public static func copies(of keys: Set<ImportKey>, inFileAt path: String) throws(StoreError) -> [ImportKey: Int] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        try inspect(path: path)
        let configuration = Self.configuration(label: "crates.store.dry-run", readonly: true)
        do {
            // Opened as immutable when no process has it open (no -wal file): a read-only
            // connection to a WAL database would otherwise create -wal and -shm beside it.
            if !FileManager.default.fileExists(atPath: path + "-wal"), uriFilenames,
               let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed),
               let counts = try? DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
                .read({ db in try Self.copies(db, of: keys) })
            {
                return counts
            }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try Self.copies(db, of: keys) }
        } catch {
            throw StoreError.opening(path: path, error)
        }
    }

    /// Adds `entries` (those with a barcode; the others are skipped) as imported records,
    /// `batchSize` per transaction, and returns their ids in order.
    ///
    /// Each entry becomes a `pending` record dated `addedAt` (else `now`) with its note and
    /// location. An entry with a release id keeps it as the record's pinned release, so that
    /// its lookup fetches that release; when the release is already stored, the record is
    /// matched to it at once. Each batch is committed before the next begins, so a kill
    /// loses at most the batch in hand, and `shouldContinue` (asked before each batch) stops
    /// an interrupted import between batches. `progress` is called after each commit with
    /// the number of records added so far.
    public func importEntries(
        _ entries: [ImportEntry], now: Date = Date(), batchSize: Int = defaultBatchSize,
        shouldContinue: @escaping @Sendable () -> Bool = { true },
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(StoreError) -> [Int64] {
        let storable = entries.filter { $0.gtin != nil }
        var ids: [Int64] = []
        ids.reserveCapacity(storable.count)
        let size = max(1, batchSize)
        var start = 0
        while start < storable.count, shouldContinue() {
            let batch = Array(storable[start..<min(start + size, storable.count)])
            ids += try await write { db in try Self.insertImported(db, batch, now: now) }
            start += batch.count
            progress?(ids.count)
        }
        return ids
    }

    /// What the records of an import need now: those waiting for a person, and how many
    /// still wait for Discogs.
    public struct ImportFollowUp: Hashable, Sendable {
        /// A record a person must resolve in the TUI: ambiguous (with its candidates) or not
        /// found on Discogs.
        public struct Record: Hashable, Sendable {
            public var id: Int64
            public var gtin: GTIN
            public var state: LookupState
            public var candidateCount: Int
        }

        /// Ambiguous and not-found records, oldest first.
        public var needsPerson: [Record]
        /// Pending or being looked up.
        public var pending: Int
        /// Failed, to be retried later.
        public var failed: Int
    }

    /// The follow-up for the records whose GTIN is in `gtins` (the import's barcodes): one
    /// read of the records not matched yet.
    public func importFollowUp(gtins: Set<GTIN>) async throws(StoreError) -> ImportFollowUp {
        let wanted = Set(gtins.map(\.canonical))
        return try await read { db in
            var followUp = ImportFollowUp(needsPerson: [], pending: 0, failed: 0)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, gtin, lookupState, candidateCount FROM record
                    WHERE lookupState IN ('pending', 'lookingUp', 'failed', 'ambiguous', 'notFound')
                    ORDER BY id
                    """)
            while let row = try rows.next() {
                let gtinText: String = row[1]
                guard wanted.contains(gtinText) else { continue }
                let id: Int64 = row[0]
                let state = try StoredValues.lookupState(row[2], recordID: id)
                switch state {
                case .pending, .lookingUp: followUp.pending += 1
                case .failed: followUp.failed += 1
                default:
                    guard let gtin = GTIN(canonical: gtinText) else {
                        throw StoreError.unreadableValue(recordID: id, column: "gtin", value: gtinText)
                    }
                    followUp.needsPerson.append(.init(id: id, gtin: gtin, state: state, candidateCount: row[3]))
                }
            }
            return followUp
        }
    }

    /// Records a lookup worker would claim now: pending, failed whose retry time has come,
    /// and claims whose lease has run out (the rule of `claimNext`). An import drains the
    /// queue until this is zero.
    public func dueLookups(now: Date = Date()) async throws(StoreError) -> Int {
        let seconds = StoredValues.seconds(now)
        return try await read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM record WHERE lookupState = 'pending')
                         + (SELECT COUNT(*) FROM record WHERE lookupState = 'failed' AND (retryAt IS NULL OR retryAt <= ?))
                         + (SELECT COUNT(*) FROM record
                            WHERE lookupState = 'lookingUp' AND (claimedUntil IS NULL OR claimedUntil <= ?))
                    """,
                arguments: [seconds, seconds]) ?? 0
        }
    }

    // MARK: Implementation

    /// Above this many barcodes, counting every GTIN in one scan of the `record_gtin` index
    /// is cheaper than binding them all.
    private static let gtinListLimit = 500

    static func copies(_ db: Database, of keys: Set<ImportKey>) throws -> [ImportKey: Int] {
        var gtins: Set<String> = []
        var releases: Set<Int> = []
        for key in keys {
            switch key {
            case .gtin(let gtin): gtins.insert(gtin.canonical)
            case .release(let id): releases.insert(id)
            }
        }
        var counts: [ImportKey: Int] = [:]
        if !gtins.isEmpty {
            let sql: String
            var arguments = StatementArguments()
            if gtins.count <= gtinListLimit {
                sql = "SELECT gtin, COUNT(*) FROM record WHERE gtin IN (\(importPlaceholders(gtins.count))) GROUP BY gtin"
                arguments = StatementArguments(Array(gtins))
            } else {
                sql = "SELECT gtin, COUNT(*) FROM record GROUP BY gtin"
            }
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let text: String = row[0]
                guard gtins.contains(text), let gtin = GTIN(canonical: text) else { continue }
                counts[.gtin(gtin)] = row[1]
            }
        }
        if !releases.isEmpty {
            // Before migration v3 a database has no pinned releases.
            let pinned = try db.columns(in: "record").contains { $0.name == "pinnedReleaseID" }
            let release = pinned ? "COALESCE(releaseID, pinnedReleaseID)" : "releaseID"
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(release) AS r, COUNT(*) FROM record WHERE r IS NOT NULL GROUP BY r")
            while let row = try rows.next() {
                let id: Int = row[0]
                if releases.contains(id) { counts[.release(id)] = row[1] }
            }
        }
        return counts
    }

    /// One batch: the records through the same insert as `addAll` (so section counts stay
    /// right), then the pinned releases, matched at once when the release is stored.
    private static func insertImported(_ db: Database, _ entries: [ImportEntry], now: Date) throws -> [Int64] {
        let records = entries.compactMap { entry in
            entry.gtin.map {
                NewRecord(
                    gtin: $0, addedAt: entry.addedAt ?? now, addMethod: .import, note: entry.note,
                    location: entry.location)
            }
        }
        let ids = try insert(db, records, now: now)
        let pin = try db.cachedStatement(sql: "UPDATE record SET pinnedReleaseID = ? WHERE id = ?")
        var stored: [Int: Release?] = [:]
        for (id, entry) in zip(ids, entries) {
            guard let releaseID = entry.releaseID else { continue }
            try pin.execute(arguments: [releaseID, id])
            if stored[releaseID] == nil { stored[releaseID] = try StoredValues.fetchRelease(db, id: releaseID) }
            if let release = stored[releaseID] ?? nil {
                try attach(db, release: release, to: id, now: now)
                try StoredValues.addEvent(
                    db, recordID: id, at: now, kind: .matched,
                    message: "release \(release.id) (imported with its release id): \(describe(release))")
            }
        }
        return ids
    }

    private static func importPlaceholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Whether this SQLite reads `file:` URIs as filenames (compile option SQLITE_USE_URI;
    /// GRDB does not pass SQLITE_OPEN_URI).
    private static let uriFilenames: Bool = {
        let probe = try? DatabaseQueue().read { db in
            try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('USE_URI')")
        }
        return probe == true
    }()
}
