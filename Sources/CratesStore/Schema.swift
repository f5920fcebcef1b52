import CratesCore
import Foundation
import GRDB

/// The database schema and its migrations.
///
/// Versioning: GRDB's `DatabaseMigrator` records each applied migration's identifier in
/// `grdb_migrations`; a migration, once released, is never edited, only followed by a new
/// one ("v2", …). A database whose applied identifiers include one this build does not know
/// was migrated by a newer crates: it is refused before anything is written (see
/// `CatalogueStore.inspect`). The identifiers say more than a `PRAGMA user_version` number
/// would (which migration, not only how many) and need no second bookkeeping.
///
/// `PRAGMA application_id` is stamped with "CRAT" so that a crates database can be told from
/// any other SQLite file, even one that also uses GRDB's migrator.
enum Schema {
    /// "CRAT" in ASCII, per SQLite's application_id convention (a 32-bit big-endian tag).
    static let applicationID: Int32 = 0x4352_4154

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: createV1)
        migrator.registerMigration("v2 search text", migrate: addSearchText)
        migrator.registerMigration("v3 pinned release", migrate: addPinnedRelease)
        migrator.registerMigration("v5 release details", migrate: addReleaseDetails)
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
    /// credits, identifiers and notes come later (issue 13: one request per record). Every
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
}
