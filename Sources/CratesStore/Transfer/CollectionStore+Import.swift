import CratesCore
import Foundation
import GRDB

/// What `crates import` writes: its entries added as new records in batches, each batch
/// counting again, inside its own write transaction, the copies the collection holds.
/// The counting is `copies(_:of:)`; what the records need afterwards, `importFollowUp`.
extension CollectionStore {
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
                progress: counted)
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
        /// Rows for a copy already there that filled its empty grades, rating or note, or
        /// whose values the copy kept against its own.
        public var fills: [ImportFill] = []
        /// Places made whose label code (crates' `Location Codes`) another place holds: made
        /// with a code of their own, which their printed labels do not carry.
        public var renumberedPlaces: [RenumberedPlace] = []
        /// Valid lines dealt with so far (added, present or needing Discogs).
        public var processed = 0
        /// The calling task was cancelled before every batch was written.
        public var stopped = false

        public init() {}
    }

    /// What a row for a copy already there did to it: the values it filled ("media VG+"),
    /// and the copy's own it kept against the row's ("its media VG (the row says M)").
    public struct ImportFill: Hashable, Sendable {
        public var line: Int
        public var recordID: Int64
        public var filled: [String] = []
        public var kept: [String] = []

        /// "already there as record 12: filled media VG+, rating 4; kept its note".
        public var text: String {
            var parts: [String] = []
            if !filled.isEmpty { parts.append("filled " + filled.joined(separator: ", ")) }
            if !kept.isEmpty { parts.append("kept " + kept.joined(separator: ", ")) }
            return "already there as record \(recordID): " + parts.joined(separator: "; ")
        }
    }

    /// A place an import made without the code its row gave, another place holding it.
    public struct RenumberedPlace: Hashable, Sendable {
        /// The place's path.
        public var path: String
        /// The id the row gave (its label code's), the place holding it, and the place's id now.
        public var wanted: Int64
        public var holder: String
        public var id: Int64

        /// "place Living Room › CDs: label code 2900000000032 is Garage's; it has 2900000000056 now".
        public var text: String {
            let code = { (id: Int64) in LabelCode(kind: .location, id: Int(id))?.digits ?? "#\(id)" }
            return "place \(path): label code \(code(wanted)) is \(holder)'s; it has \(code(id)) now (print its label again)"
        }
    }

    /// A line known only by a Discogs release id (see `ImportOutcome.releaseRows`).
    public struct ReleaseRow: Hashable, Sendable {
        public var position: Int
        public var occurrence: Int
    }

    /// An import that failed part-way: what it had committed before (kept: every batch is
    /// its own transaction) and why it stopped, said so that the user knows that re-running
    /// the same import finishes the job ("10,003 of 50,000 were added, then the disk
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
    /// of times, and an import run again adds nothing twice.
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
    /// hand. Cancelling the calling task stops the import between batches (`stopped`): the
    /// batch in hand is committed all the same (`write(finishing:)`), or, while it still
    /// waits for another program's lock, not begun. `progress` is called after each commit
    /// with the records added and the lines dealt with so far. A failure throws
    /// `ImportWriteError`, which carries what the earlier batches added.
    public func importEntries(
        _ entries: ImportEntries, copies: Bool, keepingValues: Bool = false, now: Date = Date(), batchSize: Int = defaultBatchSize,
        keepingIDs: Bool = false,
        progress: (@Sendable (_ added: Int, _ processed: Int) -> Void)? = nil,
        waitingForLock: (@Sendable () -> Void)? = nil
    ) async throws(ImportWriteError) -> ImportOutcome {
        let occurrences = copies ? [] : entries.occurrences()
        var outcome = ImportOutcome()
        let size = max(1, batchSize)
        var start = 0
        while start < entries.count {
            guard !Task.isCancelled else {
                outcome.stopped = true
                break
            }
            let range = start..<min(start + size, entries.count)
            do {
                let batch = try await writeBatch(waitingForLock: waitingForLock) { db in
                    try Self.importBatch(
                        db, entries, range, occurrences: occurrences, copies: copies, keepingValues: keepingValues, now: now)
                }
                outcome.added += batch.ids.count
                if keepingIDs { outcome.addedIDs += batch.ids }
                outcome.present += batch.present
                outcome.fills += batch.fills
                outcome.renumberedPlaces += batch.renumbered
                outcome.needsDiscogs += batch.releaseRows.count
                outcome.releaseRows += batch.releaseRows
            } catch {
                // A stop while the batch waited for another program's lock: it never began.
                if Task.isCancelled, case .locked = error {
                    outcome.stopped = true
                    break
                }
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
        waitingForLock: (@Sendable () -> Void)?,
        _ body: @escaping @Sendable (Database) throws -> ImportedBatch
    ) async throws(StoreError) -> ImportedBatch {
        let patience = LockPatience.command(waiting: waitingForLock)
        return try await write(patience: patience, finishing: true, body)
    }

    /// What one batch wrote: the new records' ids, the lines already present, the rows
    /// known only by a release id.
    private typealias ImportedBatch = (
        ids: [Int64], present: Int, releaseRows: [ReleaseRow], fills: [ImportFill], renumbered: [RenumberedPlace]
    )

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
        var fills: [ImportFill] = []
        for (offset, (entry, occurrence)) in batch.enumerated() {
            if !copies, occurrence <= held[entry.key] ?? 0 {
                present += 1
                if let fill = try fillPresent(db, entry, occurrence: occurrence, now: now) { fills.append(fill) }
            } else if entry.gtin == nil, entry.described == nil {
                releaseRows.append(ReleaseRow(position: range.lowerBound + offset, occurrence: occurrence))
            } else {
                rows.append(entry)
            }
        }
        // The places the rows name with their codes made first, each with its code when free.
        let renumbered = try placeImportedKeepingCodes(db, rows, now: now)
        let barcodes = try insertImported(db, rows.filter { $0.gtin != nil }, now: now)
        let described = barcodes.count < rows.count
            ? try insertDescribed(db, rows.filter { $0.gtin == nil }, keepingValues: keepingValues, now: now) : []
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        var next = (barcodes: barcodes.makeIterator(), described: described.makeIterator())
        for entry in rows {
            guard let id = entry.gtin != nil ? next.barcodes.next() : next.described.next() else { continue }
            ids.append(id)
            // What was paid and the loan, from crates' own CSV export: few rows have them.
            if !entry.purchase.isEmpty || entry.loan != nil {
                try db.execute(
                    sql: "UPDATE record SET \(StoredValues.personalColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?",
                    arguments: StatementArguments(StoredValues.personalValues(entry.purchase, entry.loan) + [id]))
            }
        }
        return (ids, present, releaseRows, fills, renumbered)
    }

    /// A row for a copy already there (the `occurrence`-th copy of its key, oldest first)
    /// fills what the copy lacks: its media and sleeve grades, rating and note, each only
    /// where the copy has none, so that nothing the collector set is overwritten; what the
    /// copy kept against a different value of the row is said. Nil when the row brings
    /// none of them.
    private static func fillPresent(_ db: Database, _ entry: ImportEntry, occurrence: Int, now: Date) throws -> ImportFill? {
        guard !entry.grading.isEmpty || entry.note != nil else { return nil }
        let condition: String
        let argument: any DatabaseValueConvertible
        switch entry.key {
        case .gtin(let gtin): (condition, argument) = ("gtin = ?", gtin.canonical)
        case .release(let id): (condition, argument) = ("COALESCE(releaseID, pinnedReleaseID) = ?", id)
        case .described(let key): (condition, argument) = ("entryKey = ?", key)
        }
        guard let id = try Int64.fetchOne(
            db, sql: "SELECT id FROM record WHERE \(condition) ORDER BY id LIMIT 1 OFFSET ?", arguments: [argument, max(occurrence - 1, 0)]),
            let record = try StoredValues.fetchRecord(db, id: id)
        else { return nil }
        var grading = record.grading
        var note = record.note
        var fill = ImportFill(line: entry.line, recordID: id)
        func take<T: Equatable>(_ name: String, _ row: T?, _ held: T?, shown: (T) -> String, set: (T) -> Void) {
            guard let row else { return }
            if let held {
                if held != row { fill.kept.append("its \(name) \(shown(held)) (the row says \(shown(row)))") }
            } else {
                set(row)
                fill.filled.append("\(name) \(shown(row))")
            }
        }
        take("media", entry.grading.media, record.grading.media, shown: \.abbreviation) { grading.media = $0 }
        take("sleeve", entry.grading.sleeve, record.grading.sleeve, shown: \.abbreviation) { grading.sleeve = $0 }
        take(
            "rating", entry.grading.rating.isRated ? entry.grading.rating : nil, record.grading.rating.isRated ? record.grading.rating : nil,
            shown: { String($0.value) }) { grading.rating = $0 }
        if let text = entry.note {
            if let held = record.note {
                if held != text { fill.kept.append("its note") }
            } else {
                note = text
                fill.filled.append("note")
            }
        }
        guard !fill.filled.isEmpty || !fill.kept.isEmpty else { return nil }
        if !fill.filled.isEmpty {
            try store(db, collector: record.collector, note: note, grading: grading, recordID: id, now: now)
            try StoredValues.addEvent(
                db, recordID: id, at: now, kind: .edited, message: "import filled \(fill.filled.joined(separator: ", ")) (line \(entry.line))")
        }
        return fill
    }

    // MARK: Implementation

    /// One batch in one statement: the rows go to SQLite as one JSON array that
    /// `json_each` unpacks in C, which takes half the time of binding 100,000 rows value by
    /// value through GRDB (the import benchmark's 3 s budget). Every imported record is pending, so
    /// it goes where `insert` puts an unmatched record (Unknown, `SortKey.unmatchedRow`),
    /// and the section is counted once for the batch as `StoredValues.count` requires. A
    /// pinned release already stored is then attached at once.
    private static func insertImported(_ db: Database, _ entries: [ImportEntry], now: Date) throws -> [Int64] {
        let nowSeconds = StoredValues.seconds(now)
        // Each distinct location once: it joins a place or makes one (see `placeImported`).
        let places = try placeImported(db, Set(entries.lazy.compactMap(\.location)), now: now)
        // A batch of bare barcodes (nothing but the code on each line: a list of barcodes,
        // the common import and the one at a million) goes as a flat array of its codes,
        // the values every row shares bound once: reading each row's values back out of an
        // array of arrays took eight `json_extract` calls a row, each parsing the row's
        // array again (callgrind, the import's statements for 20,000 barcodes, batches of
        // 5,000, on this SQLite: 1.74 billion instructions as arrays, 1.14 billion as codes).
        let bare = entries.allSatisfy { entry in
            entry.addedAt == nil && entry.note == nil && entry.location == nil && entry.releaseID == nil && entry.grading.isEmpty
        }
        var json = "["
        json.reserveCapacity(entries.count * (bare ? 16 : 40))
        var rows: [ImportEntry] = []
        rows.reserveCapacity(entries.count)
        for entry in entries {
            guard let gtin = entry.gtin else { continue }
            if !rows.isEmpty { json += "," }
            if bare {
                json += "\"\(gtin.canonical)\""
                rows.append(entry)
                continue
            }
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
        let columns = """
            gtin, addedAt, addMethod, note, locationID, pinnedReleaseID, lookupState,
            sectionKey, rowKey, updatedAt, mediaCondition, sleeveCondition, rating, filterText
            """
        let values = bare
            ? """
                value, ?, ?, NULL, NULL, NULL, ?, ?, ?, ?, NULL, NULL, 0,
                \(Schema.filterTextExpression(gtin: "value", release: "NULL", ownSearchText: "NULL"))
                """
            : """
                json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?, json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), ?, ?, ?, ?,
                json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'),
                \(Schema.insertedFilterText(gtin: "json_extract(value, '$[0]')", releaseID: "NULL", ownSearchText: "NULL"))
                """
        var arguments: StatementArguments = [
            AddMethod.import.rawValue, LookupState.pending, SortKey.unknownSection, SortKey.unmatchedRow, nowSeconds,
        ]
        // A bare row's addedAt is now, bound first (see `values`).
        if bare { arguments = StatementArguments([nowSeconds]) + arguments }
        if places.isEmpty {
            // In no place (a list of barcodes: the common import, and the one at a million):
            // every record of the batch has the same sort keys, computed once by the
            // triggers' own rule and written with the rows, and the two triggers that would
            // compute them and the filter text again, row by row, are lifted for the
            // statement. Each rewrote every row and its index entries once more: 2.3 of the
            // 4.3 s of CPU SQLite spent on 100,000 barcodes. The two that check or follow each
            // row are lifted too, and hold the batch to their rules after it (`checkInserted`).
            let keys = try importedSortKeys(db)
            try Schema.withoutRowIndexTriggers(db, Schema.rowInsertTriggers + Schema.rowCheckTriggers) {
                try db.execute(
                    sql: """
                        INSERT INTO record (\(columns), artistKey, yearKey, labelKey, placeKey)
                        SELECT \(values), ?, ?, ?, ? FROM json_each(?) ORDER BY key
                        """,
                    arguments: arguments + StatementArguments(keys) + [json])
            }
        } else {
            // Rows in places: their place keys differ, and the triggers compute them.
            try db.execute(
                sql: "INSERT INTO record (\(columns)) SELECT \(values) FROM json_each(?) ORDER BY key",
                arguments: arguments + [json])
        }
        try StoredValues.count(db, sectionKey: SortKey.unknownSection, by: db.changesCount)
        // After the count, which reads the insert's number of changes. (Rows in places met
        // the triggers already: held to the same rules again, at no cost worth a branch.)
        try Schema.checkInserted(db, above: before)
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

    /// The sort keys (`artistKey`, `yearKey`, `labelKey`, `placeKey`) of a record as an
    /// import adds it in no place: no release yet, no values of the collector's, the row key
    /// of an unmatched record. `record_sort_added`'s own rule (`Schema.sortKeySelect`).
    private static func importedSortKeys(_ db: Database) throws -> [String] {
        let select = Schema.sortKeySelect { column in column == "rowKey" ? "?" : "NULL" }
        guard let row = try Row.fetchOne(db, sql: select, arguments: [SortKey.unmatchedRow]) else {
            throw StoreError.database("the sort keys of an imported record could not be computed")
        }
        return try (0..<4).map { try row.decode(String.self, atIndex: $0) }
    }

    /// A JSON string (RFC 8259 §7), or null.
    private static func jsonText(_ text: String?) -> String {
        text.map(JSONStringLiteral.quoted) ?? "null"
    }
}
