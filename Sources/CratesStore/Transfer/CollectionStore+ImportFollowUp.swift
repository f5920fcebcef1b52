import CratesCore
import Foundation
import GRDB

/// What the records of an import need once they are added: those waiting for a person,
/// the described rows whose lookup found a copy the collection had already, and the rows
/// Discogs has no release for, entered by hand when asked (`--manual-missing`).
extension CollectionStore {
    /// The records among `ids` (an import's, in the order added) that a row described by its
    /// values added and whose lookup found a release that a record older than all of them
    /// holds: a copy the collection had already. The import's duplicate rule could not see it
    /// before the lookup named the release (`Importer` takes them back out).
    public func describedDuplicates(among ids: [Int64]) async throws(StoreError) -> [Int64] {
        guard let first = ids.min() else { return [] }
        return try await read { db in
            var found: [Int64] = []
            for chunk in stride(from: 0, to: ids.count, by: Self.keysPerStatement) {
                let part = ids[chunk..<min(chunk + Self.keysPerStatement, ids.count)]
                found += try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT r.id FROM record r
                        WHERE r.id IN (\(part.map { _ in "?" }.joined(separator: ", ")))
                          AND r.gtin IS NULL AND r.entryKey IS NOT NULL AND r.lookupState = ?
                          AND EXISTS (SELECT 1 FROM record o WHERE o.releaseID = r.releaseID AND o.id < ?)
                        ORDER BY r.id
                        """,
                    arguments: StatementArguments(Array(part)) + [LookupState.matched, first])
            }
            return found
        }
    }

    /// What the records of an import need now: those waiting for a person, and how many
    /// lookups still wait in the queue.
    public struct ImportFollowUp: Hashable, Sendable {
        /// A record a person must resolve in the TUI: ambiguous (with its candidates) or not
        /// found on Discogs.
        public struct Record: Hashable, Sendable {
            public var id: Int64
            /// Nil for a row described by its values.
            public var gtin: GTIN?
            /// `ambiguous` or `notFound`.
            public var state: LookupState
            /// The pressings to choose from, when ambiguous.
            public var candidateCount: Int
            /// The import key of a row described by its values (`RecordFields.entryKey`).
            public var entryKey: String?
            /// What the record says of itself, for a row without a barcode.
            public var described: RecordFields?
        }

        /// The import's ambiguous and not-found records, oldest first.
        public var needsPerson: [Record]
        /// Records of the whole collection pending or being looked up.
        public var pending: Int
        /// Records of the whole collection whose lookup failed, to be retried later.
        public var failed: Int
    }

    /// The ambiguous and not-found records whose GTIN is in `gtins` (the import's barcodes)
    /// or whose key is in `entryKeys` (the import's described rows), and the queue's length:
    /// two indexed reads, whatever the size of the collection.
    public func importFollowUp(gtins: Set<GTIN>, entryKeys: Set<String> = []) async throws(StoreError) -> ImportFollowUp {
        try await importFollowUp(imported: { gtins.contains($0) }, entryKeys: entryKeys)
    }

    /// `importFollowUp(gtins:entryKeys:)` with the import's barcodes told by `imported` (a
    /// million-line import need not make a set of a million GTINs).
    public func importFollowUp(
        imported: @escaping @Sendable (GTIN) -> Bool, entryKeys: Set<String> = []
    ) async throws(StoreError) -> ImportFollowUp {
        try await importFollowUp(imported: imported, isImportedKey: { entryKeys.contains($0) })
    }

    /// `importFollowUp(imported:entryKeys:)` with the described rows' keys told by
    /// `isImportedKey` too (a million described rows need not make a set of their keys).
    public func importFollowUp(
        imported: @escaping @Sendable (GTIN) -> Bool, isImportedKey: @escaping @Sendable (String) -> Bool
    ) async throws(StoreError) -> ImportFollowUp {
        try await read { db in
            var needsPerson: [ImportFollowUp.Record] = []
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, gtin, lookupState, candidateCount, entryKey, \(StoredValues.ownColumns.joined(separator: ", "))
                    FROM record WHERE lookupState IN (?, ?) ORDER BY id
                    """,
                arguments: [LookupState.ambiguous, LookupState.notFound])
            while let row = try rows.next() {
                let id: Int64 = row[0]
                let state = try StoredValues.lookupState(row[2], recordID: id)
                if let gtinText = row[1] as String? {
                    guard let gtin = GTIN(canonical: gtinText) else {
                        throw StoreError.unreadableValue(recordID: id, column: "gtin", value: gtinText)
                    }
                    guard imported(gtin) else { continue }
                    needsPerson.append(.init(id: id, gtin: gtin, state: state, candidateCount: row[3]))
                } else if let key = row[4] as String?, isImportedKey(key) {
                    needsPerson.append(.init(
                        id: id, gtin: nil, state: state, candidateCount: row[3], entryKey: key,
                        described: try StoredValues.collector(from: row, at: 5)))
                }
            }
            let counts = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM record WHERE lookupState IN (?, ?)),
                           (SELECT COUNT(*) FROM record WHERE lookupState = ?)
                    """,
                arguments: [LookupState.pending, LookupState.lookingUp, LookupState.failed])
            return ImportFollowUp(
                needsPerson: needsPerson, pending: counts.map { $0[0] } ?? 0, failed: counts.map { $0[1] } ?? 0)
        }
    }

    /// `--manual-missing`: the import's described rows that Discogs has no release for (not
    /// found, keyed in `entryKeys`) become records entered by hand, their values the
    /// record. Returns how many.
    public func enterNotFoundByHand(entryKeys: Set<String>, now: Date = Date()) async throws(StoreError) -> Int {
        guard !entryKeys.isEmpty else { return 0 }
        return try await enterNotFoundByHand(isImportedKey: { entryKeys.contains($0) }, now: now)
    }

    /// `enterNotFoundByHand(entryKeys:now:)` with the keys told by `isImportedKey`.
    public func enterNotFoundByHand(
        isImportedKey: @escaping @Sendable (String) -> Bool, now: Date = Date()
    ) async throws(StoreError) -> Int {
        try await write { db in
            var count = 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT id, entryKey FROM record WHERE lookupState = ? AND gtin IS NULL AND entryKey IS NOT NULL",
                arguments: [LookupState.notFound])
            for row in rows where isImportedKey(row[1]) {
                let id: Int64 = row[0]
                try db.execute(
                    sql: "UPDATE record SET lookupState = ?, updatedAt = ? WHERE id = ?",
                    arguments: [LookupState.handEntered, StoredValues.seconds(now), id])
                try StoredValues.addEvent(
                    db, recordID: id, at: now, kind: .enteredByHand, message: "entered by hand: not on Discogs (--manual-missing)")
                count += 1
            }
            return count
        }
    }
}
