import CratesCore
import Foundation
import GRDB

extension CollectionStore {
    /// How many records a bulk add writes per transaction: large enough that the commit
    /// (an fsync of the WAL) is amortised, small enough that another process's writer
    /// waits only milliseconds for the lock between batches.
    public static let defaultBatchSize = 5_000

    /// Adds one copy and returns it as stored (state `pending`, or `matched` when the new
    /// record carries its release). One short transaction.
    public func add(_ new: NewRecord) async throws(StoreError) -> CollectionRecord {
        try await write { db in
            let id = try Self.insert(db, [new], now: Date())[0]
            guard let record = try StoredValues.fetchRecord(db, id: id) else { throw StoreError.recordNotFound(id) }
            return record
        }
    }

    /// What `addIfAbsent` did.
    public enum AddOutcome: Hashable, Sendable {
        /// The record was added, as stored.
        case added(CollectionRecord)
        /// The collection already held the copies wanted: nothing was added.
        case present(copies: Int)
    }

    /// Adds `new` unless the collection already holds `copiesWanted` copies of its key (by
    /// default `copyKey(of:)`: its barcode, else its release, else what it describes; an
    /// import row known by its Discogs release passes `.release(id)`). "Is it there?" and
    /// the insert are one IMMEDIATE write transaction, so SQLite's write lock serialises
    /// them across processes: four `crates add` of one barcode at once store one copy.
    /// Another copy on purpose (`--copy`, the TUI's "add another") is `add(_:)`;
    /// a record with no key at all is added.
    public func addIfAbsent(
        _ new: NewRecord, copiesWanted: Int = 1, countedBy key: ImportKey? = nil
    ) async throws(StoreError) -> AddOutcome {
        let key = key ?? Self.copyKey(of: new)
        return try await write { db in
            let copies = try key.map { key in try Self.copies(db, of: [key])[key] ?? 0 } ?? 0
            if copies >= copiesWanted { return .present(copies: copies) }
            let id = try Self.insert(db, [new], now: Date())[0]
            guard let record = try StoredValues.fetchRecord(db, id: id) else { throw StoreError.recordNotFound(id) }
            return .added(record)
        }
    }

    /// What copies of `new` are counted by for the duplicate rule: its barcode, else its
    /// release (one that lists no barcode), else what it describes (`RecordFields.entryKey`,
    /// a record entered by hand); nil when it has none of them.
    public static func copyKey(of new: NewRecord) -> ImportKey? {
        if let gtin = new.gtin { return .gtin(gtin) }
        if let release = new.release { return .release(release.id) }
        return new.collector.entryKey.map(ImportKey.described)
    }

    /// Adds many copies, `batchSize` per transaction, and returns their ids in order.
    ///
    /// Each batch is committed before the next begins: if the process dies, the committed
    /// batches stay. `progress`, when given, is called after each commit with the number of
    /// records committed so far.
    public func addAll(
        _ records: [NewRecord], batchSize: Int = defaultBatchSize,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws(StoreError) -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(records.count)
        var start = 0
        let size = max(1, batchSize)
        while start < records.count {
            let batch = Array(records[start..<min(start + size, records.count)])
            ids += try await write { db in try Self.insert(db, batch, now: Date()) }
            start += batch.count
            progress?(ids.count)
        }
        return ids
    }

