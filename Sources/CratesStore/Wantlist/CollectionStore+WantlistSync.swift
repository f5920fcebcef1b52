import CratesCore
import Foundation
import GRDB

/// What the sync keeps of the wantlist beside each want (`want.onDiscogs`, `base…`,
/// `syncedAt`, `removedAt`, `changedAt`), and the wantlist's entries in the sync's outbox
/// (`discogsOutbox` kinds `wantAdd`, `wantEdit`, `wantRemove`: releaseID, folderID 0, the
/// values sent in `value` as JSON). Each entry is committed before its request is sent and
/// dropped once Discogs has answered, as the collection's are; the wantlist's requests are
/// idempotent (a release is on a wantlist once), so one sent again after a lost answer
/// doubles nothing.
extension CollectionStore {
    /// A want as the sync sees it.
    public struct WantSyncRow: Hashable, Sendable {
        public var releaseID: Int
        public var title: String
        public var values: SyncedValues
        public var base: SyncedValues
        /// A sync saw it on the Discogs wantlist (or put it there).
        public var onDiscogs: Bool
        /// Removed here, and not yet from Discogs.
        public var removed: Bool
        /// Changed here since the last sync that saw it.
        public var changedSinceSync: Bool
    }

    /// What one page of the Discogs wantlist means for the store.
    public struct WantPageChanges: Sendable {
        /// Wants new to crates, with what Discogs has of them.
        public var pulled: [(want: WantEntry, values: SyncedValues)] = []
        /// Wants seen: their base (what both sides hold now, or the old base of a field in
        /// conflict or to push), the values taken from Discogs (nil: none), and the release's
        /// shown values to refresh.
        public var seen: [(releaseID: Int, base: SyncedValues, take: SyncedValues?, release: WantEntry?)] = []
        /// Conflicts found, by release: field → Discogs' value (text).
        public var conflicts: [Int: [SyncField: String?]] = [:]

        public init() {}
    }

    /// The sync's view of these wants (removed ones included).
    public func wantSyncRows(_ releaseIDs: [Int]) async throws(StoreError) -> [Int: WantSyncRow] {
        guard !releaseIDs.isEmpty else { return [:] }
        let list = Self.jsonArray(releaseIDs.map(Int64.init))
        return try await read { db in
            var rows: [Int: WantSyncRow] = [:]
            for row in try Row.fetchAll(db, sql: Self.wantSyncSelect + " WHERE releaseID IN (SELECT value FROM json_each(?))", arguments: [list]) {
                let want = Self.wantSyncRow(from: row)
                rows[want.releaseID] = want
            }
            return rows
        }
    }

    /// Writes what a page of the listing decided, in one transaction: the wants pulled (a
    /// want added here meanwhile is left as it is), the bases and values taken, and the
    /// conflicts found.
    public func applyWantPage(_ changes: WantPageChanges, now: Date = Date()) async throws(StoreError) {
        let at = StoredValues.seconds(now)
        try await write { db in
            for (want, values) in changes.pulled {
                try db.execute(
                    sql: """
                        INSERT INTO want (releaseID, artist, title, year, country, format, label, catno, masterID, notes, rating,
                                          addedAt, changedAt, onDiscogs, baseNotes, baseRating, syncedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
                        ON CONFLICT(releaseID) DO NOTHING
                        """,
                    arguments: [
                        want.releaseID, want.artist, want.title, want.year, want.country, want.format, want.label, want.catno,
                        want.masterID, values.notes, values.rating.value, StoredValues.seconds(want.addedAt), at, values.notes,
                        values.rating.value, at,
                    ])
            }
            for seen in changes.seen {
                try db.execute(
                    sql: "UPDATE want SET onDiscogs = 1, baseNotes = ?, baseRating = ?, syncedAt = ? WHERE releaseID = ?",
                    arguments: [seen.base.notes, seen.base.rating.value, at, seen.releaseID])
                if let take = seen.take {
                    try db.execute(
                        sql: "UPDATE want SET notes = ?, rating = ? WHERE releaseID = ?",
                        arguments: [take.notes, take.rating.value, seen.releaseID])
                }
                if let release = seen.release {
                    // Discogs' own values of the release, for a want added by its id alone.
                    try db.execute(
                        sql: """
                            UPDATE want SET artist = ?, title = ?, year = coalesce(?, year), format = coalesce(?, format),
                                            label = coalesce(?, label), catno = coalesce(?, catno)
                            WHERE releaseID = ? AND artist = ''
                            """,
                        arguments: [release.artist, release.title, release.year, release.format, release.label, release.catno, seen.releaseID])
                }
            }
            for (releaseID, fields) in changes.conflicts {
                try db.execute(sql: "DELETE FROM wantConflict WHERE releaseID = ? AND field != 'removed'", arguments: [releaseID])
                for (field, value) in fields {
                    try db.execute(
                        sql: "INSERT INTO wantConflict (releaseID, field, discogsValue, foundAt) VALUES (?, ?, ?, ?)",
                        arguments: [releaseID, field.rawValue, value, at])
                }
            }
        }
    }

