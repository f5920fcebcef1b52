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

    /// Adds `entries` (those with a barcode, or described by their values; rows known only
    /// by a release id are skipped) as imported records, `batchSize` per transaction, and
    /// returns their ids in order.
    ///
    /// Each entry becomes a `pending` record dated `addedAt` (else `now`) with its note, in
    /// the place its location names (found, or made: `LocationTree.placement(forImported:)`). An entry with a release id keeps it as the record's pinned release, so that
    /// its lookup fetches that release; when the release is already stored, the record is
    /// matched to it at once. An entry described by its values (a CSV row without a barcode:
    /// catalogue number, artist, title…) keeps them as the collector's values, and its lookup
    /// searches Discogs by them. Each batch is committed before the next begins, so a kill
    /// loses at most the batch in hand, and `shouldContinue` (asked before each batch) stops
    /// an interrupted import between batches. `progress` is called after each commit with
    /// the number of records added so far.
    public func importEntries(
        _ entries: [ImportEntry], now: Date = Date(), batchSize: Int = defaultBatchSize,
        shouldContinue: @escaping @Sendable () -> Bool = { true },
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(StoreError) -> [Int64] {
        let storable = entries.filter { $0.gtin != nil || $0.described != nil }
        var ids: [Int64] = []
        ids.reserveCapacity(storable.count)
        let size = max(1, batchSize)
        var start = 0
        while start < storable.count, shouldContinue() {
            let batch = Array(storable[start..<min(start + size, storable.count)])
            ids += try await write { db in
                // Barcodes in one statement; described rows (few, each searched later at a
                // request a second or more) one by one; the ids put back in file order.
                let barcodes = try Self.insertImported(db, batch.filter { $0.gtin != nil }, now: now)
                var described: [Int64] = []
                for entry in batch where entry.gtin == nil { described.append(try Self.insertDescribed(db, entry, now: now)) }
                var merged: [Int64] = []
                merged.reserveCapacity(batch.count)
                var b = barcodes.makeIterator()
                var d = described.makeIterator()
                for entry in batch {
                    if let id = entry.gtin != nil ? b.next() : d.next() { merged.append(id) }
                }
                return merged
            }
            start += batch.count
            progress?(ids.count)
        }
        return ids
    }

    /// One row described by its values: a pending record without a barcode, its values the
    /// collector's, keyed on them for the duplicate rule.
    private static func insertDescribed(_ db: Database, _ entry: ImportEntry, now: Date) throws -> Int64 {
        let fields = entry.described ?? .none
        return try insert(db, [NewRecord(
            gtin: nil, addedAt: entry.addedAt ?? now, addMethod: .import, note: entry.note, location: entry.location,
            collector: fields, grading: entry.grading)], now: now)[0]
    }

    /// What the records of an import need now: those waiting for a person, and how many
    /// lookups still wait in the queue.
    public struct ImportFollowUp: Hashable, Sendable {
        /// A record a person must resolve in the TUI: ambiguous (with its candidates) or not
        /// found on Discogs.
        public struct Record: Hashable, Sendable {
            public var id: Int64
            /// Nil for a row described by its values.
            public var gtin: GTIN?
            /// `ambiguous` or `notFound`.
            public var state: LookupState
            /// The pressings to choose from, when ambiguous.
            public var candidateCount: Int
            /// The import key of a row described by its values (`RecordFields.entryKey`).
            public var entryKey: String?
            /// What the record says of itself, for a row without a barcode.
            public var described: RecordFields?
        }

        /// The import's ambiguous and not-found records, oldest first.
        public var needsPerson: [Record]
        /// Records of the whole collection pending or being looked up.
        public var pending: Int
        /// Records of the whole collection whose lookup failed, to be retried later.
        public var failed: Int
    }

    /// The ambiguous and not-found records whose GTIN is in `gtins` (the import's barcodes)
    /// or whose key is in `entryKeys` (the import's described rows), and the queue's length:
    /// two indexed reads, whatever the size of the collection.
    public func importFollowUp(gtins: Set<GTIN>, entryKeys: Set<String> = []) async throws(StoreError) -> ImportFollowUp {
        try await read { db in
            var needsPerson: [ImportFollowUp.Record] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, gtin, lookupState, candidateCount, entryKey, \(StoredValues.ownColumns.joined(separator: ", "))
                    FROM record WHERE lookupState IN ('ambiguous', 'notFound') ORDER BY id
                    """)
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let state = try StoredValues.lookupState(row[2], recordID: id)
                if let gtinText = row[1] as String? {
                    guard let gtin = GTIN(canonical: gtinText) else {
                        throw StoreError.unreadableValue(recordID: id, column: "gtin", value: gtinText)
                    }
                    guard gtins.contains(gtin) else { continue }
                    needsPerson.append(.init(id: id, gtin: gtin, state: state, candidateCount: row[3]))
                } else if let key = row[4] as String?, entryKeys.contains(key) {
                    needsPerson.append(.init(
                        id: id, gtin: nil, state: state, candidateCount: row[3], entryKey: key,
                        described: try StoredValues.collector(from: row, at: 5)))
                }
            }
            let counts = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM record WHERE lookupState IN ('pending', 'lookingUp')),
                           (SELECT COUNT(*) FROM record WHERE lookupState = 'failed')
                    """)
            return ImportFollowUp(
                needsPerson: needsPerson, pending: counts.map { $0[0] } ?? 0, failed: counts.map { $0[1] } ?? 0)
        }
    }

    /// `--manual-missing`: the import's described rows that Discogs has no release for (not
    /// found, keyed in `entryKeys`) become records entered by hand, their values the
    /// record. Returns how many.
    public func enterNotFoundByHand(entryKeys: Set<String>, now: Date = Date()) async throws(StoreError) -> Int {
        guard !entryKeys.isEmpty else { return 0 }
        return try await write { db in
            var count = 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, entryKey FROM record WHERE lookupState = 'notFound' AND gtin IS NULL AND entryKey IS NOT NULL")
            for row in rows where entryKeys.contains(row[1]) {
                let id: Int64 = row[0]
                try db.execute(
                    sql: "UPDATE record SET lookupState = 'handEntered', updatedAt = ? WHERE id = ?",
                    arguments: [StoredValues.seconds(now), id])
                try StoredValues.addEvent(
                    db, recordID: id, at: now, kind: .enteredByHand, message: "entered by hand: not on Discogs (--manual-missing)")
                count += 1
            }
            return count
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
            case .described: break
            }
        }
        var counts: [ImportKey: Int] = [:]
        let described = keys.compactMap { key -> String? in if case .described(let text) = key { text } else { nil } }
        // Before migration v6 (a dry run reads an older file as it is) no record has a key.
        if !described.isEmpty, try db.columns(in: "record").contains(where: { $0.name == "entryKey" }) {
            for chunk in stride(from: 0, to: described.count, by: gtinListLimit) {
                let part = Array(described[chunk..<min(chunk + gtinListLimit, described.count)])
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT entryKey, COUNT(*) FROM record WHERE entryKey IN (\(importPlaceholders(part.count))) GROUP BY entryKey",
                    arguments: StatementArguments(part))
                while let row = try rows.next() { counts[.described(row[0])] = row[1] }
            }
        }
        if !gtins.isEmpty {
            let sql: String
            var arguments = StatementArguments()
            if gtins.count <= gtinListLimit {
                sql = "SELECT gtin, COUNT(*) FROM record WHERE gtin IN (\(importPlaceholders(gtins.count))) GROUP BY gtin"
                arguments = StatementArguments(Array(gtins))
            } else {
                sql = "SELECT gtin, COUNT(*) FROM record WHERE gtin IS NOT NULL GROUP BY gtin"
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

    /// One batch in one statement: the rows go to SQLite as one JSON array that
    /// `json_each` unpacks in C, which takes half the time of binding 100,000 rows value by
    /// value through GRDB (the 3 s budget of issue 6). Every imported record is pending, so
    /// it goes where `insert` puts an unmatched record (Unknown, `SortKey.unmatchedRow`),
    /// and the section is counted once for the batch as `StoredValues.count` requires. A
    /// pinned release already stored is then attached at once.
    private static func insertImported(_ db: Database, _ entries: [ImportEntry], now: Date) throws -> [Int64] {
        let nowSeconds = StoredValues.seconds(now)
        // Each distinct location once: it joins a place or makes one (see `placeImported`).
        let places = try placeImported(db, Set(entries.lazy.compactMap(\.location)), now: now)
        var json = "["
        json.reserveCapacity(entries.count * 40)
        var rows: [ImportEntry] = []
        rows.reserveCapacity(entries.count)
        for entry in entries {
            guard let gtin = entry.gtin else { continue }
            if !rows.isEmpty { json += "," }
            json += "[\"\(gtin.canonical)\",\(StoredValues.seconds(entry.addedAt ?? now)),"
            json += jsonText(entry.note) + "," + (entry.location.flatMap { places[$0] }.map(String.init) ?? "null") + ","
            json += (entry.releaseID.map(String.init) ?? "null")
            json += "," + jsonText(entry.grading.media?.rawValue) + "," + jsonText(entry.grading.sleeve?.rawValue)
            json += "," + String(entry.grading.rating.value) + "]"
            rows.append(entry)
        }
        json += "]"
        guard !rows.isEmpty else { return [] }
        let before = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record") ?? 0
        try db.execute(
            sql: """
                INSERT INTO record (gtin, addedAt, addMethod, note, locationID, pinnedReleaseID, lookupState,
                                    sectionKey, rowKey, updatedAt, mediaCondition, sleeveCondition, rating)
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?, json_extract(value, '$[2]'),
                       json_extract(value, '$[3]'), json_extract(value, '$[4]'), ?, ?, ?, ?,
                       json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]')
                FROM json_each(?) ORDER BY key
                """,
            arguments: [
                AddMethod.import.rawValue, LookupState.pending.rawValue, SortKey.unknownSection,
                SortKey.unmatchedRow, nowSeconds, json,
            ])
        try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: db.changesCount)
        // Within this transaction the rows above the previous largest id are exactly these,
        // in file order (AUTOINCREMENT ids only grow).
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM record WHERE id > ? ORDER BY id", arguments: [before])
        guard ids.count == rows.count else {
            throw StoreError.database("the import inserted \(ids.count) records for \(rows.count) lines")
        }
        var stored: [Int: Release?] = [:]
        for (id, entry) in zip(ids, rows) {
            guard let releaseID = entry.releaseID else { continue }
            if stored[releaseID] == nil { stored[releaseID] = try StoredValues.fetchRelease(db, id: releaseID) }
            if let release = stored[releaseID] ?? nil {
                try attach(db, release: release, to: id, now: now)
                try StoredValues.addEvent(
                    db, recordID: id, at: now, kind: .matched,
                    message: "release \(release.id) (imported with its release id): \(release.displayTitle)")
            }
        }
        return ids
    }

    /// A JSON string (RFC 8259 §7), or null.
    private static func jsonText(_ text: String?) -> String {
        text.map(JSONStringLiteral.quoted) ?? "null"
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
