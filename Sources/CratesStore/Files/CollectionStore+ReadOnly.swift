import CratesCore
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// Opening the collection for a command that only reads (`crates list`, `crates export`):
/// nothing is written, nothing is created, so a collection the user may not write (file mode
/// 0444, or a directory 0555, or a backup on read-only media) can still be read.
extension CollectionStore {
    /// Opens the crates database at `path` read-only: no migration, no new file, no change
    /// to the file's journal mode. Every write through this store fails.
    ///
    /// Refused: a missing (or empty) file, or an SQLite database with nothing in it
    /// (`StoreError.noDatabase`, never created here), a file that is not a crates database,
    /// is damaged or incomplete, or is a newer crates' (as `init(path:)` refuses them), a file
    /// every user may write (`.unsafeFile`; another user's file is read: see `checkFiles`),
    /// and a database an older crates wrote that this build would have to migrate first
    /// (`StoreError.needsMigration`).
    ///
    /// SQLite reads a WAL-mode file through its `-shm` index, which it must be able to create
    /// beside the file; in a directory the user cannot write, and with no `-wal` file (so no
    /// process has the file open for writing), the file is read as immutable instead (SQLite
    /// URI `immutable=1`: no locks, no side files).
    public convenience init(readingAt path: String, busyTimeout: TimeInterval = defaultBusyTimeout) throws(StoreError) {
        try Self.checkReadable(path)
        try Self.inspect(path: path)
        let queue = try Self.openReadOnly(
            path, Self.configuration(label: "crates.store.read", readonly: true, busyTimeout: busyTimeout))
        let pending: [String]?
        do {
            pending = try queue.read { db in
                // An SQLite database with nothing in it holds no collection yet.
                if try Self.verdict(db) == .empty { return nil }
                let applied = try Schema.migrator.appliedIdentifiers(db)
                return Schema.knownMigrations.filter { !applied.contains($0) }
            }
        } catch {
            throw StoreError.opening(path: path, error)
        }
        guard let pending else { throw .noDatabase(path: path) }
        if !pending.isEmpty { throw .needsMigration(path: path, pendingMigrations: pending) }
        self.init(path: path, writer: queue, busyTimeout: busyTimeout, readOnly: true)
    }

    /// Refuses, before SQLite sees it, what cannot be read as a collection: no file, an empty
    /// one (`noDatabase`: there is no collection yet), a directory, and a file every user may
    /// write (`checkFiles`).
    static func checkReadable(_ path: String) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { throw .noDatabase(path: path) }
            throw .cannotOpen(path: path, reason: String(cString: strerror(code)))
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw .cannotOpen(path: path, reason: "it is a directory") }
        if info.st_size == 0 { throw .noDatabase(path: path) }
        try checkFiles(path: path, writing: false)
    }

    static func openReadOnly(_ path: String, _ configuration: Configuration) throws(StoreError) -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // The first read opens the WAL index: where it cannot be created, this fails.
            _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError
            where [.SQLITE_READONLY, .SQLITE_CANTOPEN].contains(error.resultCode)
                && !FileManager.default.fileExists(atPath: path + "-wal") && urisEnabled
        {
            guard let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
                throw StoreError.opening(path: path, error)
            }
            do {
                return try DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: configuration)
            } catch {
                throw StoreError.opening(path: path, error)
            }
        } catch {
            throw StoreError.opening(path: path, error)
        }
    }
}
