import CratesCore
import Foundation
import GRDB

/// A sync's page of instances in the store: what it needs to decide about the page (the
/// links, the copies not linked yet), and its decisions written in one transaction that
/// checks again what another sync may have written meanwhile.
extension CollectionStore {
    // MARK: Reading a page's context

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
    /// an instance) is left as the other sync wrote it, never pulled twice (the rule
    /// of every add: no copy doubled by processes at once).
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
}
