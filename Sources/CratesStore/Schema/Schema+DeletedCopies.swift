import GRDB

extension Schema {
    /// v17: `discogsCopy.deletedAt`, when the copy a link names was deleted in crates.
    ///
    /// A link outlives its copy on purpose (a sync reports it, `sync --delete` removes the
    /// instance on Discogs, an undone delete finds it again). But a link without its copy is
    /// not proof that the collector deleted it: a collection restored from a damaged export
    /// lacks the copies the file lost, and a sync that took every such link for a deletion
    /// would remove those copies from the Discogs account. So the deletion itself is
    /// recorded, by triggers, whichever path deletes (the UI, an undo, a future command): a
    /// link whose copy is gone and which has no `deletedAt` is a fault to report, never a
    /// removal to propose. Putting a record back (an undo, a restore) clears the mark.
    ///
    /// Links that already lack their copy when the migration runs were left by deletions
    /// before this version, the one way crates made them then: they are marked deleted now.
    static func addDeletedCopies(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE discogsCopy ADD COLUMN deletedAt REAL;
            UPDATE discogsCopy SET deletedAt = syncedAt WHERE recordID NOT IN (SELECT id FROM record);
            CREATE TRIGGER record_deleted_copy AFTER DELETE ON record BEGIN
                UPDATE discogsCopy SET deletedAt = (julianday('now') - 2440587.5) * 86400.0 WHERE recordID = OLD.id;
            END;
            CREATE TRIGGER record_restored_copy AFTER INSERT ON record BEGIN
                UPDATE discogsCopy SET deletedAt = NULL WHERE recordID = NEW.id AND deletedAt IS NOT NULL;
            END;
            """)
    }
}
