import CratesCore
import Foundation
import GRDB

/// The collection: one SQLite file, written through GRDB's single serial writer.
///
/// - A file store is a `DatabasePool` in WAL mode: readers never block the writer, and a
///   second process (a `crates import` while the TUI runs) can open the same file. Every
///   connection waits up to `busyTimeout` for another process's write lock, and GRDB begins
///   its write transactions IMMEDIATE, so "database is locked" does not reach the user.
/// - An in-memory store (`CatalogueStore.inMemory()`) is a `DatabaseQueue`, for tests.
///
/// All methods may be called from any thread or task; the async ones never block a thread
/// while waiting for the writer.
public final class CatalogueStore: Sendable {
    /// How long a connection waits for another process's lock before giving up.
    public static let busyTimeout: TimeInterval = 10

    /// The database file, nil for an in-memory store.
    public let path: String?
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the crates database at `path`, migrating it to this
    /// build's schema.
    ///
    /// Refused, with the file left untouched: a file that is not SQLite, is damaged, or
    /// holds another application's tables (`StoreError.notACratesDatabase`), and a database
    /// written by a newer crates (`StoreError.newerVersion`). The directory is created with
    /// mode 0700 when missing.
    public init(path: String) throws(StoreError) {
        try StoreLocation.prepareDirectory(for: path)
        try Self.inspect(path: path)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: Self.configuration(label: "crates.store"))
        } catch {
            throw StoreError.opening(path: path, error)
        }
        try Self.migrate(pool, path: path)
        self.path = path
        self.writer = pool
    }

    private init(inMemory queue: DatabaseQueue) {
        self.path = nil
        self.writer = queue
    }

    /// A fresh, empty store in memory (for tests of the layers above).
    public static func inMemory() throws(StoreError) -> CatalogueStore {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration(label: "crates.store.memory"))
        } catch {
            throw StoreError.wrap(error)
        }
        try migrate(queue, path: ":memory:")
        return CatalogueStore(inMemory: queue)
    }

    static func configuration(label: String, readonly: Bool = false) -> Configuration {
        var configuration = Configuration()
        configuration.label = label
        configuration.readonly = readonly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.foreignKeysEnabled = true
        return configuration
    }

    // MARK: Opening safely

    /// The 16 bytes every SQLite 3 database file starts with (SQLite file format §1.3).
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Checks, without writing anything, that the file at `path` (if any) is a crates
    /// database this build can open, or an empty one it may initialise.
    ///
    /// The header is read first, so that a file that is not SQLite never reaches SQLite;
    /// then the database is opened read-only: a read-only connection does not switch the
    /// file to WAL, create tables or record migrations, which opening the pool would.
    static func inspect(path: String) throws(StoreError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue { throw .cannotOpen(path: path, reason: "it is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .cannotOpen(path: path, reason: "the file cannot be read (permissions?)")
        }
        let head: Data
        do {
            head = try handle.read(upToCount: 100) ?? Data()
            try handle.close()
        } catch {
            throw .cannotOpen(path: path, reason: error.localizedDescription)
        }
        // An empty file is an empty database to SQLite: safe to initialise.
        if head.isEmpty { return }
        guard head.count == 100, Array(head.prefix(16)) == sqliteHeader else {
            throw .notACratesDatabase(path: path, reason: "the file is not an SQLite database")
        }

        let verdict: Verdict
        do {
            verdict = try readVerdict(path: path, walMode: head[18] == 2 && head[19] == 2)
        } catch let error as DatabaseError
            where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode)
        {
            throw .notACratesDatabase(path: path, reason: "the database is damaged: \(error.message ?? "\(error)")")
        } catch {
            throw StoreError.opening(path: path, error)
        }
        switch verdict {
        case .ok:
            return
        case .foreign:
            throw .notACratesDatabase(path: path, reason: "it holds another application's tables")
        case let .newer(unknown):
            throw .newerVersion(path: path, unknownMigrations: unknown)
        }
    }

    /// Reads the verdict through a read-only connection.
    ///
    /// A read-only connection to a WAL-mode file (header bytes 18 and 19 are 2, SQLite file
    /// format §1.3.6) creates the `-wal` and `-shm` files beside it, and may leave them: not
    /// welcome next to another application's file, nor next to a newer crates' file that we
    /// refuse. When no `-wal` exists, no connection has the file open, so it is read as an
    /// immutable file instead (SQLite URI `immutable=1`: no locks, no side files).
    private static func readVerdict(path: String, walMode: Bool) throws -> Verdict {
        let inspection = configuration(label: "crates.store.inspect", readonly: true)
        if walMode, !FileManager.default.fileExists(atPath: path + "-wal"), urisEnabled,
           let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
        {
            // Should another process open the file meanwhile, an immutable read may fail:
            // then read it the ordinary way.
            if let verdict = try? DatabaseQueue(path: "file:\(encoded)?immutable=1", configuration: inspection)
                .read({ db in try Self.verdict(db) })
            {
                return verdict
            }
        }
        let queue = try DatabaseQueue(path: path, configuration: inspection)
        defer { try? queue.close() }
        return try queue.read { db in try Self.verdict(db) }
    }

    /// Whether this SQLite reads `file:` URIs as filenames (compile option SQLITE_USE_URI;
    /// GRDB does not pass SQLITE_OPEN_URI).
    private static let urisEnabled: Bool = {
        let probe = try? DatabaseQueue().read { db in
            try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('USE_URI')")
        }
        return probe == true
    }()

    enum Verdict: Equatable, Sendable {
        case ok, foreign
        case newer([String])
    }

    static func verdict(_ db: Database) throws -> Verdict {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID != Schema.applicationID {
            let objects = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0
            return objects == 0 ? .ok : .foreign
        }
        let applied = try Schema.migrator.appliedIdentifiers(db)
        let unknown = applied.subtracting(Schema.knownMigrations).sorted()
        return unknown.isEmpty ? .ok : .newer(unknown)
    }

    /// Applies the migrations this build knows. Two processes opening a new file at once
    /// may race here: the loser's migration fails ("table already exists"), after which the
    /// database is fully migrated by the winner, which is all that matters.
    private static func migrate(_ writer: any DatabaseWriter, path: String) throws(StoreError) {
        let migrator = Schema.migrator
        do {
            try migrator.migrate(writer)
        } catch {
            let completed = (try? writer.read { db in try migrator.hasCompletedMigrations(db) }) ?? false
            if !completed { throw StoreError.opening(path: path, error) }
        }
    }

    // MARK: Access

    /// Runs `updates` in one IMMEDIATE write transaction on the single writer.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.write(updates)
        } catch {
            throw StoreError.wrap(error)
        }
    }

    /// Runs `value` in a read transaction (a snapshot; concurrent with writes on a file).
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.read(value)
        } catch {
            throw StoreError.wrap(error)
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

extension StoreError {
    /// Any error from below as a store error.
    static func wrap(_ error: any Error) -> StoreError {
        switch error {
        case let error as StoreError:
            return error
        case is CancellationError:
            return .database("the operation was cancelled")
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .database(
                    "another program kept the collection locked for more than "
                        + "\(Int(CatalogueStore.busyTimeout)) s; try again")
            case .SQLITE_FULL:
                return .database("the disk is full")
            case .SQLITE_READONLY:
                return .database("the database file is read-only")
            default:
                return .database(error.message ?? "\(error)")
            }
        default:
            return .database("\(error)")
        }
    }

    /// An error met while opening `path`.
    static func opening(path: String, _ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .notACratesDatabase(path: path, reason: "the database is damaged: \(error.message ?? "\(error)")")
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
                return .cannotOpen(path: path, reason: error.message ?? "\(error)")
            default:
                break
            }
        }
        return .cannotOpen(path: path, reason: wrap(error).description)
    }
}