    /// What a whole listing did not show, settled: a want the Discogs wantlist held at the
    /// last sync and no longer does is removed here (and a removal made here is done),
    /// unless it was changed here since, which is a conflict kept for a person
    /// (`wantConflict` field 'removed'). Returns the wants removed here and those in
    /// conflict. `apply` false (a dry run) only says.
    public func wantsGone(notIn seen: Set<Int>, apply: Bool, now: Date = Date()) async throws(StoreError)
        -> (removedHere: [WantSyncRow], conflicts: [WantSyncRow])
    {
        let at = StoredValues.seconds(now)
        let body = { @Sendable (db: Database) throws -> (removedHere: [WantSyncRow], conflicts: [WantSyncRow]) in
            var removed: [WantSyncRow] = []
            var conflicts: [WantSyncRow] = []
            for row in try Row.fetchAll(db, sql: Self.wantSyncSelect + " WHERE onDiscogs = 1") {
                let want = Self.wantSyncRow(from: row)
                guard !seen.contains(want.releaseID) else { continue }
                if want.removed {
                    if apply { try db.execute(sql: "DELETE FROM want WHERE releaseID = ?", arguments: [want.releaseID]) }
                } else if want.changedSinceSync {
                    conflicts.append(want)
                    if apply {
                        try db.execute(
                            sql: "INSERT OR REPLACE INTO wantConflict (releaseID, field, discogsValue, foundAt) VALUES (?, 'removed', NULL, ?)",
                            arguments: [want.releaseID, at])
                    }
                } else {
                    removed.append(want)
                    if apply {
                        try db.execute(sql: "DELETE FROM want WHERE releaseID = ?", arguments: [want.releaseID])
                        try db.execute(sql: "DELETE FROM wantConflict WHERE releaseID = ?", arguments: [want.releaseID])
                    }
                }
            }
            return (removed, conflicts)
        }
        return apply ? try await write(body) : try await read(body)
    }

    /// Wants only in crates (never on the Discogs wantlist), to add there; removals made
    /// here of wants never synced are simply forgotten.
    public func wantsToAdd() async throws(StoreError) -> [WantSyncRow] {
        try await read { db in
            try Row.fetchAll(db, sql: Self.wantSyncSelect + " WHERE onDiscogs = 0 AND removedAt IS NULL ORDER BY addedAt, releaseID")
                .map(Self.wantSyncRow(from:))
        }
    }

    /// Wants removed here that the Discogs wantlist still holds.
    public func wantsToRemove() async throws(StoreError) -> [WantSyncRow] {
        try await read { db in
            try Row.fetchAll(db, sql: Self.wantSyncSelect + " WHERE onDiscogs = 1 AND removedAt IS NOT NULL ORDER BY releaseID")
                .map(Self.wantSyncRow(from:))
        }
    }

