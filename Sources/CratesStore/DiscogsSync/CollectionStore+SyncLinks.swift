import CratesCore
import Foundation
import GRDB

/// The links between copies and Discogs instances (`discogsCopy`): what they hold, the
/// instances a listing found gone, and what the collection shows of them.
extension CollectionStore {
    // MARK: Copies and links

    /// One copy as a sync sees it.
    public struct SyncCopy: Hashable, Sendable {
        public var recordID: Int64
        public var values: SyncedValues
        public var addedAt: Date
        /// "Artist — Title", or the barcode while unmatched: for the sync's lines.
        public var title: String
    }

    /// A Discogs instance crates has linked to a copy.
    public struct SyncLink: Hashable, Sendable {
        public var instanceID: Int64
        public var recordID: Int64
        public var releaseID: Int
        public var folderID: Int
        /// What both sides held at the last sync.
        public var base: SyncedValues
        public var removed: Bool
        /// The copy now; nil when it was deleted in crates, or is missing (`deletedInCrates`).
        public var copy: SyncCopy?
        /// Whether crates recorded the copy's deletion (`Schema.addDeletedCopies`). A link
        /// whose copy is gone without it (a restore from a damaged export) is a fault to
        /// report, never a removal to propose.
        public var deletedInCrates: Bool
        /// "Artist — Title" of the copy's release (or the instance's, once the copy is gone).
        public var title: String

        public var key: DiscogsInstanceKey { DiscogsInstanceKey(folderID: folderID, releaseID: releaseID, instanceID: instanceID) }
    }

    /// Which of these instances crates has linked already.
    public func linkedInstances(_ instanceIDs: [Int64]) async throws(StoreError) -> Set<Int64> {
        try await read { db in
            Set(try Int64.fetchAll(
                db, sql: "SELECT instanceID FROM discogsCopy WHERE instanceID IN (SELECT value FROM json_each(?))",
                arguments: [Self.jsonArray(instanceIDs)]))
        }
    }

