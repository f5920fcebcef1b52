import GRDB

extension Schema {
    /// v18: the wantlist, and each release's master, so that a check can say "you own
    /// another pressing of this".
    ///
    /// - `release.masterID`: the master release Discogs groups the pressings under, read
    ///   from the release's JSON (`master_id`: a full release, a search result and the
    ///   catalogue's JSON all carry it) by triggers on `releaseJSON`, so that no write path
    ///   (a lookup, a choice, a sync's pull, a restore) has to remember it. A JSON that does
    ///   not parse gives none rather than failing the write. Indexed: a check asks for the
    ///   copies of a master without reading every release.
    /// - `want`: one row per wanted release (Discogs' wantlist holds a release once). The
    ///   release's shown values are kept in the row (artist, title, pressing), since a
    ///   wanted release is usually in no copy's `release` row. `notes` and `rating` are the
    ///   collector's; `base…` what both sides held at the last sync (the base of the
    ///   three-way merge, as `discogsCopy`'s); `onDiscogs` whether a sync saw it listed on
    ///   (or put it on) the Discogs wantlist; `changedAt` the last change made here;
    ///   `removedAt` a removal made here, kept as a row until a sync has removed it from
    ///   Discogs too (a removal only a row's absence recorded could not be told from a
    ///   want never pulled).
    /// - `wantConflict`: a field a sync found changed differently on both sides, or a want
    ///   removed on Discogs but changed here since (`field` 'removed'), kept for a person
    ///   to settle, as `discogsConflict` is for copies.
    static func addWantlist(_ db: Database) throws {
        let master = """
            CASE WHEN json_valid(NEW.rawJSON) THEN nullif(CAST(json_extract(NEW.rawJSON, '$.master_id') AS INTEGER), 0) END
            """
        try db.execute(sql: """
            ALTER TABLE release ADD COLUMN masterID INTEGER;
            UPDATE release SET masterID = (
                SELECT CASE WHEN json_valid(j.rawJSON) THEN nullif(CAST(json_extract(j.rawJSON, '$.master_id') AS INTEGER), 0) END
                FROM releaseJSON j WHERE j.id = release.id);
            CREATE INDEX release_master ON release(masterID) WHERE masterID IS NOT NULL;
            CREATE TRIGGER releaseJSON_master_added AFTER INSERT ON releaseJSON BEGIN
                UPDATE release SET masterID = \(master) WHERE id = NEW.id;
            END;
            CREATE TRIGGER releaseJSON_master_changed AFTER UPDATE OF rawJSON ON releaseJSON BEGIN
                UPDATE release SET masterID = \(master) WHERE id = NEW.id;
            END;

            CREATE TABLE want (
                releaseID INTEGER PRIMARY KEY,
                artist TEXT NOT NULL,
                title TEXT NOT NULL,
                year INTEGER,
                country TEXT,
                format TEXT,
                label TEXT,
                catno TEXT,
                masterID INTEGER,
                notes TEXT,
                rating INTEGER NOT NULL DEFAULT 0,
                addedAt REAL NOT NULL,
                changedAt REAL NOT NULL,
                removedAt REAL,
                onDiscogs INTEGER NOT NULL DEFAULT 0,
                baseNotes TEXT,
                baseRating INTEGER NOT NULL DEFAULT 0,
                syncedAt REAL
            );
            CREATE INDEX want_master ON want(masterID) WHERE masterID IS NOT NULL;
            CREATE TABLE wantConflict (
                releaseID INTEGER NOT NULL,
                field TEXT NOT NULL,              -- notes, rating, removed
                discogsValue TEXT,
                foundAt REAL NOT NULL,
                PRIMARY KEY (releaseID, field)
            ) WITHOUT ROWID;
            """)
    }
}
