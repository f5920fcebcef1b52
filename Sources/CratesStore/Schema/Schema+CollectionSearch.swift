import GRDB

/// The index of the list's filter ("v10 collection search index").
///
/// The filter keeps a record when each of its words is in the record's barcode, its
/// release's search text (artist, title, label names, catalogue numbers: `release.searchText`)
/// or the collector's own values (`record.ownSearchText`), all folded already. Scanning those
/// three through a join cost about 2 µs a record (205 ms at 100,000 records, seconds at a
/// million), so each record now holds the three joined in `record.filterText`:
///
/// - `filterIndex`, an FTS5 index of `filterText` with the trigram tokenizer, finds the
///   records holding a word of 3 characters or more (any substring, as `instr` does) without
///   reading the others. `case_sensitive 1`: the text and the words are folded by crates
///   (`TextFolding`), so the index compares bytes as `instr` does. An external-content index
///   (`content='record'`): the text is stored once, in `record`. `columnsize=0`: no ranking.
/// - `record_filter` (sectionKey, rowKey, id, filterText) serves the words of 1 or 2
///   characters, which a trigram index cannot: one walk of a narrow index in the list's
///   order, no join, no sort.
///
/// Triggers keep both in step in the transaction of the change, whatever writes it (an add,
/// an import, a lookup's result, an edit, an undo, a sync pull, a refresh of a release, a
/// delete), in one place: a write path that forgot it would leave the filter wrong without
/// a sign. An external-content index must be told the old text of a row it removes; the
/// triggers take it from `OLD.filterText`, which is, by construction, the text indexed.
/// `filterText` is NULL only between a record's insert and its trigger's update, and a
/// record with a NULL text is not in the index. One exception, for speed: a bulk insert (an
/// add of many records, an import) writes each record's text itself, which the triggers then
/// find right and leave, and indexes the batch in one statement (`indexFilterTexts`). A
/// restore, and an import's rows described by their values, go further: the triggers that
/// index an inserted row are lifted for the write and made again before it commits, and the
/// batch is indexed and sorted in a few statements (`withoutRowIndexTriggers`).
extension Schema {
    /// `filterText` for the record row `row` ("NEW", or "record" in an UPDATE of it), with
    /// its release's text `release`: the three parts separated by a space, which no filter
    /// word holds (the words are split at spaces), so no word matches across two parts.
    static func filterTextExpression(row: String, release: String) -> String {
        filterTextExpression(gtin: "\(row).gtin", release: release, ownSearchText: "\(row).ownSearchText")
    }

    /// `filterText` from SQL operands: the record's `gtin`, its release's `searchText` and
    /// its `ownSearchText`.
    static func filterTextExpression(gtin: String, release: String, ownSearchText: String) -> String {
        "coalesce(\(gtin), '') || ' ' || coalesce(\(release), '') || ' ' || coalesce(\(ownSearchText), '')"
    }

    /// A bulk insert's `filterText`, from its `gtin`, `releaseID` and `ownSearchText`
    /// operands, as the triggers compute it; see `indexFilterTexts`.
    static func insertedFilterText(gtin: String, releaseID: String, ownSearchText: String) -> String {
        filterTextExpression(
            gtin: gtin, release: "(SELECT searchText FROM release WHERE id = \(releaseID))", ownSearchText: ownSearchText)
    }

    /// Indexes, in one statement, the records above `id` that a bulk insert of this
    /// transaction wrote with their `filterText` (`insertedFilterText`).
    ///
    /// A record inserted with its text already right is not indexed by the triggers
    /// (`record_filter_added` sets the same text, so `record_filter_indexed` does nothing),
    /// and one statement indexing a batch costs a third of indexing each row from a trigger
    /// (sqlite3, 100,000 records: 0.56 s of CPU against 1.6 s). The caller calls this right
    /// after its insert, before anything else changes those records' text (the triggers
    /// would then take the old text out of the index, where it is not yet), and inserts only
    /// records above the largest id before it, with their text given: ids only grow, and no
    /// other connection writes during the transaction.
    static func indexFilterTexts(_ db: Database, above id: Int64) throws {
        try db.execute(
            sql: "INSERT INTO filterIndex (rowid, filterText) SELECT id, filterText FROM record WHERE id > ? AND filterText IS NOT NULL",
            arguments: [id])
    }

    /// The triggers that keep a record's `filterText`, its index and its sort keys as each
    /// row is written (v10, v14): what `withoutRowIndexTriggers` lifts during a restore.
    static let rowIndexTriggers = ["record_filter_added", "record_filter_indexed", "record_sort_added"]

    /// The triggers of `rowIndexTriggers` that run on an insert: what a bulk insert that
    /// writes each record's text itself and sorts the batch (`CollectionStore.insertDescribed`)
    /// lifts. `record_filter_indexed` stays, so a change of a text in the batch is indexed.
    static let rowInsertTriggers = ["record_filter_added", "record_sort_added"]