    static func insert(_ db: Database, _ records: [NewRecord], now: Date) throws -> [Int64] {
        // Each distinct release once: upserted, its keys computed once.
        var keysByRelease: [Int: RecordKeys] = [:]
        for release in records.lazy.compactMap(\.release) where keysByRelease[release.id] == nil {
            let stored = try StoredValues.upsertRelease(db, release, now: now)
            keysByRelease[release.id] = RecordKeys(release: stored, gtin: "")
        }
        // Places named by path (an import's) found or made once per batch; places named by
        // id must exist.
        let places = try placeImported(
            db, Set(records.lazy.filter { $0.locationID == nil }.compactMap(\.location)), now: now)
        for id in Set(records.compactMap(\.locationID)) where try StoredValues.fetchLocation(db, id: id) == nil {
            // Removed meanwhile (by another process): said plainly, not as a foreign key.
            throw StoreError.location(.unknownID(id))
        }
        let columns = [
            "gtin", "addedAt", "addMethod", "note", "locationID", "releaseID", "lookupState", "sectionKey", "rowKey", "updatedAt",
        ] + StoredValues.ownColumns + StoredValues.gradingColumns + ["ownSearchText", "entryKey", "catalogueEdition"]
        // Each record with its filter text, the batch indexed at the end (`indexFilterTexts`).
        let statement = try db.cachedStatement(sql: """
            INSERT INTO record (\(columns.joined(separator: ", ")), filterText)
            VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")),
                    \(Schema.insertedFilterText(gtin: "?", releaseID: "?", ownSearchText: "?")))
            """)
        let before = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM record") ?? 0
        let nowSeconds = StoredValues.seconds(now)
        var ids: [Int64] = []
        ids.reserveCapacity(records.count)
        var added: [String: Int] = [:]
        for record in records {
            let gtin = record.gtin?.canonical
            let collector = record.collector
            let keys: RecordKeys?
            if collector.isEmpty {
                keys = record.release.flatMap { keysByRelease[$0.id] }
            } else {
                keys = RecordKeys(release: record.release, collector: collector, gtin: "")
            }
            let section = keys?.section ?? SortKey.unknownSection
            let row = keys.map { $0.rowPrefix == SortKey.unmatchedRow ? SortKey.unmatchedRow : $0.rowPrefix + (gtin ?? "") }
            try statement.execute(arguments: StatementArguments([
                gtin, StoredValues.seconds(record.addedAt), record.addMethod.rawValue, record.note,
                record.locationID ?? record.location.flatMap { places[$0] }, record.release?.id,
                record.initialState, section, row ?? SortKey.unmatchedRow, nowSeconds,
            ] + StoredValues.ownValues(collector) + StoredValues.gradingValues(record.grading) + [
                StoredValues.ownSearchText(collector), StoredValues.entryKey(gtin: record.gtin, collector: collector),
                record.release == nil ? nil : record.catalogueEdition?.dumpDate,
                gtin, record.release?.id, StoredValues.ownSearchText(collector),
            ]))
            let id = db.lastInsertedRowID
            ids.append(id)
            added[section, default: 0] += 1
            if record.handEntered {
                try StoredValues.addEvent(
                    db, recordID: id, at: now, kind: .enteredByHand, message: "entered by hand: \(collector.description)")
            }
        }
        try Schema.indexFilterTexts(db, above: before)
        for (section, count) in added { try StoredValues.count(db, sectionKey: section, by: count) }
        return ids
    }

