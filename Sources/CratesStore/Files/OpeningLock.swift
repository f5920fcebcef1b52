import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Serialises the opening of a collection file between crates processes: checking it,
/// switching a new file to WAL, and running the migrations.
///
/// Two commands started at once on a collection that does not exist yet (two `crates sync`,
/// four `crates add`) otherwise both see an empty file and both migrate it: the loser fails
/// half-way ("duplicate column name", or SQLITE_BUSY at once where a read transaction would
/// have to become a write one), and its command fails (several processes may share
/// the collection, from its first moment). Once opened, SQLite's own locks and the busy
/// timeout serialise the writes.
///
/// The lock is flock(2) on the database's directory, held only while opening: it makes no
/// file of its own, and it never touches the database file, whose POSIX locks SQLite holds
/// (closing any other descriptor of that file would drop them). A directory that cannot be
/// opened for reading is opened without the lock, as before.
enum OpeningLock {
    /// Runs `body` holding the lock of the directory that holds `path`.
    static func holding<T>(forDatabaseAt path: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let directory = StoreLocation.directoryPart(of: path)
        let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }  // which releases the lock
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        return try body()
    }
}