    /// A want removed on Discogs that crates keeps (a conflict settled for crates): no
    /// longer on Discogs, so the next push adds it there again.
    public func markWantOffDiscogs(_ releaseID: Int) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE want SET onDiscogs = 0, syncedAt = NULL WHERE releaseID = ?", arguments: [releaseID])
            try db.execute(sql: "DELETE FROM wantConflict WHERE releaseID = ?", arguments: [releaseID])
        }
    }

    /// Wanted releases whose marketplace figures were never asked, or not since `date`.
    public func wantsToPrice(olderThan date: Date) async throws(StoreError) -> [Int] {
        try await read { db in
            try Int.fetchAll(
                db,
                sql: """
                    SELECT w.releaseID FROM want w WHERE w.removedAt IS NULL
                      AND coalesce((SELECT max(p.at) FROM releasePrice p WHERE p.releaseID = w.releaseID), 0) < ?
                    ORDER BY w.releaseID
                    """,
                arguments: [StoredValues.seconds(date)])
        }
    }

    /// Removals made here of wants that were never on Discogs, and their stale rows: gone.
    public func forgetUnsyncedRemovals() async throws(StoreError) {
        try await write { db in try db.execute(sql: "DELETE FROM want WHERE onDiscogs = 0 AND removedAt IS NOT NULL") }
    }

    /// Plans a wantlist push: committed before its request goes.
    public func planWantPush(_ kind: OutboxEntry.Kind, releaseID: Int, values: SyncedValues?, now: Date = Date()) async throws(StoreError)
        -> Int64
    {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO discogsOutbox (kind, releaseID, folderID, value, createdAt) VALUES (?, ?, 0, ?, ?)",
                arguments: [kind.rawValue, releaseID, values.map(Self.wantValueJSON), StoredValues.seconds(now)])
            return db.lastInsertedRowID
        }
    }

    /// A want added or edited on Discogs: its base is what was sent, it is on Discogs, and
    /// the entry is gone; a conflict it settled goes too.
    public func completeWantPush(_ id: Int64, releaseID: Int, sent: SyncedValues, now: Date = Date()) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: "UPDATE want SET onDiscogs = 1, baseNotes = ?, baseRating = ?, syncedAt = ? WHERE releaseID = ?",
                arguments: [sent.notes, sent.rating.value, StoredValues.seconds(now), releaseID])
            try db.execute(sql: "DELETE FROM wantConflict WHERE releaseID = ? AND field != 'removed'", arguments: [releaseID])
            try db.execute(sql: "DELETE FROM discogsOutbox WHERE id = ?", arguments: [id])
        }
    }

    /// A want removed from Discogs: its row (kept as a removal) and the entry are gone,
    /// unless it was wanted again here meanwhile (then it is no longer on Discogs).
    public func completeWantRemove(_ id: Int64, releaseID: Int) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM want WHERE releaseID = ? AND removedAt IS NOT NULL", arguments: [releaseID])
            try db.execute(sql: "UPDATE want SET onDiscogs = 0 WHERE releaseID = ?", arguments: [releaseID])
            try db.execute(sql: "DELETE FROM wantConflict WHERE releaseID = ?", arguments: [releaseID])
            try db.execute(sql: "DELETE FROM discogsOutbox WHERE id = ?", arguments: [id])
        }
    }

    /// The wantlist's conflicts: the want, the field ('removed': removed on Discogs but
    /// changed here), and Discogs' value.
    public func wantConflicts() async throws(StoreError) -> [(want: WantSyncRow, field: String, discogs: String?)] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT w.releaseID, w.artist, w.title, w.notes, w.rating, w.baseNotes, w.baseRating, w.onDiscogs, w.removedAt,
                           w.changedAt, w.syncedAt, c.field, c.discogsValue
                    FROM wantConflict c JOIN want w ON w.releaseID = c.releaseID ORDER BY w.releaseID, c.field
                    """
            ).map { row in (Self.wantSyncRow(from: row), row[11], row[12]) }
        }
    }

    // MARK: Rows

    static let wantSyncSelect = """
        SELECT releaseID, artist, title, notes, rating, baseNotes, baseRating, onDiscogs, removedAt, changedAt, syncedAt FROM want
        """

    static func wantSyncRow(from row: Row) -> WantSyncRow {
        let rating: Int = row[4]
        let baseRating: Int = row[6]
        let changedAt: Double = row[9] ?? 0
        let syncedAt: Double? = row[10]
        let removedAt: Double? = row[8]
        return WantSyncRow(
            releaseID: row[0], title: DisplayTitle.of(artist: row[1], title: row[2]),
            values: SyncedValues(rating: Rating(clamping: rating), notes: row[3]),
            base: SyncedValues(rating: Rating(clamping: baseRating), notes: row[5]), onDiscogs: row[7],
            removed: removedAt != nil, changedSinceSync: syncedAt.map { changedAt > $0 } ?? true)
    }

    /// What an outbox entry of the wantlist holds of `values`.
    public static func wantValueText(_ values: SyncedValues) -> String { wantValueJSON(values) }

    static func wantValueJSON(_ values: SyncedValues) -> String {
        "{\"notes\":\(values.notes.map(JSONStringLiteral.quoted) ?? "null"),\"rating\":\(values.rating.value)}"
    }

    /// The values an outbox entry of the wantlist sends.
    static func wantValues(_ json: String?) -> SyncedValues? {
        guard let json, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return nil }
        return SyncedValues(rating: Rating(clamping: (object["rating"] as? Int) ?? 0), notes: object["notes"] as? String)
    }
}