    /// How many copies of `gtin` the collection holds.
    ///
    /// Not for a decision to add: another process may add between this read and the add
    /// (`addIfAbsent` counts and adds in one transaction). The benchmark's `--racy` baseline
    /// shows that race, hence the SPI.
    @_spi(Benchmark)
    public func copies(of gtin: GTIN) async throws(StoreError) -> Int {
        try await read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE gtin = ?", arguments: [gtin.canonical]) ?? 0
        }
    }

    /// The record with this id, nil when there is none.
    public func record(_ id: Int64) async throws(StoreError) -> CollectionRecord? {
        try await read { db in try StoredValues.fetchRecord(db, id: id) }
    }

    /// The record with its release and lookup history, nil when there is none.
    public func details(_ id: Int64) async throws(StoreError) -> RecordDetails? {
        try await read { db in
            guard let record = try StoredValues.fetchRecord(db, id: id) else { return nil }
            let release = try record.releaseID.flatMap { try StoredValues.fetchRelease(db, id: $0) }
            var details = RecordDetails(
                record: record, release: release, history: try StoredValues.events(db, recordID: id),
                discogs: try Self.fetchDiscogsLinks(db, recordIDs: [id])[id],
                discogsCopies: try record.releaseID.map { try Self.discogsCopies(db, releaseID: $0) } ?? 0)
            details.value = try Self.fetchCopyValue(db, recordID: id)
            return details
        }
    }

    /// Deletes these records (ids not found are skipped) and returns what was deleted,
    /// complete with lookup state and history, for `restore(_:)`.
    @discardableResult
    public func delete(_ ids: [Int64]) async throws(StoreError) -> [DeletedRecord] {
        try await write { db in
            var deleted: [DeletedRecord] = []
            for id in ids {
                guard let record = try StoredValues.fetchRecord(db, id: id) else { continue }
                let history = try StoredValues.events(db, recordID: id)
                try db.execute(sql: "DELETE FROM record WHERE id = ?", arguments: [id])
                deleted.append(DeletedRecord(record: record, history: history))
            }
            return deleted
        }
    }

    /// Undoes a delete: puts back the same rows with the same ids (ids are never reused, so
    /// they are free). Restoring twice is harmless.
    public func restore(_ deleted: [DeletedRecord]) async throws(StoreError) {
        try await write { db in
            for item in deleted {
                try StoredValues.insertExisting(db, item.record)
                for event in item.history { try StoredValues.insertExisting(db, event) }
            }
        }
    }

    /// Attaches `release` to the record, which becomes `matched`: the user chose one of the
    /// candidates of an ambiguous record, named a release for it, or linked a record entered
    /// by hand through a search. Any state may be overridden so; a lookup still in flight for
    /// the record is then ignored when it ends. The collector's values stay and still win,
    /// but for the values an import row was only found by (`StoredValues.dropEntryValues`).
    /// `edition`: the local catalogue the release was taken from (nil: from Discogs).
    public func choose(
        _ release: Release, for recordID: Int64, from edition: CatalogueEdition? = nil, now: Date = Date()
    ) async throws(StoreError) {
        try await write { db in
            guard let record = try StoredValues.fetchRecord(db, id: recordID) else { throw StoreError.recordNotFound(recordID) }
            let release = try StoredValues.upsertRelease(db, release, now: now)
            try StoredValues.dropEntryValues(db, recordID: recordID)
            try Self.attach(db, release: release, to: recordID, now: now, edition: edition)
            let verb = record.lookupState == .handEntered ? "linked to" : "chose"
            try StoredValues.addEvent(
                db, recordID: recordID, at: now, kind: .chosen,
                message: "\(verb) release \(release.id): \(release.displayTitle)")
        }
    }

    /// The person chose the release `releaseID` for the record, which could not be fetched
    /// now: the choice is kept as the record's pinned release and the record queued
    /// (`pending`), so that its lookup fetches that release, and no other, when Discogs
    /// answers. Throws `recordNotFound` when the record is gone.
    public func queueChoice(_ releaseID: Int, for recordID: Int64, now: Date = Date()) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE record SET lookupState = ?, pinnedReleaseID = ?, lookupError = NULL, lookupAttempts = 0,
                        retryAt = NULL, skipReason = NULL, claimedUntil = NULL, claimOwner = NULL, updatedAt = ?
                    WHERE id = ?
                    """,
                arguments: [LookupState.pending, releaseID, StoredValues.seconds(now), recordID])
            guard db.changesCount > 0 else { throw StoreError.recordNotFound(recordID) }
            try StoredValues.addEvent(
                db, recordID: recordID, at: now, kind: .chosen, message: "chose release \(releaseID): fetched when Discogs answers")
        }
    }

    /// Puts these records back in the queue (`pending`, attempts counted from zero): what
    /// they resolved to stays shown until the new lookup ends. A matched record is looked up
    /// by its release (fetched again: Discogs' values refreshed, the collector's kept), not
    /// by its barcode, so a pressing chosen by a person stays chosen. Records entered by
    /// hand are left alone (no lookup overwrites them), as are ids not found. Returns the
    /// ids queued.
    @discardableResult
    public func retry(_ ids: [Int64], now: Date = Date()) async throws(StoreError) -> [Int64] {
        try await write { db in
            var queued: [Int64] = []
            for id in ids {
                try db.execute(
                    sql: """
                        UPDATE record SET lookupState = ?, lookupError = NULL, lookupAttempts = 0,
                            retryAt = NULL, skipReason = NULL, claimedUntil = NULL, claimOwner = NULL, updatedAt = ?,
                            pinnedReleaseID = coalesce(releaseID, pinnedReleaseID)
                        WHERE id = ? AND lookupState != ?
                        """,
                    arguments: [LookupState.pending, StoredValues.seconds(now), id, LookupState.handEntered])
                if db.changesCount > 0 {
                    queued.append(id)
                    try StoredValues.addEvent(db, recordID: id, at: now, kind: .retryRequested, message: "look up again")
                }
            }
            return queued
        }
    }

    /// Every record's id but those entered by hand (`crates refresh --all`), oldest first.
    public func lookupableIDs() async throws(StoreError) -> [Int64] {
        try await read { db in
            try Int64.fetchAll(
                db, sql: "SELECT id FROM record WHERE lookupState != ? ORDER BY id", arguments: [LookupState.handEntered])
        }
    }

    /// Points the record at a release (already stored) and makes it `matched`, from the
    /// catalogue `edition` when it came from one.
    static func attach(_ db: Database, release: Release, to recordID: Int64, now: Date, edition: CatalogueEdition? = nil) throws {
        let keys = RecordKeys(release: release, gtin: "")
        try db.cachedStatement(sql: """
                UPDATE record SET releaseID = ?, lookupState = ?, lookupError = NULL,
                    retryAt = NULL, skipReason = NULL, claimedUntil = NULL, claimOwner = NULL, candidatesJSON = NULL,
                    candidateCount = 0, sectionKey = ?, rowKey = ? || coalesce(gtin, ''), updatedAt = ?,
                    catalogueEdition = ?
                WHERE id = ?
                """).execute(arguments: [
                    release.id, LookupState.matched, keys.section, keys.rowPrefix, StoredValues.seconds(now), edition?.dumpDate, recordID,
                ])
        try StoredValues.rekeyIfOwn(db, recordID: recordID)
    }
}
