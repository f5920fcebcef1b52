import CratesCore
import Foundation
import GRDB

/// Places (room › shelf › crate) and which copy is in which: the tree, its changes, and
/// moving records between places. The rules a change must keep (a name unique among the
/// places in one place, no place inside itself) are checked inside the write transaction,
/// against the tree as it is then, so that two processes cannot break them between a check
/// and a write.
extension CollectionStore {
    /// Every place with the copies in each.
    public func locationTree() async throws(StoreError) -> LocationTree {
        try await read { db in try Self.fetchTree(db) }
    }

    /// The place with this id and its path; nil when there is none.
    public func location(_ id: Int64) async throws(StoreError) -> Location? {
        try await read { db in try StoredValues.fetchLocation(db, id: id) }
    }

    /// Adds a place called `name` (checked by `LocationName.checked`) inside `parent` (nil:
    /// at the top).
    public func addLocation(name: String, in parent: Int64?, now: Date = Date()) async throws(StoreError) -> Location {
        let name = try Self.checkedName(name)
        return try await write { db in
            let tree = try Self.fetchTree(db)
            let container = try parent.map { id throws(StoreError) in try Self.existing(id, in: tree) }
            if tree.child(named: name, in: parent) != nil { throw StoreError.location(.exists(name: name, in: container)) }
            let id = try Self.insertLocation(db, name: name, parent: parent, now: now)
            guard let location = try StoredValues.fetchLocation(db, id: id) else { throw StoreError.location(.unknownID(id)) }
            return location
        }
    }

    /// Where a place goes: to the top, or inside another place.
    public enum LocationParent: Hashable, Sendable {
        case top
        case inside(Int64)

        var id: Int64? {
            if case .inside(let id) = self { return id }
            return nil
        }
    }

    /// Renames a place (`name`), moves it with what it holds (`parent`), or both, in one
    /// transaction. Refused: a name taken where the place would be, and a parent that is the
    /// place itself or inside it.
    public func changeLocation(
        _ id: Int64, name: String? = nil, parent: LocationParent? = nil
    ) async throws(StoreError) -> Location {
        let newName = try name.map { text throws(StoreError) in try Self.checkedName(text) }
        return try await write { db in
            let tree = try Self.fetchTree(db)
            let place = try Self.existing(id, in: tree)
            let name = newName ?? place.name
            let parentID = parent.map(\.id) ?? place.parentID
            var container: Location?
            if let parentID {
                let into = try Self.existing(parentID, in: tree)
                if tree.isWithin(parentID, id) { throw StoreError.location(.cycle(place: place, into: into)) }
                container = into
            }
            if let clash = tree.child(named: name, in: parentID), clash.id != id {
                throw StoreError.location(.exists(name: name, in: container))
            }
            try db.execute(
                sql: "UPDATE location SET name = ?, nameKey = ?, parentID = ? WHERE id = ?",
                arguments: [name, LocationName.key(name), parentID, id])
            try Self.refreshPlaceKeys(db)
            guard let location = try StoredValues.fetchLocation(db, id: id) else { throw StoreError.location(.unknownID(id)) }
            return location
        }
    }

    /// What removing a place took away.
    public struct LocationRemoval: Hashable, Sendable {
        /// The place removed, with its path as it was.
        public var location: Location
        /// Places removed with it (those inside it), when nothing received them.
        public var placesRemoved: Int
        /// Places moved into the receiving place.
        public var placesMoved: Int
        /// Copies moved into the receiving place.
        public var recordsMoved: Int
        /// Copies left in no place.
        public var recordsUnplaced: Int
    }

    /// Removes a place. With `moveTo`, what it holds directly (places and copies) moves into
    /// that place first; without, the places inside it are removed too and every copy in
    /// any of them is left in no place (the records stay in the collection). Asking first is
    /// the caller's part.
    public func removeLocation(_ id: Int64, moveTo: Int64? = nil) async throws(StoreError) -> LocationRemoval {
        try await write { db in
            let tree = try Self.fetchTree(db)
            let place = try Self.existing(id, in: tree)
            var removal = LocationRemoval(
                location: place, placesRemoved: 0, placesMoved: 0, recordsMoved: 0, recordsUnplaced: 0)
            if let moveTo {
                let target = try Self.existing(moveTo, in: tree)
                if tree.isWithin(moveTo, id) { throw StoreError.location(.moveIntoRemoved(removing: place, into: target)) }
                for child in tree.children(of: id) {
                    if tree.child(named: child.name, in: moveTo) != nil {
                        throw StoreError.location(.exists(name: child.name, in: target))
                    }
                    try db.execute(sql: "UPDATE location SET parentID = ? WHERE id = ?", arguments: [moveTo, child.id])
                    removal.placesMoved += 1
                }
                removal.recordsMoved = try Self.moveAll(db, from: [id], to: moveTo)
                try db.execute(sql: "DELETE FROM location WHERE id = ?", arguments: [id])
            } else {
                let subtree = tree.subtree(id)
                removal.recordsUnplaced = try Self.moveAll(db, from: subtree, to: nil)
                // Innermost first: a place's parent must outlive it (foreign key).
                for place in subtree.reversed() {
                    try db.execute(sql: "DELETE FROM location WHERE id = ?", arguments: [place])
                }
                removal.placesRemoved = subtree.count - 1
            }
            try Self.refreshPlaceKeys(db)
            return removal
        }
    }