    /// The triggers named (by default `rowIndexTriggers`) dropped for `body`, then made again as they were
    /// (their stored SQL), all inside the caller's transaction: a failure in between rolls
    /// the drop back with the rest. For a bulk write of records that `indexRecords(_:)`
    /// indexes afterwards: run per row, the triggers recompile into every insert statement
    /// and update each row twice more (a million restored records took over 20 minutes).
    static func withoutRowIndexTriggers<T>(
        _ db: Database, _ triggers: [String] = rowIndexTriggers, _ body: () throws -> T
    ) throws -> T {
        let placeholders = triggers.map { _ in "?" }.joined(separator: ", ")
        let saved = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN (\(placeholders)) ORDER BY name",
            arguments: StatementArguments(triggers)
        ).map { row -> (name: String, sql: String) in (row[0], row[1]) }
        for trigger in saved { try db.execute(sql: "DROP TRIGGER \(trigger.name)") }
        let result = try body()
        for trigger in saved { try db.execute(sql: trigger.sql) }
        return result
    }

    /// Records indexed per statement by `indexRecords(_:)`: the page cache, not the batch,
    /// bounds the memory; a batch keeps each statement's work (and a Ctrl-C's wait) short.
    static let indexBatchSize: Int64 = 20_000

    /// Computes every record's `filterText` and sort keys, as the triggers would, and indexes
    /// the text (`indexFilterTexts`), a batch of ids per statement. For records written with
    /// the triggers lifted (`withoutRowIndexTriggers`) into a collection that held none: each
    /// row is rewritten once, and the text indexed in one pass.
    static func indexRecords(_ db: Database) throws {
        guard let bounds = try Row.fetchOne(db, sql: "SELECT MIN(id), MAX(id) FROM record"),
              let first = bounds[0] as Int64?, let last = bounds[1] as Int64?
        else { return }
        let releaseText = "(SELECT searchText FROM release WHERE id = record.releaseID)"
        let statement = try db.makeStatement(sql: """
            UPDATE record SET filterText = \(filterTextExpression(row: "record", release: releaseText)),
                \(sortKeyAssignments(row: "record"))
            WHERE id BETWEEN ? AND ?
            """)
        var low = first
        while low <= last {
            let high = min(last, low + indexBatchSize - 1)
            try statement.execute(arguments: [low, high])
            low = high + 1
        }
        try indexFilterTexts(db, above: first - 1)
    }

    static func addCollectionSearchIndex(_ db: Database) throws {
        let releaseText = { (row: String) in "(SELECT searchText FROM release WHERE id = \(row).releaseID)" }
        try db.execute(sql: """
            ALTER TABLE record ADD COLUMN filterText TEXT;
            UPDATE record SET filterText = \(filterTextExpression(row: "record", release: releaseText("record")));
            CREATE INDEX record_filter ON record(sectionKey, rowKey, id, filterText);
            CREATE VIRTUAL TABLE filterIndex USING fts5(
                filterText, content = 'record', content_rowid = 'id',
                tokenize = 'trigram case_sensitive 1', columnsize = 0);
            INSERT INTO filterIndex (filterIndex) VALUES ('rebuild');

            CREATE TRIGGER record_filter_added AFTER INSERT ON record BEGIN
                UPDATE record SET filterText = \(filterTextExpression(row: "NEW", release: releaseText("NEW")))
                WHERE id = NEW.id;
            END;
            CREATE TRIGGER record_filter_changed AFTER UPDATE OF gtin, releaseID, ownSearchText ON record
            WHEN OLD.gtin IS NOT NEW.gtin OR OLD.releaseID IS NOT NEW.releaseID
                OR OLD.ownSearchText IS NOT NEW.ownSearchText BEGIN
                UPDATE record SET filterText = \(filterTextExpression(row: "NEW", release: releaseText("NEW")))
                WHERE id = NEW.id;
            END;
            -- A release's text changed (a refresh, a lookup's fuller answer): its records'.
            -- A release deleted sets its records' releaseID to NULL: record_filter_changed.
            CREATE TRIGGER release_filter_changed AFTER UPDATE OF searchText ON release
            WHEN OLD.searchText IS NOT NEW.searchText BEGIN
                UPDATE record SET filterText = \(filterTextExpression(row: "record", release: "NEW.searchText"))
                WHERE releaseID = NEW.id;
            END;
            -- The index follows filterText: the old text out, the new one in.
            CREATE TRIGGER record_filter_indexed AFTER UPDATE OF filterText ON record
            WHEN OLD.filterText IS NOT NEW.filterText BEGIN
                INSERT INTO filterIndex (filterIndex, rowid, filterText)
                    SELECT 'delete', OLD.id, OLD.filterText WHERE OLD.filterText IS NOT NULL;
                INSERT INTO filterIndex (rowid, filterText)
                    SELECT NEW.id, NEW.filterText WHERE NEW.filterText IS NOT NULL;
            END;
            CREATE TRIGGER record_filter_removed AFTER DELETE ON record
            WHEN OLD.filterText IS NOT NULL BEGIN
                INSERT INTO filterIndex (filterIndex, rowid, filterText) VALUES ('delete', OLD.id, OLD.filterText);
            END;
            """)
    }
}