    /// The instances of one release crates has linked.
    public func linkedInstances(ofRelease releaseID: Int) async throws(StoreError) -> Set<Int64> {
        try await read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT instanceID FROM discogsCopy WHERE releaseID = ?", arguments: [releaseID]))
        }
    }

    /// The copy's values now (nil: deleted).
    public func syncCopy(_ recordID: Int64) async throws(StoreError) -> SyncCopy? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT r.id, r.addedAt, r.note, r.mediaCondition, r.sleeveCondition, r.rating, r.gtin,
                           COALESCE(r.ownArtist, rel.artist), COALESCE(r.ownTitle, rel.title)
                    FROM record r LEFT JOIN release rel ON rel.id = r.releaseID WHERE r.id = ?
                    """,
                arguments: [recordID]
            ).map { try Self.syncCopy(from: $0, at: 0) }
        }
    }

    // MARK: After the listing

    /// The linked instances the listing did not show (`seen` is every instance it showed):
    /// gone from Discogs. Their copies, when they still exist, are flagged "removed on
    /// Discogs" (unless `flag` is false: a dry run); links whose copy was deleted in crates
    /// too are forgotten. Returns the links found gone, before the change.
    public func instancesGone(notIn seen: Set<Int64>, flag: Bool, now: Date = Date()) async throws(StoreError) -> [SyncLink] {
        let json = Self.jsonArray(Array(seen))
        let gone = try await read { db in
            try Row.fetchAll(db, sql: Self.linkSelect + " WHERE c.instanceID NOT IN (SELECT value FROM json_each(?)) ORDER BY c.instanceID",
                             arguments: [json]).map(Self.syncLink(from:))
        }
        let toFlag = gone.filter { $0.copy != nil && !$0.removed }.map(\.instanceID)
        let toForget = gone.filter { $0.copy == nil }.map(\.instanceID)
        if flag, !toFlag.isEmpty || !toForget.isEmpty {
            try await write { db in
                try db.execute(
                    sql: "UPDATE discogsCopy SET removedAt = ? WHERE instanceID IN (SELECT value FROM json_each(?))",
                    arguments: [StoredValues.seconds(now), Self.jsonArray(toFlag)])
                try db.execute(
                    sql: "DELETE FROM discogsCopy WHERE instanceID IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(toForget)])
            }
        }
        return gone
    }

    /// Links whose copy was deleted in crates (the deletion recorded) and whose instance is
    /// still on Discogs (not flagged removed), oldest link first.
    public func linksDeletedInCrates() async throws(StoreError) -> [SyncLink] {
        try await read { db in
            try Row.fetchAll(
                db, sql: Self.linkSelect + " WHERE r.id IS NULL AND c.deletedAt IS NOT NULL AND c.removedAt IS NULL ORDER BY c.instanceID"
            ).map(Self.syncLink(from:))
        }
    }

    /// Links whose copy crates does not have, though no deletion of it was recorded (a
    /// collection restored from an export that lost records): reported, never removed on
    /// Discogs. Oldest link first.
    public func linksMissingTheirCopy() async throws(StoreError) -> [SyncLink] {
        try await read { db in
            try Row.fetchAll(
                db, sql: Self.linkSelect + " WHERE r.id IS NULL AND c.deletedAt IS NULL AND c.removedAt IS NULL ORDER BY c.instanceID"
            ).map(Self.syncLink(from:))
        }
    }

    /// Copies flagged "removed on Discogs", oldest link first.
    public func linksRemovedOnDiscogs() async throws(StoreError) -> [SyncLink] {
        try await read { db in
            try Row.fetchAll(db, sql: Self.linkSelect + " WHERE r.id IS NOT NULL AND c.removedAt IS NOT NULL ORDER BY c.instanceID")
                .map(Self.syncLink(from:))
        }
    }

    /// Forgets these links (a copy removed on Discogs that crates is to add again:
    /// `--prefer crates`).
    public func forgetLinks(_ instanceIDs: [Int64]) async throws(StoreError) {
        guard !instanceIDs.isEmpty else { return }
        try await write { db in
            try db.execute(
                sql: "DELETE FROM discogsCopy WHERE instanceID IN (SELECT value FROM json_each(?))", arguments: [Self.jsonArray(instanceIDs)])
        }
    }

    // MARK: What the collection knows of Discogs

    /// How many instances of `releaseID` the Discogs collection held at the last sync
    /// (those found removed since not counted): for "on Discogs: 2 copies".
    public func discogsCopies(ofRelease releaseID: Int) async throws(StoreError) -> Int {
        try await read { db in try Self.discogsCopies(db, releaseID: releaseID) }
    }

    /// The same for the release a barcode's copies are matched to (the first one matched):
    /// what a scan of a barcode already in the collection says, with no request.
    public func discogsCopies(ofBarcode gtin: GTIN) async throws(StoreError) -> Int {
        try await read { db in
            guard let releaseID = try Int.fetchOne(
                db, sql: "SELECT releaseID FROM record WHERE gtin = ? AND releaseID IS NOT NULL ORDER BY id LIMIT 1",
                arguments: [gtin.canonical])
            else { return 0 }
            return try Self.discogsCopies(db, releaseID: releaseID)
        }
    }

    static func discogsCopies(_ db: Database, releaseID: Int) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM discogsCopy WHERE releaseID = ? AND removedAt IS NULL", arguments: [releaseID]) ?? 0
    }

    /// The Discogs links of these records, by record id.
    static func fetchDiscogsLinks(_ db: Database, recordIDs: [Int64]) throws -> [Int64: DiscogsCopyLink] {
        guard !recordIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.recordID, c.instanceID, c.releaseID, c.folderID, f.name, c.removedAt,
                       c.baseRating, c.baseMedia, c.baseSleeve, c.baseNotes
                FROM discogsCopy c LEFT JOIN discogsFolder f ON f.id = c.folderID
                WHERE c.recordID IN (SELECT value FROM json_each(?))
                """,
            arguments: [jsonArray(recordIDs)])
        let conflicts = try storedConflicts(db, instanceIDs: rows.map { $0[1] as Int64 })
        var links: [Int64: DiscogsCopyLink] = [:]
        for row in rows {
            let instanceID: Int64 = row[1]
            // What Discogs holds as far as crates knows: the last sync's values, and
            // Discogs' own where they are in conflict.
            let stored = conflicts[instanceID] ?? [:]
            let discogs = stored.reduce(baseValues(from: row, at: 6)) { $0.with($1.key, text: $1.value) }
            links[row[0] as Int64] = DiscogsCopyLink(
                instanceID: instanceID, releaseID: row[2], folderID: row[3], folderName: row[4],
                removedOnDiscogs: (row[5] as Double?) != nil, discogsValues: discogs, conflicts: Set(stored.keys))
        }
        return links
    }

    // MARK: Rows

    static let linkSelect = """
        SELECT c.instanceID, c.recordID, c.releaseID, c.folderID, c.baseRating, c.baseMedia, c.baseSleeve, c.baseNotes,
               c.removedAt, r.id, r.addedAt, r.note, r.mediaCondition, r.sleeveCondition, r.rating, r.gtin,
               COALESCE(r.ownArtist, rel.artist, crel.artist), COALESCE(r.ownTitle, rel.title, crel.title), c.deletedAt
        FROM discogsCopy c LEFT JOIN record r ON r.id = c.recordID
        LEFT JOIN release rel ON rel.id = r.releaseID
        LEFT JOIN release crel ON crel.id = c.releaseID
        """

    /// A link from `linkSelect`'s columns (the record's columns NULL when it was deleted).
    static func syncLink(from row: Row) throws -> SyncLink {
        let instanceID: Int64 = row[0]
        let recordID: Int64 = row[1]
        let base = baseValues(from: row, at: 4)
        var copy: SyncCopy?
        if (row[9] as Int64?) != nil {
            copy = try syncCopy(from: row, at: 9)
        }
        let releaseID: Int = row[2]
        let title = copy?.title ?? (row[17] as String?).map { DisplayTitle.of(artist: row[16] ?? "", title: $0) } ?? "release \(releaseID)"
        return SyncLink(
            instanceID: instanceID, recordID: recordID, releaseID: releaseID, folderID: row[3], base: base,
            removed: (row[8] as Double?) != nil, copy: copy, deletedInCrates: (row[18] as Double?) != nil, title: title)
    }

    /// The base values from the columns baseRating, baseMedia, baseSleeve, baseNotes
    /// starting at `index`.
    static func baseValues(from row: Row, at index: Int) -> SyncedValues {
        SyncedValues(
            rating: Rating(clamping: row[index]), media: (row[index + 1] as String?).flatMap(MediaCondition.init(rawValue:)),
            sleeve: (row[index + 2] as String?).flatMap(SleeveCondition.init(rawValue:)), notes: row[index + 3])
    }

    /// A copy from the columns id, addedAt, note, mediaCondition, sleeveCondition, rating,
    /// gtin, artist, title (the collector's where set) starting at `index`.
    static func syncCopy(from row: Row, at index: Int) throws -> SyncCopy {
        let id: Int64 = row[index]
        let grading = try StoredValues.grading(from: row, at: index + 3, recordID: id)
        let gtin: String? = row[index + 6]
        let title: String? = row[index + 8]
        let name = title.map { DisplayTitle.of(artist: row[index + 7] ?? "", title: $0) } ?? gtin ?? "record \(id)"
        return SyncCopy(
            recordID: id, values: SyncedValues(grading: grading, note: row[index + 2]),
            addedAt: StoredValues.date(row[index + 1]), title: name)
    }
}