    /// A copy moved, and where it was.
    public struct MovedRecord: Hashable, Sendable {
        public var recordID: Int64
        /// Its place before the move; nil: none.
        public var from: Int64?

        public init(recordID: Int64, from: Int64?) {
            self.recordID = recordID
            self.from = from
        }
    }

    /// Moves records into a place (nil: out of any place); ids not found are skipped. Returns
    /// the records moved and where each was, for `restoreLocations` (an undo).
    @discardableResult
    public func moveRecords(_ ids: [Int64], to location: Int64?, now: Date = Date()) async throws(StoreError) -> [MovedRecord] {
        try await write { db in
            if let location, try StoredValues.fetchLocation(db, id: location) == nil {
                throw StoreError.location(.unknownID(location))
            }
            // Two statements however many records (a tagged move takes 10,000): where each
            // was, then the move; the ids go to SQLite as one JSON array.
            let list = Self.jsonArray(ids)
            var from: [Int64: Int64?] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT id, locationID FROM record WHERE id IN (SELECT value FROM json_each(?))", arguments: [list])
            while let row = try rows.next() { from[row[0]] = row[1] as Int64? }
            try db.execute(
                sql: "UPDATE record SET locationID = ?, updatedAt = ? WHERE id IN (SELECT value FROM json_each(?))",
                arguments: [location, StoredValues.seconds(now), list])
            // In the order asked, each once; ids not found skipped.
            var seen: Set<Int64> = []
            return ids.compactMap { id in
                guard let place = from[id], seen.insert(id).inserted else { return nil }
                return MovedRecord(recordID: id, from: place)
            }
        }
    }

    /// Puts records back where `moved` says they were (an undo of `moveRecords`). A place
    /// removed meanwhile leaves its copies in none; records deleted meanwhile are skipped.
    public func restoreLocations(_ moved: [MovedRecord], now: Date = Date()) async throws(StoreError) {
        try await write { db in
            // One statement per place the records came from (a tagged move's came from a few).
            for (from, items) in Dictionary(grouping: moved, by: \.from) {
                try db.execute(
                    sql: """
                        UPDATE record SET locationID = (SELECT id FROM location WHERE id = ?), updatedAt = ?
                        WHERE id IN (SELECT value FROM json_each(?))
                        """,
                    arguments: [from, StoredValues.seconds(now), Self.jsonArray(items.map(\.recordID))])
            }
        }
    }

    /// The latest copies of `gtin`, newest first, with their places: what a scan with a
    /// place current may move.
    public func copiesWithLocations(of gtin: GTIN, limit: Int = 50) async throws(StoreError) -> [CollectionRecord] {
        try await latestCopies(where: "gtin = ?", [gtin.canonical], limit: limit)
    }

    /// The latest copies of the Discogs release `id` (matched to it, or pinned to it), newest
    /// first, with their places: the duplicate rule for a release that lists no barcode.
    public func copiesWithLocations(ofRelease id: Int, limit: Int = 50) async throws(StoreError) -> [CollectionRecord] {
        try await latestCopies(where: "releaseID = ? OR pinnedReleaseID = ?", [id, id], limit: limit)
    }

