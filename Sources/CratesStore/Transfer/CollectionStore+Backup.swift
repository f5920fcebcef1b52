import Foundation
import GRDB

/// `crates backup`: a copy of the collection that is whole on its own, taken while it may be
/// in use.
extension CollectionStore {
    /// Writes the collection at `path` into `destination`, an empty file (or none), as one
    /// snapshot (`VACUUM INTO`): every commit up to the moment it starts, whether still in the
    /// `-wal` file or not, and nothing half written. Another process may go on writing
    /// meanwhile. The copy is in rollback-journal mode, so it needs no `-wal` or `-shm` file:
    /// it opens anywhere, read-only too (a file of mode 0444, on read-only media).
    ///
    /// The collection is opened read-only (as `init(readingAt:)`: never created, readable
    /// without write permission), and refused as it refuses a file (`noDatabase`, not a crates
    /// database, damaged, incomplete, writable by every user); a collection that an older or a
    /// newer crates wrote is copied as it is.
    public static func writeCopy(ofCollectionAt path: String, to destination: String) throws(StoreError) {
        try checkReadable(path)
        do {
            try inspect(path: path)
        } catch .newerVersion {
            // Copied all the same: the copy is as the newer crates left it.
        }
        let queue = try openReadOnly(path, configuration(label: "crates.store.backup", readonly: true))
        defer { try? queue.close() }
        do {
            let empty = try queue.read { db in try verdict(db) == .empty }
            if empty { throw StoreError.noDatabase(path: path) }
            // Outside a transaction (VACUUM refuses to run in one); it reads one snapshot.
            try queue.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
        } catch {
            throw StoreError.wrap(error)
        }
    }
}
