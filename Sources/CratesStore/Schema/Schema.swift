import CratesCore
import Foundation
import GRDB

/// The database schema and its migrations.
///
/// Versioning: GRDB's `DatabaseMigrator` records each applied migration's identifier in
/// `grdb_migrations`; a migration, once released, is never edited, only followed by a new
/// one ("v2", …). A database whose applied identifiers include one this build does not know
/// was migrated by a newer crates: it is refused before anything is written (see
/// `CollectionStore.inspect`). The identifiers say more than a `PRAGMA user_version` number
/// would (which migration, not only how many) and need no second bookkeeping.
///
/// `PRAGMA application_id` is stamped with "CRAT" so that a crates database can be told from
/// any other SQLite file, even one that also uses GRDB's migrator.
enum Schema {
    /// "CRAT" in ASCII, per SQLite's application_id convention (a 32-bit big-endian tag).
    static let applicationID: Int32 = 0x4352_4154

    static var migrator: DatabaseMigrator { migrator(migrations) }

    /// Every migration, in the order they run: the identifier and what it does.
    ///
    /// "v6 collector values" and "v7 locations" were written side by side on two branches,
    /// so a database may have had either first (a test opens one of each). Both orders end
    /// with the same columns: v7 only adds a table and a column, and v6 rebuilds `record`
    /// from its stored definition, whatever columns it has. "v8 discogs sync" too: the sync
    /// branch's databases ran it right after v3, and v6's rebuild keeps its columns.
    static var migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] {
        [
            ("v1", createV1),
            ("v2 search text", addSearchText),
            ("v3 pinned release", addPinnedRelease),
            ("v4 claim owner", addClaimOwner),
            ("v5 release details", addReleaseDetails),
            ("v6 collector values", addCollectorValues),
            ("v7 locations", addLocations),
            ("v8 discogs sync", addDiscogsSync),
            ("v9 sync lease", addSyncLease),
            ("v10 collection search index", addCollectionSearchIndex),
            ("v11 import entry values", addEntryValues),
            ("v12 catalogue edition", addCatalogueEdition),
            ("v13 lookup state check", addLookupStateCheck),
            ("v14 sort keys", addSortKeys),
            ("v15 price observations", addPriceObservations),
            ("v16 discogs conflicts", addSyncConflicts),
            ("v17 deleted copies", addDeletedCopies),
            ("v18 wantlist", addWantlist),
            ("v19 purchase and loan", addPurchaseAndLoan),
            ("v27 lookup state check by comparison", compareLookupStates),
        ]
    }

    /// v11: `record.entryValues`, for a row an import described by its values (a CSV row
    /// without a barcode): 'find' when those values only serve to find its release, so that
    /// Discogs' stand once it is found (`StoredValues.dropEntryValues`); 'keep' when the
    /// import was asked to keep them as the collector's (`--keep-values`); NULL for every
    /// other record, rows imported before included (their values stay the collector's).
    static func addEntryValues(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE record ADD COLUMN entryValues TEXT")
    }

    /// A migrator of `migrations` in their order (tests make databases as an older crates,
    /// or another branch's, left them).
    static func migrator(_ migrations: [(identifier: String, migrate: @Sendable (Database) throws -> Void)]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations { migrator.registerMigration(migration.identifier, migrate: migration.migrate) }
        return migrator
    }

    /// The migration identifiers this build knows, oldest first.
    static var knownMigrations: [String] { migrator.migrations }

    private static func createV1(_ db: Database) throws {
        // Dates are REAL seconds since 1970 (readable with `datetime(x, 'unixepoch')`,
        // exact through a round trip); lists are JSON text.
        try db.execute(sql: """
            CREATE TABLE release (
                id INTEGER PRIMARY KEY,           -- the Discogs release id
                artist TEXT NOT NULL,             -- for display (see DiscogsName.display)
                title TEXT NOT NULL,
                genresJSON TEXT NOT NULL,
                stylesJSON TEXT NOT NULL,
                formatsJSON TEXT NOT NULL,
                formatSummary TEXT,               -- formats joined with " + ", for the list
                year INTEGER,
                country TEXT,
                labelsJSON TEXT NOT NULL,
                url TEXT,
                thumbURL TEXT,
                fetchedAt REAL NOT NULL
            );
            -- What Discogs sent, apart: a few kilobytes each, which in the release table
            -- would leave one release per page and make the list's join read them all.
            CREATE TABLE releaseJSON (
                id INTEGER PRIMARY KEY REFERENCES release(id) ON DELETE CASCADE,
                rawJSON TEXT NOT NULL
            );

            -- AUTOINCREMENT: ids are never reused, so an undone delete gets its ids back
            -- without colliding with a record added in between.
            CREATE TABLE record (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                gtin TEXT NOT NULL,
                addedAt REAL NOT NULL,
                addMethod TEXT NOT NULL,
                note TEXT,
                location TEXT,
                releaseID INTEGER REFERENCES release(id) ON DELETE SET NULL,
                lookupState TEXT NOT NULL,
                lookupError TEXT,
                lookupAttempts INTEGER NOT NULL DEFAULT 0,
                retryAt REAL,                     -- only while failed
                skipReason TEXT,
                claimedUntil REAL,                -- only while lookingUp: the claim's lease
                candidatesJSON TEXT,              -- only while ambiguous
                candidateCount INTEGER NOT NULL DEFAULT 0,
                -- Denormalised from the release (see SortKey) so that the sections query
                -- walks one index instead of sorting a join.
                sectionKey TEXT NOT NULL,
                rowKey TEXT NOT NULL,
                updatedAt REAL NOT NULL
            );
            CREATE INDEX record_order ON record(sectionKey, rowKey);
            CREATE INDEX record_queue ON record(lookupState, retryAt);
            CREATE INDEX record_gtin ON record(gtin);
            CREATE INDEX record_release ON record(releaseID) WHERE releaseID IS NOT NULL;

            -- The outline (section names and counts) without scanning 100,000 index
            -- entries, kept in the same transaction as the change: by triggers for deletes
            -- and moves; by the inserting code for inserts (StoredValues.count), once per
            -- section and batch, because a per-row insert trigger doubled the bulk import.
            CREATE TABLE sectionCount (
                sectionKey TEXT PRIMARY KEY,
                count INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TRIGGER record_uncounted AFTER DELETE ON record BEGIN
                UPDATE sectionCount SET count = count - 1 WHERE sectionKey = OLD.sectionKey;
                DELETE FROM sectionCount WHERE sectionKey = OLD.sectionKey AND count <= 0;
            END;
            CREATE TRIGGER record_recounted AFTER UPDATE OF sectionKey ON record
            WHEN OLD.sectionKey IS NOT NEW.sectionKey BEGIN
                UPDATE sectionCount SET count = count - 1 WHERE sectionKey = OLD.sectionKey;
                DELETE FROM sectionCount WHERE sectionKey = OLD.sectionKey AND count <= 0;
                INSERT OR IGNORE INTO sectionCount (sectionKey, count) VALUES (NEW.sectionKey, 0);
                UPDATE sectionCount SET count = count + 1 WHERE sectionKey = NEW.sectionKey;
            END;

            CREATE TABLE lookupEvent (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                recordID INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                at REAL NOT NULL,
                kind TEXT NOT NULL,
                message TEXT NOT NULL
            );
            CREATE INDEX lookupEvent_record ON lookupEvent(recordID, id);
            """)
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
    }

    /// Whether a release's full details are in (`Release.hasFullDetails`): a release
    /// completed from a barcode search result holds what the list shows, and its tracklist,
    /// credits, identifiers and notes come later (one request per record). Every
    /// release stored before this migration was fetched in full. The partial index lists
    /// the releases still to fetch, for the worker's background fetches.
    private static func addReleaseDetails(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE release ADD COLUMN hasFullDetails INTEGER NOT NULL DEFAULT 1;
            CREATE INDEX release_without_details ON release(fetchedAt) WHERE hasFullDetails = 0;
            """)
    }

    /// The Discogs release an import named for a record (a collection export's `release_id`),
    /// kept while the record waits for its lookup, which then fetches that release instead of
    /// searching the barcode. Not `releaseID`: its foreign key needs the release stored first.
    private static func addPinnedRelease(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE record ADD COLUMN pinnedReleaseID INTEGER;
            CREATE INDEX record_pinned ON record(pinnedReleaseID) WHERE pinnedReleaseID IS NOT NULL;
            """)
    }

    /// The local Discogs catalogue that last answered for a record (its dump date,
    /// `YYYYMMDD`; `CollectionRecord.catalogueEdition`): the one it was matched from, or the
    /// one that does not know it while it waits for Discogs. The catalogue pass asks about
    /// the records due whose value is not the catalogue's own edition, so a newer dump asks
    /// again about what an older one lacked; Discogs is asked only about the others.
    private static func addCatalogueEdition(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE record ADD COLUMN catalogueEdition TEXT")
    }

    /// Which process holds a `lookingUp` claim (see `ClaimOwner`), so that the next claimer
    /// can free at once a claim whose process is gone (a kill -9, a closed terminal) instead
    /// of waiting out the 15-minute lease. NULL when the record is not claimed, and
    /// for claims made before this migration (those wait for their lease, as before).
    private static func addClaimOwner(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE record ADD COLUMN claimOwner TEXT")
    }

    /// The list's filter searches artist, title, labels and catalogue numbers: folded once
    /// per release write (see `StoredValues.searchText`) so a search is a byte match.
    private static func addSearchText(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE release ADD COLUMN searchText TEXT NOT NULL DEFAULT ''")
        let releases = try Row.fetchAll(db, sql: "SELECT id, artist, title, labelsJSON FROM release")
        let update = try db.makeStatement(sql: "UPDATE release SET searchText = ? WHERE id = ?")
        for row in releases {
            let labels = (try? JSONDecoder().decode([Release.LabelCredit].self, from: Data((row[3] as String? ?? "[]").utf8))) ?? []
            let text = StoredValues.searchText(artist: row[1] ?? "", title: row[2] ?? "", labels: labels)
            try update.execute(arguments: [text, row[0] as Int64])
        }
    }

    /// Records without a barcode, and the collector's own values.
    ///
    /// 1. `record.gtin` becomes nullable: a record entered by hand, a release found by search
    ///    that lists no barcode, an import row described by its catalogue number. SQLite
    ///    cannot drop a NOT NULL constraint in place, so the table is rebuilt from its own
    ///    stored definition, whatever columns earlier migrations added, by the procedure of
    ///    https://sqlite.org/lang_altertable.html#otheralter: create the new table, copy the
    ///    rows, drop the old one, rename the new one, and create its indexes and triggers
    ///    again from their stored SQL. GRDB runs a migration with foreign keys off and checks
    ///    them before the commit (`foreignKeyChecks: .deferred`), so `lookupEvent`'s rows stay
    ///    and still point at their records. The AUTOINCREMENT counter is carried over, so the
    ///    id of a record deleted before the migration is still never reused (undo).
    /// 2. The collector's values (`own…`), each NULL where Discogs' value stands, and their
    ///    folded search text for the list's filter.
    /// 3. `entryKey`: what identifies a copy described without a barcode
    ///    (`RecordFields.entryKey`), for the import's duplicate rule.
    private static func addCollectorValues(_ db: Database) throws {
        try rebuildRecordWithNullableGTIN(db)
        try db.execute(sql: """
            ALTER TABLE record ADD COLUMN ownArtist TEXT;
            ALTER TABLE record ADD COLUMN ownTitle TEXT;
            ALTER TABLE record ADD COLUMN ownGenre TEXT;
            ALTER TABLE record ADD COLUMN ownYear INTEGER;
            ALTER TABLE record ADD COLUMN ownFormat TEXT;
            ALTER TABLE record ADD COLUMN ownLabel TEXT;
            ALTER TABLE record ADD COLUMN ownCatno TEXT;
            ALTER TABLE record ADD COLUMN ownCountry TEXT;
            ALTER TABLE record ADD COLUMN ownSearchText TEXT;
            ALTER TABLE record ADD COLUMN entryKey TEXT;
            CREATE INDEX record_entryKey ON record(entryKey) WHERE entryKey IS NOT NULL;
            """)
    }

    private static func rebuildRecordWithNullableGTIN(_ db: Database) throws {
        guard let table = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'record'") else {
            throw StoreError.database("the record table is missing")
        }
        guard let constraint = table.range(of: #"\bgtin\s+TEXT\s+NOT\s+NULL\b"#, options: [.regularExpression, .caseInsensitive]),
              let name = table.range(of: #"^\s*CREATE\s+TABLE\s+"?record"?"#, options: [.regularExpression, .caseInsensitive])
        else {
            throw StoreError.database("the record table's definition is not one crates wrote: \(table.prefix(80))")
        }
        var rebuilt = table
        rebuilt.replaceSubrange(constraint, with: "gtin TEXT")
        rebuilt.replaceSubrange(name, with: "CREATE TABLE record_v6")
        // Indexes and triggers go with the old table: kept as SQL, made again on the new one.
        let dependents = try String.fetchAll(db, sql: """
            SELECT sql FROM sqlite_master
            WHERE tbl_name = 'record' AND type IN ('index', 'trigger') AND sql IS NOT NULL
            ORDER BY type = 'trigger', name
            """)
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'record'")
        try db.execute(sql: rebuilt)
        try db.execute(sql: "INSERT INTO record_v6 SELECT * FROM record")
        try db.execute(sql: "DROP TABLE record")
        try db.execute(sql: "ALTER TABLE record_v6 RENAME TO record")
        for statement in dependents { try db.execute(sql: statement) }
        if let sequence {
            try db.execute(sql: "DELETE FROM sqlite_sequence WHERE name = 'record'")
            try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('record', ?)", arguments: [sequence])
        }
    }

    /// Places (room › shelf › crate) as a tree, and each copy in at most one of them.
    ///
    /// - `location.id` is AUTOINCREMENT: ids are never reused, since a printed label carries
    ///   the id (`LabelCode`), and a label of a removed place must not come to name a new one.
    /// - `nameKey` is the name folded (`LocationName.key`): names are unique among the places
    ///   in one place, so that a path from the top names exactly one place.
    /// - `record.locationID` replaces the free-text `record.location` of v1: each distinct
    ///   text becomes a place (split at "›" into nested places, as crates' export writes a
    ///   path), its records are put in it, and the text is cleared. The old column stays,
    ///   always NULL: SQLite before 3.35 cannot drop a column, and nothing reads it now.
    ///
    /// The names are compared with `LocationName.key`, the store's one comparison of names
    /// (as the sort keys use `TextFolding`, it cannot change without a migration of its own).
    private static func addLocations(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE location (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                parentID INTEGER REFERENCES location(id),
                name TEXT NOT NULL,
                nameKey TEXT NOT NULL,
                createdAt REAL NOT NULL
            );
            CREATE UNIQUE INDEX location_sibling ON location(ifnull(parentID, 0), nameKey);
            CREATE INDEX location_parent ON location(parentID);
            ALTER TABLE record ADD COLUMN locationID INTEGER REFERENCES location(id) ON DELETE SET NULL;
            CREATE INDEX record_location ON record(locationID) WHERE locationID IS NOT NULL;
            """)
        let texts = try String.fetchAll(db, sql: "SELECT DISTINCT location FROM record WHERE location IS NOT NULL")
        let now = Date().timeIntervalSince1970
        for text in texts {
            let names = text.split(separator: "›").map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80)) }
                .filter { !$0.isEmpty }
            var parent: Int64?
            for name in names {
                let key = LocationName.key(name)
                if let id = try Int64.fetchOne(
                    db, sql: "SELECT id FROM location WHERE ifnull(parentID, 0) = ? AND nameKey = ?",
                    arguments: [parent ?? 0, key])
                {
                    parent = id
                } else {
                    try db.execute(
                        sql: "INSERT INTO location (parentID, name, nameKey, createdAt) VALUES (?, ?, ?, ?)",
                        arguments: [parent, name, key, now])
                    parent = db.lastInsertedRowID
                }
            }
            try db.execute(
                sql: "UPDATE record SET locationID = ?, location = NULL WHERE location = ?", arguments: [parent, text])
        }
    }

    /// Grading per copy and what `crates sync` keeps of the user's Discogs
    /// collection: see `CollectionStore+DiscogsSync.swift`.
    private static func addDiscogsSync(_ db: Database) throws {
        try db.execute(sql: """
            -- Discogs' exact texts ("Very Good Plus (VG+)"); the rating 0 (not rated) to 5.
            ALTER TABLE record ADD COLUMN mediaCondition TEXT;
            ALTER TABLE record ADD COLUMN sleeveCondition TEXT;
            ALTER TABLE record ADD COLUMN rating INTEGER NOT NULL DEFAULT 0;

            -- The Discogs account the collection is synced with (one row), so that a sync
            -- signed in as someone else is refused rather than mixing two collections.
            CREATE TABLE discogsAccount (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                username TEXT NOT NULL,
                lastSyncAt REAL
            );
            -- The user's folders, as the last sync listed them (for folder names).
            CREATE TABLE discogsFolder (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL
            );
            -- One Discogs instance linked to one copy. recordID has no foreign key: a copy
            -- deleted in crates keeps its link, so that a sync can report it (or remove it
            -- on Discogs), and an undone delete finds it again (record ids are never reused).
            -- The base* columns are what both sides held at the last sync: the base of the
            -- three-way merge (CopyMerge).
            CREATE TABLE discogsCopy (
                instanceID INTEGER PRIMARY KEY,
                recordID INTEGER NOT NULL UNIQUE,
                releaseID INTEGER NOT NULL,
                folderID INTEGER NOT NULL,
                baseRating INTEGER NOT NULL DEFAULT 0,
                baseMedia TEXT,
                baseSleeve TEXT,
                baseNotes TEXT,
                removedAt REAL,                   -- a sync found the instance gone from Discogs
                syncedAt REAL NOT NULL
            );
            CREATE INDEX discogsCopy_release ON discogsCopy(releaseID);
            -- The pushes a sync has planned, each committed before its request is sent and
            -- deleted once Discogs has answered. An 'add' row whose sentAt is set may have
            -- been carried out (killed, or the answer lost): the next sync reconciles it
            -- through the release's instances before anything else, never adds it twice.
            CREATE TABLE discogsOutbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL,               -- add, update, remove
                recordID INTEGER,
                releaseID INTEGER NOT NULL,
                folderID INTEGER NOT NULL,
                instanceID INTEGER,
                field TEXT,                       -- update: a SyncField
                value TEXT,                       -- update: the value sent (NULL clears)
                sentAt REAL,
                createdAt REAL NOT NULL
            );
            CREATE UNIQUE INDEX discogsOutbox_add ON discogsOutbox(recordID) WHERE kind = 'add';
            """)
    }

    /// One writing sync at a time (`CollectionStore+SyncLease`): the token of the sync that
    /// holds the lease, its process (`ClaimOwner`), and when it last renewed it.
    private static func addSyncLease(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE syncLease (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                token TEXT NOT NULL,
                owner TEXT,
                renewedAt REAL NOT NULL
            );
            """)
    }
}
