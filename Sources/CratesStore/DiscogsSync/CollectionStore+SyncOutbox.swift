import CratesCore
import Foundation
import GRDB

/// The outbox (`discogsOutbox`): the pushes a sync planned, each committed before its
/// request goes and dropped once its answer is stored, so that a killed sync neither
/// loses nor repeats one.
extension CollectionStore {
    // MARK: The outbox

    /// One planned push.
    public struct OutboxEntry: Hashable, Sendable {
        public enum Kind: String, Sendable {
            case add, update, remove
            /// The wantlist's (`CollectionStore+WantlistSync`): `value` holds what is sent.
            case wantAdd, wantEdit, wantRemove
        }

        public var id: Int64
        public var kind: Kind
        public var recordID: Int64?
        public var releaseID: Int
        public var folderID: Int
        public var instanceID: Int64?
        public var field: SyncField?
        public var value: String?
        /// Committed before the request went: it may have been carried out.
        public var sentAt: Date?

        public init(
            id: Int64, kind: Kind, recordID: Int64?, releaseID: Int, folderID: Int, instanceID: Int64? = nil,
            field: SyncField? = nil, value: String? = nil, sentAt: Date? = nil
        ) {
            self.id = id
            self.kind = kind
            self.recordID = recordID
            self.releaseID = releaseID
            self.folderID = folderID
            self.instanceID = instanceID
            self.field = field
            self.value = value
            self.sentAt = sentAt
        }

        /// What a wantlist entry sends (notes and rating).
        public var wantValues: SyncedValues? { CollectionStore.wantValues(value) }

        public var key: DiscogsInstanceKey? {
            instanceID.map { DiscogsInstanceKey(folderID: folderID, releaseID: releaseID, instanceID: $0) }
        }
    }

    /// Adds whose request went but whose answer was never stored (killed, or the answer
    /// lost): to reconcile before anything else.
    public func outboxAddsSent() async throws(StoreError) -> [OutboxEntry] {
        try await read { db in
            try Row.fetchAll(db, sql: Self.outboxSelect + " WHERE kind = 'add' AND sentAt IS NOT NULL ORDER BY id").map(Self.outboxEntry(from:))
        }
    }

    /// Forgets the pushes not sent yet: a sync plans them again from the copies' state
    /// (the values that differ from the last sync), which is the durable truth.
    public func discardUnsentOutbox() async throws(StoreError) {
        let count = try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM discogsOutbox WHERE sentAt IS NULL") ?? 0 }
        guard count > 0 else { return }
        try await write { db in try db.execute(sql: "DELETE FROM discogsOutbox WHERE sentAt IS NULL") }
    }

