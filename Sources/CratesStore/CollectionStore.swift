import CratesCore
import Foundation
import GRDB

/// The collection: one SQLite file, written through GRDB's single serial writer.
///
/// - A file store is a `DatabasePool` in WAL mode: readers never block the writer, and a
///   second process (a `crates import` while the TUI runs) can open the same file. Every
///   connection waits up to `busyTimeout` for another process's write lock, and GRDB begins
///   its write transactions IMMEDIATE, so "database is locked" does not reach the user.
/// - An in-memory store (`CollectionStore.inMemory()`) is a `DatabaseQueue`, for tests.
///
/// All methods may be called from any thread or task; the async ones never block a thread
/// while waiting for the writer.
public final class CollectionStore: Sendable {
    /// How long a connection waits for another process's lock before giving up, unless
    /// told otherwise.
    public static let defaultBusyTimeout: TimeInterval = 10

    /// The database file, nil for an in-memory store.
    public let path: String?
    /// How long this store's connections wait for another process's lock.
    public let busyTimeout: TimeInterval
    /// Whether the store was opened read-only (`init(readingAt:)`): every write fails.
    public let isReadOnly: Bool
    /// How many busy timeouts a write waits for another process's lock.
    public let patience: LockPatience
    let writer: any DatabaseWriter
    /// The filter's records held in memory between the keystrokes of `window(_:)`.
    let filterSnapshots = FilterSnapshots()

    /// Opens (creating if needed) the crates database at `path`, migrating it to this
    /// build's schema.
    ///
    /// Refused, with the file left untouched: a file that is not SQLite, is damaged, or
    /// holds another application's tables (`StoreError.notACratesDatabase`, `.damaged`), what
    /// is left of a collection copied without its -wal file (`.incomplete`), a database
    /// written by a newer crates (`StoreError.newerVersion`), and a file (or a -wal, -shm or
    /// -journal beside it) this user should not trust with the collection
    /// (`.unsafeFile`: see `checkFiles`). The directory is created with mode 0700 when
    /// missing. `busyTimeout`: how long to wait for another process's lock; `patience`: how
    /// many of those a write waits, and whom to tell that it waits.
    ///
    /// The path is remembered for `checkpointWrittenCollections`, which the command line
    /// runs as the process ends.
    ///
    /// `upgrading` is told, before it starts, of an upgrade of a collection of at least
    /// `upgradeNoticeRecords` records to this build's schema (an upgrade may build an index
    /// over every record: a minute or so a million records), with the number
    /// of records, so that the caller can say why it waits.
    public init(
        path: String, busyTimeout: TimeInterval = defaultBusyTimeout, patience: LockPatience = .oneTimeout,
        upgrading: ((_ records: Int) -> Void)? = nil
    ) throws(StoreError) {
        try StoreLocation.prepareDirectory(for: path)
        // One process at a time checks, creates and migrates the file (`OpeningLock`).
        let pool = try OpeningLock.holding(forDatabaseAt: path) { () throws(StoreError) -> DatabasePool in
            try Self.checkFiles(path: path, writing: true)
            try Self.inspect(path: path)
            let pool: DatabasePool
            do {
                pool = try DatabasePool(
                    path: path, configuration: Self.configuration(label: "crates.store", busyTimeout: busyTimeout))
            } catch {
                throw StoreError.opening(path: path, error)
            }
            try Self.migrate(pool, path: path, upgrading: upgrading)
            return pool
        }
        self.path = path
        self.writer = pool
        self.busyTimeout = busyTimeout
        self.isReadOnly = false
        self.patience = patience
        Self.rememberWritten(path, busyTimeout: busyTimeout)
    }

    init(path: String?, writer: any DatabaseWriter, busyTimeout: TimeInterval, readOnly: Bool) {
        self.path = path
        self.writer = writer
        self.busyTimeout = busyTimeout
        self.isReadOnly = readOnly
        self.patience = .oneTimeout
    }

    /// A fresh, empty store in memory (for tests of the layers above).
    public static func inMemory() throws(StoreError) -> CollectionStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration(label: "crates.store.memory"))
        } catch {
            throw StoreError.wrap(error)
        }
        try migrate(queue, path: ":memory:")
        return CollectionStore(path: nil, writer: queue, busyTimeout: defaultBusyTimeout, readOnly: false)
    }

    static func configuration(
        label: String, readonly: Bool = false, busyTimeout: TimeInterval = defaultBusyTimeout
    ) -> Configuration {
        var configuration = Configuration()
        configuration.label = label
        configuration.readonly = readonly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            db.add(function: ClaimOwner.sqlFunction)
            try FilterContains.register(db)
            db.add(function: QueryFolding.function)
        }
        return configuration
    }

    // MARK: Access

    /// Runs `updates` in one IMMEDIATE write transaction on the single writer, waiting for
    /// another process's lock as long as `patience` (the store's unless given) allows.
    ///
    /// A transaction refused for the lock was refused at its BEGIN (IMMEDIATE takes the
    /// write lock first; in WAL mode the commit needs no other), so `updates` ran not at all
    /// or was rolled back whole: running it again writes it once.
    ///
    /// `finishing`: each attempt runs to its end even when the calling task is cancelled
    /// (`uncancelled`), so that a stop finds the transaction in hand committed, never cut
    /// short; the cancellation is heard between attempts, and ends the wait for a lock. A
    /// cancelled task's writes otherwise throw at once (GRDB's async accesses do).
    func write<T: Sendable>(
        patience: LockPatience? = nil, finishing: Bool = false,
        _ updates: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        let patience = patience ?? self.patience
        var attempts = 1
        let writer = self.writer
        while true {
            do {
                if finishing {
                    return try await uncancelled { try await writer.write(updates) }
                }
                return try await writer.write(updates)
            } catch {
                let wrapped = StoreError.wrap(error, busyTimeout: busyTimeout)
                guard case .locked = wrapped else { throw wrapped }
                guard attempts < patience.attempts, !Task.isCancelled else {
                    throw .locked(seconds: busyTimeout * Double(attempts))
                }
                if attempts == 1 { patience.waiting?() }
                attempts += 1
            }
        }
    }

    /// Runs `value` in a read transaction (a snapshot; concurrent with writes on a file).
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.read(value)
        } catch {
            throw StoreError.wrap(error, busyTimeout: busyTimeout)
        }
    }

    /// SQLite's own check of the whole file: empty when the database is sound, otherwise
    /// the problems it found (`PRAGMA integrity_check`).
    public func integrityProblems() async throws(StoreError) -> [String] {
        try await read { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
        }
    }
}
