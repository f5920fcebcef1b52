import CratesCore
import Foundation
import GRDB

/// What `crates sync` keeps in the store (migration "v8 discogs sync"): the account the
/// collection is synced with, the user's folder names, one link per Discogs instance (its
/// copy, folder, and the values both sides held at the last sync), and the outbox of pushes.
/// The rules (what to link, pull, push, flag) are CratesApp's `DiscogsSync`; these files only
/// read and write, a page or a push at a time.
extension CollectionStore {
    // MARK: Account and folders

    /// The Discogs user this collection was synced with, nil before the first sync.
    public func discogsAccount() async throws(StoreError) -> String? {
        try await read { db in try String.fetchOne(db, sql: "SELECT username FROM discogsAccount WHERE id = 1") }
    }

    /// Records the Discogs user the collection is synced with (the first sync). Written only
    /// when it changes.
    public func setDiscogsAccount(_ username: String) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO discogsAccount (id, username) VALUES (1, ?)
                    ON CONFLICT(id) DO UPDATE SET username = excluded.username WHERE username IS NOT excluded.username
                    """,
                arguments: [username])
        }
    }

    /// Whether a sync with the account has ended whole: until one has, the collection UI
    /// shows what the first would do and asks before it runs.
    public func discogsSyncCompleted() async throws(StoreError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT lastSyncAt IS NOT NULL FROM discogsAccount WHERE id = 1") ?? false
        }
    }

    /// Records that a sync ended whole. Written once, at the first: a later sync that
    /// changes nothing writes nothing.
    public func markDiscogsSyncCompleted(at date: Date) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE discogsAccount SET lastSyncAt = ? WHERE id = 1 AND lastSyncAt IS NULL",
                arguments: [date.timeIntervalSince1970])
        }
    }

    /// Keeps the folders' names as Discogs listed them; written only when they changed.
    public func setDiscogsFolders(_ folders: [DiscogsCollectionFolder]) async throws(StoreError) {
        let wanted = Dictionary(folders.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let stored = try await read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT id, name FROM discogsFolder").map { ($0[0] as Int, $0[1] as String) },
                       uniquingKeysWith: { first, _ in first })
        }
        guard stored != wanted else { return }
        try await write { db in
            try db.execute(sql: "DELETE FROM discogsFolder")
            for (id, name) in wanted {
                try db.execute(sql: "INSERT INTO discogsFolder (id, name) VALUES (?, ?)", arguments: [id, name])
            }
        }
    }
}
