import GRDB

extension Schema {
    /// v16: `discogsConflict`, the fields a sync found changed differently on both sides, one
    /// row per linked instance and field, with Discogs' value as that sync read it (crates'
    /// is the copy's own). Kept after the sync ends so that the collection UI can show them
    /// and a choice can settle them; the next sync writes the set again (it finds the same
    /// conflicts, since a conflicting field keeps its base until settled). Gone with the
    /// link (a copy removed from Discogs, a link forgotten).
    static func addSyncConflicts(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE discogsConflict (
                instanceID INTEGER NOT NULL REFERENCES discogsCopy(instanceID) ON DELETE CASCADE,
                field TEXT NOT NULL,              -- a SyncField
                discogsValue TEXT,                -- SyncedValues.text: NULL when not set there
                foundAt REAL NOT NULL,
                PRIMARY KEY (instanceID, field)
            ) WITHOUT ROWID;
            """)
    }
}
