import CratesCore
import Foundation
import GRDB

/// The wantlist (`want`): the releases the collector is looking for, kept as one with the
/// Discogs wantlist by the sync (`CollectionStore+WantlistSync`). A change made here is
/// stamped (`changedAt`) so that the sync knows which side moved; a removal of a want the
/// Discogs wantlist holds stays as a row (`removedAt`) until the sync has removed it there.
extension CollectionStore {
    /// What adding a want did.
    public enum WantAddition: Hashable, Sendable {
        case added(WantEntry)
        /// On the wantlist already: nothing changed.
        case already(WantEntry)
    }

    /// Every want, by artist and title (removals waiting for a sync left out).
    public func wants() async throws(StoreError) -> [WantEntry] {
        try await read { db in
            try Row.fetchAll(db, sql: Self.wantSelect + " WHERE removedAt IS NULL ORDER BY artist COLLATE NOCASE, title COLLATE NOCASE, releaseID")
                .map(Self.wantEntry(from:))
        }
    }

    /// The want of `releaseID`; nil when it is not on the wantlist.
    public func want(_ releaseID: Int) async throws(StoreError) -> WantEntry? {
        try await read { db in try Self.fetchWant(db, releaseID: releaseID) }
    }

    /// The releases among `releaseIDs` that are on the wantlist.
    public func wanted(among releaseIDs: [Int]) async throws(StoreError) -> Set<Int> {
        guard !releaseIDs.isEmpty else { return [] }
        let list = Self.jsonArray(releaseIDs.map(Int64.init))
        return try await read { db in
            Set(try Int.fetchAll(
                db, sql: "SELECT releaseID FROM want WHERE removedAt IS NULL AND releaseID IN (SELECT value FROM json_each(?))",
                arguments: [list]))
        }
    }

    /// Puts a release on the wantlist (a want removed here and not yet synced comes back,
    /// with the new notes and rating).
    public func addWant(_ entry: WantEntry, now: Date = Date()) async throws(StoreError) -> WantAddition {
        try await write { db in
            if let existing = try Self.fetchWant(db, releaseID: entry.releaseID) { return .already(existing) }
            let at = StoredValues.seconds(now)
            try db.execute(
                sql: """
                    INSERT INTO want (releaseID, artist, title, year, country, format, label, catno, masterID, notes, rating,
                                      addedAt, changedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(releaseID) DO UPDATE SET
                        removedAt = NULL, changedAt = excluded.changedAt, notes = excluded.notes, rating = excluded.rating,
                        addedAt = excluded.addedAt
                    """,
                arguments: [
                    entry.releaseID, entry.artist, entry.title, entry.year, entry.country, entry.format, entry.label, entry.catno,
                    entry.masterID, entry.notes, entry.rating.value, StoredValues.seconds(entry.addedAt), at,
                ])
            guard let stored = try Self.fetchWant(db, releaseID: entry.releaseID) else {
                throw StoreError.database("the want of release \(entry.releaseID) was not stored")
            }
            return .added(stored)
        }
    }

    /// Takes a release off the wantlist; returns the want, nil when it was not on it. A
    /// want the Discogs wantlist holds is kept as a removal for the next sync to carry out.
    @discardableResult
    public func removeWant(_ releaseID: Int, now: Date = Date()) async throws(StoreError) -> WantEntry? {
        try await write { db in
            guard let existing = try Self.fetchWant(db, releaseID: releaseID) else { return nil }
            try db.execute(
                sql: """
                    UPDATE want SET removedAt = ?, changedAt = ? WHERE releaseID = ? AND onDiscogs = 1;
                    DELETE FROM want WHERE releaseID = ? AND onDiscogs = 0;
                    """,
                arguments: [StoredValues.seconds(now), StoredValues.seconds(now), releaseID, releaseID])
            return existing
        }
    }

    /// Sets a want's notes (`.some(nil)` clears them) and rating; returns the want, nil when
    /// the release is not on the wantlist.
    public func editWant(_ releaseID: Int, notes: String??, rating: Rating?, now: Date = Date()) async throws(StoreError) -> WantEntry? {
        try await write { db in
            guard try Self.fetchWant(db, releaseID: releaseID) != nil else { return nil }
            if let notes {
                try db.execute(
                    sql: "UPDATE want SET notes = ?, changedAt = ? WHERE releaseID = ?",
                    arguments: [notes, StoredValues.seconds(now), releaseID])
            }
            if let rating {
                try db.execute(
                    sql: "UPDATE want SET rating = ?, changedAt = ? WHERE releaseID = ?",
                    arguments: [rating.value, StoredValues.seconds(now), releaseID])
            }
            return try Self.fetchWant(db, releaseID: releaseID)
        }
    }

    // MARK: Rows

    static let wantSelect = """
        SELECT releaseID, artist, title, year, country, format, label, catno, masterID, notes, rating, addedAt FROM want
        """

    static func fetchWant(_ db: Database, releaseID: Int) throws -> WantEntry? {
        try Row.fetchOne(db, sql: wantSelect + " WHERE releaseID = ? AND removedAt IS NULL", arguments: [releaseID])
            .map(wantEntry(from:))
    }

    static func wantEntry(from row: Row) -> WantEntry {
        let rating: Int = row[10]
        return WantEntry(
            releaseID: row[0], artist: row[1], title: row[2], year: row[3], country: row[4], format: row[5], label: row[6],
            catno: row[7], masterID: row[8], notes: row[9], rating: Rating(clamping: rating), addedAt: StoredValues.date(row[11]))
    }
}
