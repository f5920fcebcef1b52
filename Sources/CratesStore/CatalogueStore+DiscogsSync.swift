import CratesCore
import Foundation
import GRDB

/// What `crates sync` keeps in the store (migration "v8 discogs sync"): the account the
/// collection is synced with, the user's folder names, one link per Discogs instance (its
/// copy, folder, and the values both sides held at the last sync), and the outbox of pushes.
/// The rules (what to link, pull, push, flag) are CratesApp's `DiscogsSync`; this file only
/// reads and writes, a page or a push at a time.
extension CatalogueStore {
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

    // MARK: Reading a page's context

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
        /// The copy now; nil when it was deleted in crates.
        public var copy: SyncCopy?
        /// "Artist — Title" of the copy's release (or the instance's, once the copy is gone).
        public var title: String

        public var key: DiscogsInstanceKey { DiscogsInstanceKey(folderID: folderID, releaseID: releaseID, instanceID: instanceID) }
    }

    /// What a sync needs to decide about one page of instances: the links of those
    /// instances, the copies of their releases not linked to any instance (oldest first:
    /// the order a first sync links them in), and which of their releases are stored.
    public struct SyncPageContext: Sendable {
        public var links: [Int64: SyncLink]
        /// By release id; matched copies, and copies imported with that release id and not
        /// looked up yet.
        public var unlinked: [Int: [SyncCopy]]
        public var storedReleases: Set<Int>
        /// The fields in conflict of the linked instances, as stored (Discogs' values).
        public var conflicts: [Int64: [SyncField: String?]] = [:]
    }

    /// The context of a page of `instances`; copies in `excluding` count as linked already
    /// (a dry run's links, which it does not write).
    public func syncContext(
        for instances: [DiscogsCollectionInstance], excluding: Set<Int64> = []
    ) async throws(StoreError) -> SyncPageContext {
        let instanceIDs = instances.map(\.instanceID)
        let releaseIDs = Array(Set(instances.map(\.releaseID)))
        return try await read { db in
            var links: [Int64: SyncLink] = [:]
            if !instanceIDs.isEmpty {
                let rows = try Row.fetchAll(
                    db, sql: Self.linkSelect + " WHERE c.instanceID IN (SELECT value FROM json_each(?))",
                    arguments: [Self.jsonArray(instanceIDs)])
                for row in rows {
                    let link = try Self.syncLink(from: row)
                    links[link.instanceID] = link
                }
            }
            var unlinked: [Int: [SyncCopy]] = [:]
            var stored: Set<Int> = []
            if !releaseIDs.isEmpty {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT COALESCE(r.releaseID, r.pinnedReleaseID) AS rid, r.id, r.addedAt, r.note, r.mediaCondition,
                               r.sleeveCondition, r.rating, r.gtin, COALESCE(r.ownArtist, rel.artist), COALESCE(r.ownTitle, rel.title)
                        FROM record r LEFT JOIN release rel ON rel.id = r.releaseID
                        WHERE rid IN (SELECT value FROM json_each(?))
                          AND NOT EXISTS (SELECT 1 FROM discogsCopy c WHERE c.recordID = r.id)
                        ORDER BY r.addedAt, r.id
                        """,
                    arguments: [Self.jsonArray(releaseIDs)])
                for row in rows {
                    let id: Int64 = row[1]
                    guard !excluding.contains(id) else { continue }
                    unlinked[row[0] as Int, default: []].append(try Self.syncCopy(from: row, at: 1))
                }
                stored = Set(try Int.fetchAll(
                    db, sql: "SELECT id FROM release WHERE id IN (SELECT value FROM json_each(?))",
                    arguments: [Self.jsonArray(releaseIDs)]))
            }
            let conflicts = try Self.storedConflicts(db, instanceIDs: Array(links.keys))
            return SyncPageContext(links: links, unlinked: unlinked, storedReleases: stored, conflicts: conflicts)
        }
    }

    // MARK: Writing a page's changes

    /// What a sync decided about one page, written in one transaction.
    public struct SyncPageChanges: Sendable {
        /// An instance linked to an existing copy.
        public struct Link: Sendable {
            public var key: DiscogsInstanceKey
            public var recordID: Int64
            /// The values both sides hold once the page is written.
            public var base: SyncedValues
            /// Values taken from Discogs into the copy (nil: none), applied only while the
            /// copy still holds `expected` (a concurrent edit wins; the next sync merges it).
            public var take: SyncedValues?
            public var expected: SyncedValues

            public init(key: DiscogsInstanceKey, recordID: Int64, base: SyncedValues, take: SyncedValues?, expected: SyncedValues) {
                self.key = key
                self.recordID = recordID
                self.base = base
                self.take = take
                self.expected = expected
            }
        }

        /// An instance that becomes a new copy.
        public struct Pulled: Sendable {
            public var key: DiscogsInstanceKey
            /// From `basic_information`; stored only when the release is not stored yet
            /// (a release fetched in full is never replaced by less).
            public var release: Release
            public var addedAt: Date
            public var values: SyncedValues

            public init(key: DiscogsInstanceKey, release: Release, addedAt: Date, values: SyncedValues) {
                self.key = key
                self.release = release
                self.addedAt = addedAt
                self.values = values
            }
        }

        /// A field to write to an instance (an outbox `update` row).
        public struct Push: Sendable {
            public var key: DiscogsInstanceKey
            public var recordID: Int64
            public var field: SyncField
            public var value: String?

            public init(key: DiscogsInstanceKey, recordID: Int64, field: SyncField, value: String?) {
                self.key = key
                self.recordID = recordID
                self.field = field
                self.value = value
            }
        }

        /// New links (first sync, or a copy added on both sides).
        public var links: [Link] = []
        /// Existing links whose base, folder or flag changes (same shape as a new link).
        public var refreshes: [Link] = []
        public var pulled: [Pulled] = []
        public var pushes: [Push] = []
        /// The fields now in conflict of instances whose set changed (empty: none left),
        /// with Discogs' value of each.
        public var conflicts: [Int64: [SyncField: String?]] = [:]

        public init() {}

        public var isEmpty: Bool { links.isEmpty && refreshes.isEmpty && pulled.isEmpty && pushes.isEmpty && conflicts.isEmpty }
    }

    /// Writes a page's changes in one transaction; returns the ids of the pulled copies.
    ///
    /// The page was planned from a read before this transaction: another `crates sync`
    /// running at once may have linked or pulled the same instances since. So each new link
    /// and each pull is checked again here, in the write transaction that SQLite's write lock
    /// serialises across processes: an instance already linked (or a copy already linked to
    /// an instance) is left as the other sync wrote it, never pulled twice (issue 12's rule
    /// for every add).
    @discardableResult
    public func applySyncPage(_ changes: SyncPageChanges, now: Date = Date()) async throws(StoreError) -> [Int64] {
        guard !changes.isEmpty else { return [] }
        return try await write { db in
            let linked = try db.cachedStatement(sql: "SELECT 1 FROM discogsCopy WHERE instanceID = ? OR recordID = ?")
            func isLinked(instance: Int64, record: Int64) throws -> Bool {
                try Bool.fetchOne(linked, arguments: [instance, record]) ?? false
            }
            // A link another sync wrote first is that sync's, conflicts and all.
            var notLinked: Set<Int64> = []
            for link in changes.links {
                guard try !isLinked(instance: link.key.instanceID, record: link.recordID) else {
                    notLinked.insert(link.key.instanceID)
                    continue
                }
                try Self.take(db, link, now: now)
                try Self.insertLink(db, link.key, recordID: link.recordID, base: link.base, now: now)
            }
            for link in changes.refreshes {
                guard try Self.take(db, link, now: now) else { continue }
                try db.execute(
                    sql: """
                        UPDATE discogsCopy SET folderID = ?, baseRating = ?, baseMedia = ?, baseSleeve = ?, baseNotes = ?,
                            removedAt = NULL, syncedAt = ?
                        WHERE instanceID = ?
                        """,
                    arguments: [
                        link.key.folderID, link.base.rating.value, link.base.media?.rawValue, link.base.sleeve?.rawValue,
                        link.base.notes, StoredValues.seconds(now), link.key.instanceID,
                    ])
            }
            var pulledIDs: [Int64] = []
            for pulled in changes.pulled {
                guard try !isLinked(instance: pulled.key.instanceID, record: 0) else { continue }
                let id = try Self.insertPulled(db, pulled, now: now)
                pulledIDs.append(id)
                try Self.insertLink(db, pulled.key, recordID: id, base: pulled.values, now: now)
            }
            for push in changes.pushes {
                try db.execute(
                    sql: """
                        INSERT INTO discogsOutbox (kind, recordID, releaseID, folderID, instanceID, field, value, createdAt)
                        VALUES ('update', ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        push.recordID, push.key.releaseID, push.key.folderID, push.key.instanceID, push.field.rawValue,
                        push.value, StoredValues.seconds(now),
                    ])
            }
            for (instanceID, fields) in changes.conflicts where !notLinked.contains(instanceID) {
                try Self.replaceConflicts(db, instanceID: instanceID, fields: fields, now: now)
            }
            return pulledIDs
        }
    }

    /// Takes Discogs' values into the copy when the copy still holds what the sync read;
    /// false when it changed meanwhile (then nothing of this link is written).
    @discardableResult
    private static func take(_ db: Database, _ link: SyncPageChanges.Link, now: Date) throws -> Bool {
        guard let take = link.take else { return true }
        guard let record = try StoredValues.fetchRecord(db, id: link.recordID) else { return false }
        guard SyncedValues(grading: record.grading, note: record.note) == link.expected else { return false }
        var grading = record.grading
        grading.rating = take.rating
        grading.media = take.media
        grading.sleeve = take.sleeve
        // The note changes only when its text does: a note that differs from Discogs' only
        // in what Discogs cleans away (a tab, a CR) is kept as written.
        let note = SyncedValues(notes: record.note).notes == take.notes ? record.note : take.notes
        try StoredValues.setGrading(db, recordID: link.recordID, grading: grading, note: note, now: now)
        return true
    }

    /// Links an instance to a copy, with the values both sides hold.
    private static func insertLink(_ db: Database, _ key: DiscogsInstanceKey, recordID: Int64, base: SyncedValues, now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO discogsCopy (instanceID, recordID, releaseID, folderID, baseRating, baseMedia, baseSleeve, baseNotes, syncedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                key.instanceID, recordID, key.releaseID, key.folderID, base.rating.value, base.media?.rawValue, base.sleeve?.rawValue,
                base.notes, StoredValues.seconds(now),
            ])
    }

    /// A copy pulled from Discogs: matched to its release at once (stored from
    /// `basic_information` unless the release is there already), a record without a barcode
    /// (the list does not give one), its release pinned so that a lookup asked for later
    /// fetches the release, as for any record without a barcode known by its release. The
    /// duplicate rules count it among its release's copies.
    private static func insertPulled(_ db: Database, _ pulled: SyncPageChanges.Pulled, now: Date) throws -> Int64 {
        let release: Release
        if let stored = try StoredValues.fetchRelease(db, id: pulled.release.id) {
            release = stored
        } else {
            try StoredValues.upsertRelease(db, pulled.release, now: now)
            release = pulled.release
        }
        let keys = RecordKeys(release: release, gtin: "")
        let grading = CopyGrading(media: pulled.values.media, sleeve: pulled.values.sleeve, rating: pulled.values.rating)
        try db.execute(
            sql: """
                INSERT INTO record (gtin, addedAt, addMethod, note, releaseID, pinnedReleaseID, lookupState, sectionKey, rowKey,
                                    updatedAt, \(StoredValues.gradingColumns.joined(separator: ", ")))
                VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: StatementArguments([
                StoredValues.seconds(pulled.addedAt), AddMethod.discogs.rawValue, pulled.values.notes, release.id,
                release.id, LookupState.matched, keys.section, keys.row, StoredValues.seconds(now),
            ] + StoredValues.gradingValues(grading)))
        let id = db.lastInsertedRowID
        try StoredValues.count(db, sectionKey: keys.section, by: 1)
        try StoredValues.addEvent(
            db, recordID: id, at: now, kind: .matched,
            message: "release \(release.id) (from your Discogs collection, instance \(pulled.key.instanceID)): \(release.displayTitle)")
        return id
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

    /// Links whose copy was deleted in crates and whose instance is still on Discogs (not
    /// flagged removed), oldest link first.
    public func linksDeletedInCrates() async throws(StoreError) -> [SyncLink] {
        try await read { db in
            try Row.fetchAll(db, sql: Self.linkSelect + " WHERE r.id IS NULL AND c.removedAt IS NULL ORDER BY c.instanceID")
                .map(Self.syncLink(from:))
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

    // MARK: The outbox

    /// One planned push.
    public struct OutboxEntry: Hashable, Sendable {
        public enum Kind: String, Sendable {
            case add, update, remove
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
                try db.execute(
                    sql: """
                        INSERT INTO discogsOutbox (kind, recordID, releaseID, folderID, instanceID, createdAt)
                        VALUES ('remove', ?, ?, ?, ?, ?)
                        """,
                    arguments: [link.recordID, link.releaseID, link.folderID, link.instanceID, StoredValues.seconds(now)])
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

    private static let linkSelect = """
        SELECT c.instanceID, c.recordID, c.releaseID, c.folderID, c.baseRating, c.baseMedia, c.baseSleeve, c.baseNotes,
               c.removedAt, r.id, r.addedAt, r.note, r.mediaCondition, r.sleeveCondition, r.rating, r.gtin,
               COALESCE(r.ownArtist, rel.artist, crel.artist), COALESCE(r.ownTitle, rel.title, crel.title)
        FROM discogsCopy c LEFT JOIN record r ON r.id = c.recordID
        LEFT JOIN release rel ON rel.id = r.releaseID
        LEFT JOIN release crel ON crel.id = c.releaseID
        """

    static let outboxSelect = """
        SELECT id, kind, recordID, releaseID, folderID, instanceID, field, value, sentAt FROM discogsOutbox
        """

    /// A link from `linkSelect`'s columns (the record's columns NULL when it was deleted).
    private static func syncLink(from row: Row) throws -> SyncLink {
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
            removed: (row[8] as Double?) != nil, copy: copy, title: title)
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

    /// A JSON array of numbers, for `json_each` (one bound value however many ids).
    static func jsonArray<T: BinaryInteger>(_ values: [T]) -> String {
        "[" + values.map { String($0) }.joined(separator: ",") + "]"
    }
}