    private func latestCopies(
        where condition: String, _ arguments: StatementArguments, limit: Int
    ) async throws(StoreError) -> [CollectionRecord] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(StoredValues.recordColumns) FROM record WHERE \(condition) ORDER BY id DESC LIMIT ?",
                arguments: arguments + [limit]
            ).map { row in try StoredValues.record(from: row) { try StoredValues.fetchLocation(db, id: $0) } }
        }
    }

    // MARK: Implementation

    static func fetchTree(_ db: Database) throws -> LocationTree {
        let rows = try Row.fetchAll(db, sql: """
            SELECT l.id, l.name, l.parentID, ifnull(c.count, 0)
            FROM location l
            LEFT JOIN (SELECT locationID, COUNT(*) AS count FROM record WHERE locationID IS NOT NULL GROUP BY locationID) c
                ON c.locationID = l.id
            """)
        return LocationTree(rows.map { row in
            LocationTree.Node(id: row[0], name: row[1], parentID: row[2], count: row[3])
        })
    }

    /// The place with this id in `tree`, or the error that names the missing id.
    static func existing(_ id: Int64, in tree: LocationTree) throws(StoreError) -> Location {
        guard let location = tree.location(id) else { throw .location(.unknownID(id)) }
        return location
    }

    static func checkedName(_ name: String) throws(StoreError) -> String {
        do {
            return try LocationName.checked(name)
        } catch {
            throw .location(error)
        }
    }

    /// `id`: the id to give it (a restored place's, which its label code carries); nil: the next.
    static func insertLocation(_ db: Database, id: Int64? = nil, name: String, parent: Int64?, now: Date) throws -> Int64 {
        try db.execute(
            sql: "INSERT INTO location (id, parentID, name, nameKey, createdAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [id, parent, name, LocationName.key(name), StoredValues.seconds(now)])
        let id = db.lastInsertedRowID
        try refreshPlaceKeys(db)
        return id
    }

    /// Moves every copy in the places `from` to `to`; how many moved.
    static func moveAll(_ db: Database, from places: [Int64], to: Int64?) throws -> Int {
        guard !places.isEmpty else { return 0 }
        try db.execute(
            sql: """
                UPDATE record SET locationID = ?, updatedAt = ?
                WHERE locationID IN (\(Array(repeating: "?", count: places.count).joined(separator: ", ")))
                """,
            arguments: StatementArguments([to]) + StatementArguments([StoredValues.seconds(Date())]) + StatementArguments(places))
        return db.changesCount
    }

    /// The place each imported location text goes to (see
    /// `LocationTree.placement(forImported:)`), making the places that are missing. One
    /// tree read for a batch, whatever its size.
    static func placeImported(_ db: Database, _ texts: Set<String>, now: Date) throws -> [String: Int64] {
        guard !texts.isEmpty else { return [:] }
        var tree = try fetchTree(db)
        var places: [String: Int64] = [:]
        for text in texts.sorted() {
            switch tree.placement(forImported: text) {
            case nil:
                continue
            case .existing(let id):
                places[text] = id
            case .create(var parent, let names):
                for name in names {
                    parent = try insertLocation(db, name: name, parent: parent, now: now)
                }
                places[text] = parent
                tree = try fetchTree(db)
            }
        }
        return places
    }

    /// Makes the places that imported rows name with their label codes (crates' CSV export's
    /// `Location Codes`) and the collection lacks, each with the id its code carries when no
    /// place has it, so that its printed label still scans; a place whose id another place
    /// holds gets the next id, and is returned to be said. Rows without codes, or whose codes
    /// do not match their path place for place, are left to `placeImported`.
    static func placeImportedKeepingCodes(
        _ db: Database, _ entries: [ImportEntry], now: Date
    ) throws -> [CollectionStore.RenumberedPlace] {
        var wanted: [String: [Int64]] = [:]
        for entry in entries where !entry.locationCodes.isEmpty {
            if let location = entry.location, wanted[location] == nil { wanted[location] = entry.locationCodes }
        }
        guard !wanted.isEmpty else { return [] }
        var tree = try fetchTree(db)
        var renumbered: [CollectionStore.RenumberedPlace] = []
        for (text, codes) in wanted.sorted(by: { $0.key < $1.key }) {
            let path = LocationTree.importedPath(text)
            guard path.count == codes.count, case .create(var parent, let names)? = tree.placement(forImported: text) else { continue }
            for (offset, name) in names.enumerated() {
                let depth = path.count - names.count + offset
                let code = codes[depth]
                if let holder = tree.location(code) {
                    parent = try insertLocation(db, name: name, parent: parent, now: now)
                    renumbered.append(CollectionStore.RenumberedPlace(
                        path: path.prefix(depth + 1).joined(separator: Location.separator), wanted: code,
                        holder: holder.pathText, id: parent ?? 0))
                } else {
                    parent = try insertLocation(db, id: code, name: name, parent: parent, now: now)
                }
                tree = try fetchTree(db)
            }
        }
        return renumbered
    }

    /// The place and every place inside it: the ids a filter by place takes.
    static func subtree(_ db: Database, of id: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            WITH RECURSIVE inside(id) AS (
                SELECT id FROM location WHERE id = ?
                UNION SELECT l.id FROM location l JOIN inside ON l.parentID = inside.id
            )
            SELECT id FROM inside
            """, arguments: [id])
    }
}

extension StoredValues {
    /// The place with its path (its ancestors read up the tree in one recursive query).
    static func fetchLocation(_ db: Database, id: Int64) throws -> Location? {
        let rows = try Row.fetchAll(db, sql: """
            WITH RECURSIVE chain(id, parentID, name, depth) AS (
                SELECT id, parentID, name, 0 FROM location WHERE id = ?
                UNION ALL
                SELECT l.id, l.parentID, l.name, chain.depth + 1 FROM location l JOIN chain ON l.id = chain.parentID
                WHERE chain.depth < 1000
            )
            SELECT id, parentID, name FROM chain ORDER BY depth
            """, arguments: [id])
        guard let first = rows.first else { return nil }
        return Location(
            id: first[0], name: first[2], parentID: first[1], ancestors: rows.dropFirst().reversed().map { $0[2] })
    }
}