    /// The copies to add to Discogs: matched to a release, linked to no instance, no add
    /// planned yet; those in `excluding` count as linked (a dry run's links). `limit` for a
    /// dry run's listing.
    public func copiesToAdd(limit: Int = .max, excluding: Set<Int64> = []) async throws(StoreError) -> (count: Int, first: [SyncCopy]) {
        let excluded = Self.jsonArray(Array(excluding))
        return try await read { db in
            let condition = """
                FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
                WHERE r.releaseID IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM discogsCopy c WHERE c.recordID = r.id)
                  AND NOT EXISTS (SELECT 1 FROM discogsOutbox o WHERE o.kind = 'add' AND o.recordID = r.id)
                  AND r.id NOT IN (SELECT value FROM json_each(?))
                """
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) " + condition, arguments: [excluded]) ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.releaseID, r.id, r.addedAt, r.note, r.mediaCondition, r.sleeveCondition, r.rating, r.gtin,
                           COALESCE(r.ownArtist, rel.artist), COALESCE(r.ownTitle, rel.title)
                    \(condition) ORDER BY r.addedAt, r.id LIMIT ?
                    """,
                arguments: [excluded, min(limit, Int(Int32.max))])
            return (count, try rows.map { try Self.syncCopy(from: $0, at: 1) })
        }
    }

    /// Plans an add for every copy `copiesToAdd` names, to `folderID`, oldest first;
    /// returns how many.
    @discardableResult
    public func planAdds(folderID: Int, now: Date = Date()) async throws(StoreError) -> Int {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO discogsOutbox (kind, recordID, releaseID, folderID, createdAt)
                    SELECT 'add', r.id, r.releaseID, ?, ? FROM record r
                    WHERE r.releaseID IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM discogsCopy c WHERE c.recordID = r.id)
                      AND NOT EXISTS (SELECT 1 FROM discogsOutbox o WHERE o.kind = 'add' AND o.recordID = r.id)
                    ORDER BY r.addedAt, r.id
                    """,
                arguments: [folderID, StoredValues.seconds(now)])
            return db.changesCount
        }
    }

    /// Plans removing these instances from Discogs (their copies were deleted in crates).
    public func planRemoves(_ links: [SyncLink], now: Date = Date()) async throws(StoreError) {
        guard !links.isEmpty else { return }
        try await write { db in
            for link in links {
                // Only a link whose copy crates deleted, and still lacks: a copy missing for
                // any other reason is never removed from the Discogs account.
                try db.execute(
                    sql: """
                        INSERT INTO discogsOutbox (kind, recordID, releaseID, folderID, instanceID, createdAt)
                        SELECT 'remove', c.recordID, c.releaseID, c.folderID, c.instanceID, ? FROM discogsCopy c
                        WHERE c.instanceID = ? AND c.deletedAt IS NOT NULL AND NOT EXISTS (SELECT 1 FROM record r WHERE r.id = c.recordID)
                        """,
                    arguments: [StoredValues.seconds(now), link.instanceID])
            }
        }
    }

    /// The planned push after `id`, in the order planned.
    public func outboxEntry(after id: Int64) async throws(StoreError) -> OutboxEntry? {
        try await read { db in
            try Row.fetchOne(db, sql: Self.outboxSelect + " WHERE id > ? ORDER BY id LIMIT 1", arguments: [id]).map(Self.outboxEntry(from:))
        }
    }

    /// How many pushes wait in the outbox.
    public func outboxCount() async throws(StoreError) -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM discogsOutbox") ?? 0 }
    }

    /// Commits that the entry's request is about to go (or, `sent: false`, that it surely
    /// did not happen).
    public func markOutbox(_ id: Int64, sent: Bool, now: Date = Date()) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "UPDATE discogsOutbox SET sentAt = ? WHERE id = ?", arguments: [sent ? StoredValues.seconds(now) : nil, id])
        }
    }

    /// Drops an entry that is not to be carried out (its copy is gone, Discogs refused it).
    public func dropOutbox(_ id: Int64) async throws(StoreError) {
        try await write { db in try db.execute(sql: "DELETE FROM discogsOutbox WHERE id = ?", arguments: [id]) }
    }

    /// An add done: the instance is linked to the copy (base: nothing set, as a new instance
    /// holds), and the entry is gone, in one transaction.
    public func completeAdd(_ id: Int64, recordID: Int64, key: DiscogsInstanceKey, now: Date = Date()) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO discogsCopy (instanceID, recordID, releaseID, folderID, syncedAt) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(instanceID) DO NOTHING
                    """,
                arguments: [key.instanceID, recordID, key.releaseID, key.folderID, StoredValues.seconds(now)])
            try db.execute(sql: "DELETE FROM discogsOutbox WHERE id = ?", arguments: [id])
        }
    }

    /// A field written to an instance: the base takes the value sent, and the entry (if
    /// any) is gone.
    public func completeUpdate(_ id: Int64?, instanceID: Int64, field: SyncField, value: String?) async throws(StoreError) {
        try await write { db in
            try Self.setBase(db, instanceID: instanceID, field: field, value: value)
            if let id { try db.execute(sql: "DELETE FROM discogsOutbox WHERE id = ?", arguments: [id]) }
        }
    }

    /// Sets one field of a link's base (the value both sides hold) from its text.
    static func setBase(_ db: Database, instanceID: Int64, field: SyncField, value: String?) throws {
        let column: String
        let argument: DatabaseValue
        switch field {
        case .rating:
            column = "baseRating"
            argument = (Int(value ?? "0") ?? 0).databaseValue
        case .media: (column, argument) = ("baseMedia", value.databaseValue)
        case .sleeve: (column, argument) = ("baseSleeve", value.databaseValue)
        case .notes: (column, argument) = ("baseNotes", value.databaseValue)
        }
        try db.execute(sql: "UPDATE discogsCopy SET \(column) = ? WHERE instanceID = ?", arguments: [argument, instanceID])
    }

    /// An instance removed from Discogs: its link and the entry are gone.
    public func completeRemove(_ id: Int64, instanceID: Int64) async throws(StoreError) {
        try await write { db in
            try db.execute(sql: "DELETE FROM discogsCopy WHERE instanceID = ?", arguments: [instanceID])
            try db.execute(sql: "DELETE FROM discogsOutbox WHERE id = ?", arguments: [id])
        }
    }

    // MARK: Rows

    static let outboxSelect = """
        SELECT id, kind, recordID, releaseID, folderID, instanceID, field, value, sentAt FROM discogsOutbox
        """

    static func outboxEntry(from row: Row) throws -> OutboxEntry {
        let kindText: String = row[1]
        guard let kind = OutboxEntry.Kind(rawValue: kindText) else {
            throw StoreError.unreadableValue(recordID: row[2], column: "discogsOutbox.kind", value: kindText)
        }
        return OutboxEntry(
            id: row[0], kind: kind, recordID: row[2], releaseID: row[3], folderID: row[4], instanceID: row[5],
            field: (row[6] as String?).flatMap(SyncField.init(rawValue:)), value: row[7],
            sentAt: (row[8] as Double?).map(StoredValues.date))
    }
}
