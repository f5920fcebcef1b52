import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Leaving the collection file complete when a process ends.
///
/// In WAL mode a commit goes to the `-wal` file; SQLite copies it into the collection file
/// (a checkpoint) every thousand pages, and when the last connection closes. A process that
/// ends while another has the collection open (the UI, a second import) leaves its changes in
/// the `-wal` file only, and a collector who copies `crates.sqlite` alone (as one does with a
/// one-file database) copies an incomplete, often empty, collection. So every process that
/// opened the collection for writing checkpoints it as it ends, last connection or not.
extension CollectionStore {
    /// The collection files this process opened for writing, each with its busy timeout.
    private static let written = Mutex<[String: TimeInterval]>([:])

    /// Remembers `path` for `checkpointWrittenCollections`.
    static func rememberWritten(_ path: String, busyTimeout: TimeInterval) {
        written.withLock { $0[path] = busyTimeout }
    }

    /// Copies everything the collection's `-wal` file holds into the collection file and
    /// empties the `-wal` file (`PRAGMA wal_checkpoint(TRUNCATE)`), through a connection of
    /// its own: whatever this process's other connections are doing, it never waits for them
    /// longer than `timeout`, as for any other process's.
    ///
    /// Waits up to `timeout` for a transaction under way (this process's or another's) to end,
    /// and for the readers of older snapshots; past that, copies what it can without waiting.
    /// Returns whether the collection file holds every commit now (true too when there is no
    /// `-wal` file). Never creates a file: a collection deleted meanwhile stays deleted.
    @discardableResult
    public static func checkpoint(path: String, timeout: TimeInterval) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return false }
        guard FileManager.default.fileExists(atPath: path + "-wal") else { return true }
        var configuration = Configuration()
        configuration.label = "crates.store.checkpoint"
        configuration.busyMode = .timeout(timeout)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            // (busy, frames in the log, frames copied): busy, with every frame copied all the
            // same, is complete too.
            guard let row = try queue.inDatabase({ db in try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") })
            else { return false }
            let frames: Int = row[1]
            let copied: Int = row[2]
            return frames == copied
        } catch {
            return false
        }
    }

    /// Checkpoints (`checkpoint(path:timeout:)`) every collection this process opened for
    /// writing, each waiting at most its busy timeout, or `timeout` when given (a process asked
    /// to quit at once). Call it as the process ends.
    public static func checkpointWrittenCollections(timeout: TimeInterval? = nil) {
        for (path, busyTimeout) in written.withLock({ $0 }) {
            checkpoint(path: path, timeout: timeout ?? busyTimeout)
        }
    }

    /// Has the process run `checkpointWrittenCollections()` when it exits (exit(3), or main
    /// returning): once, however often it is called. A process ended by a signal's default
    /// action runs no exit handler: a command that writes handles the stop signals itself.
    public static func checkpointWrittenCollectionsAtExit() {
        guard !exitHandlerInstalled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        atexit { CollectionStore.checkpointWrittenCollections() }
    }

    private static let exitHandlerInstalled = Atomic<Bool>(false)
}
