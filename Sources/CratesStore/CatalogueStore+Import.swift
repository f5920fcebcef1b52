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

    /// Adds every one of `entries` that can be stored (a barcode, or a description; rows
    /// known only by a release id are skipped) as a new copy, whatever the collection holds:
    /// `importEntries(_:copies: true)` for callers that decided themselves what to add.
    /// Returns the new records' ids in order; `progress` gets the number added so far.
    ///
    /// A decision made before this call may be stale by the time it runs (the race the
    /// benchmark's `--racy` baseline shows), hence the SPI: tests' fixtures and the benchmark.
    @_spi(Benchmark)
    public func importEntries(
        _ entries: [ImportEntry], now: Date = Date(), batchSize: Int = defaultBatchSize,
        shouldContinue: @escaping @Sendable () -> Bool = { true },
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(StoreError) -> [Int64] {
        let counted: (@Sendable (Int, Int) -> Void)?
        if let progress {
            counted = { added, _ in progress(added) }
        } else {
            counted = nil
        }
        do throws(ImportWriteError) {
            let outcome = try await importEntries(
                ImportEntries(entries), copies: true, now: now, batchSize: batchSize, keepingIDs: true,
                shouldContinue: shouldContinue, progress: counted)
            return outcome.addedIDs
        } catch {
            throw error.error
        }
    }

    /// What `importEntries(_:copies:)` did.
    public struct ImportOutcome: Hashable, Sendable {
        /// How many records were added.
        public var added = 0
        /// The records added, in file order, when asked for (`keepingIDs`): a million ids
        /// are 8 MB an import need not hold.
        public var addedIDs: [Int64] = []
        /// Valid lines whose copy the collection already held when their batch was written.
        public var present = 0
        /// Lines known only by a Discogs release id whose copy the collection does not hold:
        /// not written (their barcode must come from Discogs first; see
        /// `importEntries(_:copies:)`).
        public var needsDiscogs = 0
        /// Those lines: each one's position in the entries, and which copy of its release it
        /// is in the file (what `addIfAbsent(_:copiesWanted:countedBy:)` wants; 0 with
        /// `copies`).
        public var releaseRows: [ReleaseRow] = []
        /// Valid lines dealt with so far (added, present or needing Discogs).
        public var processed = 0
        /// `shouldContinue` stopped the import before every batch was written.
        public var stopped = false

        public init() {}
    }

    /// A line known only by a Discogs release id (see `ImportOutcome.releaseRows`).
    public struct ReleaseRow: Hashable, Sendable {
        public var position: Int
        public var occurrence: Int
    }

    /// An import that failed part-way: what it had committed before (kept: every batch is
    /// its own transaction) and why it stopped, said so that the user knows that re-running
    /// the same import finishes the job (issue 12: "10,003 of 50,000 were added, then the disk
    /// was full" must not read "nothing could be imported").
    public struct ImportWriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Why the batch in hand could not be written (nothing of it was).
        public var error: StoreError
        /// What the batches before it did.
        public var outcome: ImportOutcome
        /// The valid lines of the file.
        public var total: Int

        public init(error: StoreError, outcome: ImportOutcome, total: Int) {
            self.error = error
            self.outcome = outcome
            self.total = total
        }

        public var description: String {
            let cause = error == .diskFull ? "the disk is full" : error.description
            guard outcome.processed > 0 else { return "\(cause): nothing was imported" }
            let remedy = error == .diskFull ? "free some space, then run" : "run"
            let added = outcome.added == 1 ? "1 record was" : "\(outcome.added) records were"
            return "\(cause) after \(outcome.processed) of \(total) lines: \(added) added and kept; "
                + "\(remedy) the same import again to add the rest"
        }
    }

    /// Adds the copies of `entries` the collection does not hold yet (every one, with
    /// `copies`), `batchSize` entries per IMMEDIATE write transaction, and says what it did.
    ///
    /// A key (barcode, release id, or a described row's `entryKey`) listed n times wants n
    /// copies in all. Inside each
    /// batch's transaction the collection's copies of the batch's keys are counted again,
    /// and an entry is added only when it is a later copy than the collection holds now
    /// (its occurrence in the file, `ImportEntries.occurrences()`, above the count). The
    /// check and the insert share SQLite's write lock, so two or three imports of the same
    /// list at once, or an import and a `crates add`, store each barcode the wanted number
    /// of times (issue 12), and an import run again adds nothing twice.
    ///
    /// Each entry becomes a `pending` record dated `addedAt` (else `now`) with its note, in
    /// the place its location names (found, or made: `LocationTree.placement(forImported:)`).
    /// An entry with a release id keeps it as the record's pinned release, so that its lookup
    /// fetches that release; when the release is already stored, the record is matched to it
    /// at once. An entry described by its values (a CSV row without a barcode: catalogue
    /// number, artist, title…) keeps them as the collector's values, and its lookup searches
    /// Discogs by them.
    ///
    /// Entries known only by a release id are not written (`needsDiscogs`): once Discogs
    /// names the barcode, add each with `addIfAbsent(_:copiesWanted:countedBy:)`, wanting its
    /// occurrence, counted by `.release(id)`, which keeps that step idempotent too.
    ///
    /// Each batch is committed before the next begins, so a kill loses at most the batch in
    /// hand; `shouldContinue` (asked before each batch) stops an interrupted import between
    /// batches; `progress` is called after each commit with the records added and the lines
    /// dealt with so far. A failure throws `ImportWriteError`, which carries what the earlier
    /// batches added.
    public func importEntries(
        _ entries: ImportEntries, copies: Bool, keepingValues: Bool = false, now: Date = Date(), batchSize: Int = defaultBatchSize,
        keepingIDs: Bool = false, shouldContinue: @escaping @Sendable () -> Bool = { true },
        progress: (@Sendable (_ added: Int, _ processed: Int) -> Void)? = nil,
        waitingForLock: (@Sendable () -> Void)? = nil
    ) async throws(ImportWriteError) -> ImportOutcome {
        let occurrences = copies ? [] : entries.occurrences()
        var outcome = ImportOutcome()
        let size = max(1, batchSize)
        var start = 0
        while start < entries.count {
            guard shouldContinue() else {
                outcome.stopped = true
                break
            }
            let range = start..<min(start + size, entries.count)
            do {
                let batch = try await writeBatch(waitingForLock: waitingForLock, shouldContinue: shouldContinue) { db in
                    try Self.importBatch(
                        db, entries, range, occurrences: occurrences, copies: copies, keepingValues: keepingValues, now: now)
                }
                outcome.added += batch.ids.count
                if keepingIDs { outcome.addedIDs += batch.ids }
                outcome.present += batch.present
                outcome.needsDiscogs += batch.releaseRows.count
                outcome.releaseRows += batch.releaseRows
            } catch {
                throw ImportWriteError(error: error, outcome: outcome, total: entries.count)
            }
            outcome.processed = range.upperBound
            start = range.upperBound
            progress?(outcome.added, outcome.processed)
        }
        return outcome
    }

    /// Writes one batch. Another import's batch (or any program's transaction) may hold the
    /// lock longer than one busy timeout on a slow machine: a batch waits several, saying so
    /// once, rather than failing an import that would go through.
    private func writeBatch(
        waitingForLock: (@Sendable () -> Void)?, shouldContinue: @escaping @Sendable () -> Bool,
        _ body: @escaping @Sendable (Database) throws -> ImportedBatch
    ) async throws(StoreError) -> ImportedBatch {
        let patience = LockPatience.command(waiting: waitingForLock)
        return try await write(patience: patience, shouldContinue: shouldContinue, body)
    }

    /// What one batch wrote: the new records' ids, the lines already present, the rows
    /// known only by a release id.
    private typealias ImportedBatch = (ids: [Int64], present: Int, releaseRows: [ReleaseRow])

    /// How many busy timeouts one batch waits for another program's lock before the import
    /// fails (10 s each by default: a minute).
    public static let importLockAttempts = LockPatience.commandAttempts

    /// One batch of `importEntries(_:copies:)`, inside its write transaction. Barcodes go in
    /// one statement; described rows with the row triggers lifted (`insertDescribed`); the
    /// ids come back in file order.
    private static func importBatch(
        _ db: Database, _ entries: ImportEntries, _ range: Range<Int>, occurrences: [UInt32], copies: Bool,
        keepingValues: Bool, now: Date
    ) throws -> ImportedBatch {
        var batch: [(entry: ImportEntry, occurrence: Int)] = []
        batch.reserveCapacity(range.count)
        for index in range { batch.append((entries[index], copies ? 0 : Int(occurrences[index]))) }
        let held = copies ? [:] : try Self.copies(db, of: Set(batch.map(\.entry.key)))
        var rows: [ImportEntry] = []
        rows.reserveCapacity(batch.count)
        var present = 0
        var releaseRows: [ReleaseRow] = []
        for (offset, (entry, occurrence)) in batch.enumerated() {
            if !copies, occurrence <= held[entry.key] ?? 0 {
                present += 1
            } else if entry.gtin == nil, entry.described == nil {
                releaseRows.append(ReleaseRow(position: range.lowerBound + offset, occurrence: occurrence))
            } else {
                rows.append(entry)
            }
        }
        let barcodes = try insertImported(db, rows.filter { $0.gtin != nil }, now: now)
        guard barcodes.count < rows.count else { return (barcodes, present, releaseRows) }
        let described = try insertDescribed(db, rows.filter { $0.gtin == nil }, keepingValues: keepingValues, now: now)
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        var next = (barcodes: barcodes.makeIterator(), described: described.makeIterator())
        for entry in rows {
            if let id = entry.gtin != nil ? next.barcodes.next() : next.described.next() { ids.append(id) }
        }
        return (ids, present, releaseRows)
    }

    /// The records among `ids` (an import's, in the order added) that a row described by its
    /// values added and whose lookup found a release that a record older than all of them
    /// holds: a copy the collection had already. The import's duplicate rule could not see it
    /// before the lookup named the release (`Importer` takes them back out).
    public func describedDuplicates(among ids: [Int64]) async throws(StoreError) -> [Int64] {
        guard let first = ids.min() else { return [] }
        return try await read { db in
            var found: [Int64] = []
            for chunk in stride(from: 0, to: ids.count, by: Self.keysPerStatement) {
                let part = ids[chunk..<min(chunk + Self.keysPerStatement, ids.count)]
                found += try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT r.id FROM record r
                        WHERE r.id IN (\(part.map { _ in "?" }.joined(separator: ", ")))
                          AND r.gtin IS NULL AND r.entryKey IS NOT NULL AND r.lookupState = ?
                          AND EXISTS (SELECT 1 FROM record o WHERE o.releaseID = r.releaseID AND o.id < ?)
                        ORDER BY r.id
                        """,
                    arguments: StatementArguments(Array(part)) + [LookupState.matched, first])
            }
            return found
        }
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
        try await importFollowUp(imported: { gtins.contains($0) }, entryKeys: entryKeys)
    }

    /// `importFollowUp(gtins:entryKeys:)` with the import's barcodes told by `imported` (a
    /// million-line import need not make a set of a million GTINs).
    public func importFollowUp(
        imported: @escaping @Sendable (GTIN) -> Bool, entryKeys: Set<String> = []
    ) async throws(StoreError) -> ImportFollowUp {
        try await importFollowUp(imported: imported, isImportedKey: { entryKeys.contains($0) })
    }

    /// `importFollowUp(imported:entryKeys:)` with the described rows' keys told by
    /// `isImportedKey` too (a million described rows need not make a set of their keys).
    public func importFollowUp(
        imported: @escaping @Sendable (GTIN) -> Bool, isImportedKey: @escaping @Sendable (String) -> Bool
    ) async throws(StoreError) -> ImportFollowUp {
        try await read { db in
            var needsPerson: [ImportFollowUp.Record] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, gtin, lookupState, candidateCount, entryKey, \(StoredValues.ownColumns.joined(separator: ", "))
                    FROM record WHERE lookupState IN (?, ?) ORDER BY id
                    """,
                arguments: [LookupState.ambiguous, LookupState.notFound])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let state = try StoredValues.lookupState(row[2], recordID: id)
                if let gtinText = row[1] as String? {
                    guard let gtin = GTIN(canonical: gtinText) else {
                        throw StoreError.unreadableValue(recordID: id, column: "gtin", value: gtinText)
                    }
                    guard imported(gtin) else { continue }
                    needsPerson.append(.init(id: id, gtin: gtin, state: state, candidateCount: row[3]))
                } else if let key = row[4] as String?, isImportedKey(key) {
                    needsPerson.append(.init(
                        id: id, gtin: nil, state: state, candidateCount: row[3], entryKey: key,
                        described: try StoredValues.collector(from: row, at: 5)))
                }
            }
            let counts = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM record WHERE lookupState IN (?, ?)),
                           (SELECT COUNT(*) FROM record WHERE lookupState = ?)
                    """,
                arguments: [LookupState.pending, LookupState.lookingUp, LookupState.failed])
            return ImportFollowUp(
                needsPerson: needsPerson, pending: counts.map { $0[0] } ?? 0, failed: counts.map { $0[1] } ?? 0)
        }
    }

    /// `--manual-missing`: the import's described rows that Discogs has no release for (not
    /// found, keyed in `entryKeys`) become records entered by hand, their values the
    /// record. Returns how many.
    public func enterNotFoundByHand(entryKeys: Set<String>, now: Date = Date()) async throws(StoreError) -> Int {
        guard !entryKeys.isEmpty else { return 0 }
        return try await enterNotFoundByHand(isImportedKey: { entryKeys.contains($0) }, now: now)
    }

    /// `enterNotFoundByHand(entryKeys:now:)` with the keys told by `isImportedKey`.
    public func enterNotFoundByHand(
        isImportedKey: @escaping @Sendable (String) -> Bool, now: Date = Date()
    ) async throws(StoreError) -> Int {
        try await write { db in
            var count = 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, entryKey FROM record WHERE lookupState = ? AND gtin IS NULL AND entryKey IS NOT NULL",
                arguments: [LookupState.notFound])
            for row in rows where isImportedKey(row[1]) {
                let id: Int64 = row[0]
                try db.execute(
                    sql: "UPDATE record SET lookupState = ?, updatedAt = ? WHERE id = ?",
                    arguments: [LookupState.handEntered, StoredValues.seconds(now), id])
                try StoredValues.addEvent(
                    db, recordID: id, at: now, kind: .enteredByHand, message: "entered by hand: not on Discogs (--manual-missing)")
                count += 1
            }
            return count
        }
    }

    /// Records a lookup worker would claim now (`DueLookups`, the rule of `claimNext`). An
    /// import drains the queue until this is zero.
    public func dueLookups(now: Date = Date()) async throws(StoreError) -> Int {
        let (sql, arguments) = DueLookups.count(now: StoredValues.seconds(now))
        return try await read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    // MARK: Implementation

    /// Keys bound per statement when counting copies (SQLite allows 32,766 parameters; a
    /// few hundred keep each statement's plan a handful of index seeks).
    private static let keysPerStatement = 500

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
                                    sectionKey, rowKey, updatedAt, mediaCondition, sleeveCondition, rating, filterText)
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?, json_extract(value, '$[2]'),
                       json_extract(value, '$[3]'), json_extract(value, '$[4]'), ?, ?, ?, ?,
                       json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'),
                       \(Schema.insertedFilterText(gtin: "json_extract(value, '$[0]')", releaseID: "NULL", ownSearchText: "NULL"))
                FROM json_each(?) ORDER BY key
                """,
            arguments: [
                AddMethod.import.rawValue, LookupState.pending, SortKey.unknownSection,
                SortKey.unmatchedRow, nowSeconds, json,
            ])
        try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: db.changesCount)
        // Indexed before a release is attached below (which changes their text).
        try Schema.indexFilterTexts(db, above: before)
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
        // A row of crates' export keeps the collector's own values, and one entered by hand
        // stays so (never looked up).
        for (id, entry) in zip(ids, rows) where entry.collector != nil || entry.handEntered {
            let collector = entry.collector ?? .none
            try store(db, collector: collector, note: entry.note, grading: entry.grading, recordID: id, now: now)
            if entry.handEntered {
                try db.execute(
                    sql: "UPDATE record SET lookupState = ?, releaseID = NULL, pinnedReleaseID = NULL WHERE id = ?",
                    arguments: [LookupState.handEntered, id])
                try StoredValues.rekey(db, recordID: id)
                try StoredValues.addEvent(
                    db, recordID: id, at: now, kind: .enteredByHand, message: "entered by hand: \(collector.description)")
            }
        }
        return ids
    }

    /// A JSON string (RFC 8259 §7), or null.
    private static func jsonText(_ text: String?) -> String {
        text.map(JSONStringLiteral.quoted) ?? "null"
    }
}
